/**
 * "What was sent reads back": the fields of a written body compared with a later read of the resource, and what a
 * report may show of a body.
 *
 * Compared: every field sent that the read's schema declares. Not compared, each for a reason:
 * - `writeOnly` fields (passwords, keys: the API never shows them again);
 * - fields sent as `null` (null asks for the default, e.g. reverse DNS reset to the generated name);
 * - fields the read does not declare (`booted` is an instruction, not a field of the instance).
 * Lists of plain values compare as sets: neither the description nor facts.md promises order or repeats.
 * Date-times compare as instants (`...Z` and `+00:00` are the same time, and a time without designator, as the API
 * writes them, is UTC: `utcInstant`, never `Date.parse`, which reads it as local time). A sub-list the write replaces (a
 * rebuild's `nodes`) must show exactly the items sent, matched by label.
 * @module
 */
import type { BodySchema } from "../../generators/request-body.ts";
import type { LiveResponse } from "../../runner/contracts.ts";
import type { CaseContext } from "../../runner/suite-api.ts";
import { conventionsOf } from "../../spec/conventions.ts";
import { utcInstant } from "../../spec/times.ts";
import { readBody, shape } from "../readers.ts";
import type { WriteTarget } from "./write-targets.ts";
import { declaredInRead, findInList, type Written } from "./written.ts";

export interface ReadBackDifference {
  readonly field: string;
  readonly sent: unknown;
  readonly read: unknown;
}

/** The fields of `sent` that `read` shows otherwise (request schema `request`, read's schema `response`). */
export function readBackDifferences(
  sent: Readonly<Record<string, unknown>>,
  read: unknown,
  request: BodySchema,
  response: BodySchema | undefined,
  prefix = "",
): ReadBackDifference[] {
  const differences: ReadBackDifference[] = [];
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
  differences: ReadBackDifference[],
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
    const [at, shown] = [utcInstant(sent), utcInstant(read)];
    if (at === undefined || at !== shown) differences.push({ field, sent, read });
    return;
  }
  if (sent !== read) differences.push({ field, sent, read });
}

/** Reads what was written: a GET of its path, or its item in its list (undefined: not in the list). */
export function readWritten(
  t: CaseContext,
  read: NonNullable<Written["read"]>,
): Promise<LiveResponse | undefined> {
  return read.kind === "get" ? t.api.get(read.path) : findInList(t, read.path, read.id);
}

/** The differences between `body` and its read back (`read`, a 200), sub-lists the write replaces included. */
export async function writtenDifferences(
  t: CaseContext,
  target: WriteTarget,
  body: Record<string, unknown>,
  where: Written,
  read: LiveResponse,
): Promise<ReadBackDifference[]> {
  const declared = where.read && declaredInRead(t, where.read.operation, where.read.kind === "list");
  const differences = readBackDifferences(body, read.json, target.schema, declared);
  for (const [name, listPath] of Object.entries(where.lists ?? {})) {
    differences.push(...(await listDifferences(t, target, body, name, listPath)));
  }
  return differences;
}

/** A sub-list replaced by the write (a rebuild's `nodes`): the list shows exactly the items sent, matched by label. */
async function listDifferences(
  t: CaseContext,
  target: WriteTarget,
  body: Record<string, unknown>,
  name: string,
  listPath: string,
): Promise<ReadBackDifference[]> {
  const sent = Array.isArray(body[name]) ? (body[name] as Record<string, unknown>[]) : [];
  const response = await t.api.get(listPath, { query: { page_size: conventionsOf(t.spec).pageSize.max } });
  const read = readBody(response, shape.object({ data: shape.array(shape.record) }));
  const items = read.ok ? read.value.data : [];
  const listOperation = t.spec.operations.match("GET", listPath)?.operation;
  const declared = listOperation ? declaredInRead(t, listOperation, true) : undefined;
  const itemSchema = target.schema.properties?.[name]?.items;
  if (items.length !== sent.length)
    return [{ field: `${name}.length`, sent: sent.length, read: items.length }];
  if (!itemSchema) return [];
  return sent.flatMap((item, index) => {
    const match = items.find((candidate) => candidate.label === item.label);
    if (!match) return [{ field: `${name}[${index}]`, sent: item, read: undefined }];
    return readBackDifferences(item, match, itemSchema, declared, `${name}[${index}].`);
  });
}

/** A body as reports may show it: write-only values (passwords, keys) redacted, except at `keep` (broken on purpose). */
export function redactWriteOnly(schema: BodySchema, body: unknown, keep: readonly string[] = []): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const shown: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const name of Object.keys(shown)) {
    if (schema.properties?.[name]?.writeOnly && !keep.includes(`/${name}`)) shown[name] = "<REDACTED>";
  }
  return shown;
}

/** The write-only string values of a body (passwords, keys): secrets the run must never print. */
export function writeOnlyValues(schema: BodySchema, body: Record<string, unknown>): string[] {
  return Object.entries(body)
    .filter(([name, value]) => schema.properties?.[name]?.writeOnly && typeof value === "string")
    .map(([, value]) => value as string);
}
