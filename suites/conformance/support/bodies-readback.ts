/**
 * "What was sent reads back": the fields of a written body compared with a later read of the resource.
 *
 * Compared: every field sent that the read's schema declares. Not compared, each for a reason:
 * - `writeOnly` fields (passwords, keys: the API never shows them again);
 * - fields sent as `null` (null asks for the default, e.g. reverse DNS reset to the generated name);
 * - fields the read does not declare (`booted` is an instruction, not a field of the instance).
 * Lists of plain values compare as sets: neither the description nor facts.md promises order or repeats.
 * Date-times compare as instants (`...Z` and `+00:00` are the same time).
 * @module
 */
import type { BodySchema } from "../../../src/generators/request-body.ts";

export interface Difference {
  readonly field: string;
  readonly sent: unknown;
  readonly read: unknown;
}

export function readBackDifferences(
  sent: Readonly<Record<string, unknown>>,
  read: unknown,
  request: BodySchema,
  response: BodySchema | undefined,
  prefix = "",
): Difference[] {
  const differences: Difference[] = [];
  const shown = (read ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(sent)) {
    const asked = request.properties?.[name];
    const declared = response?.properties?.[name];
    if (asked?.writeOnly || declared?.writeOnly || value === null || !declared) continue;
    compare(`${prefix}${name}`, value, shown[name], asked, declared, differences);
  }
  return differences;
}

function compare(
  field: string,
  sent: unknown,
  read: unknown,
  asked: BodySchema | undefined,
  declared: BodySchema,
  differences: Difference[],
): void {
  if (Array.isArray(sent)) {
    if (!Array.isArray(read)) {
      differences.push({ field, sent, read });
      return;
    }
    if (sent.every((item) => typeof item !== "object" || item === null)) {
      const key = (item: unknown) => JSON.stringify(item);
      const a = new Set(sent.map(key));
      const b = new Set(read.map(key));
      if (a.size !== b.size || [...a].some((item) => !b.has(item))) differences.push({ field, sent, read });
      return;
    }
    if (sent.length !== read.length) {
      differences.push({ field, sent, read });
      return;
    }
    sent.forEach((item, index) => {
      if (asked?.items && declared.items) {
        compare(`${field}[${index}]`, item, read[index], asked.items, declared.items, differences);
      }
    });
    return;
  }
  if (typeof sent === "object" && sent !== null) {
    if (!asked) return;
    differences.push(
      ...readBackDifferences(sent as Record<string, unknown>, read, asked, declared, `${field}.`),
    );
    return;
  }
  if (
    (asked?.format ?? declared.format) === "date-time" &&
    typeof sent === "string" &&
    typeof read === "string"
  ) {
    if (Date.parse(sent) !== Date.parse(read)) differences.push({ field, sent, read });
    return;
  }
  if (sent !== read) differences.push({ field, sent, read });
}
