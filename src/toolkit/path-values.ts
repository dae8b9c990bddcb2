/**
 * Path parameter values found in the target's own answers, for requests to any operation of the description: a
 * `{configId}` of `/nodebalancers/{nodeBalancerId}/configs/{configId}` is read from the items of the list at its
 * parent path (`/nodebalancers/12/configs`), in the item's field whose name the parameter's shares (`configId`,
 * `config_id`, then `id` for a name ending in `Id`; `{address}` ← `address`). Each answer read or write made is
 * recorded under its concrete path; what the run created is kept apart, since a write acts only on what the run
 * made (never on what the account already held).
 * @module
 */
import type { LiveResponse } from "../runner/contracts.ts";
import type { OperationInfo } from "../spec/types.ts";
import type { PathValue } from "./operations.ts";

/** The `{name}`s of a template, in order. */
export function templateParameters(template: string): string[] {
  return [...template.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!);
}

/** The template up to (not including) the segment of parameter `name`: the list its values are items of. */
export function parentTemplate(template: string, name: string): string | undefined {
  const at = template.indexOf(`/{${name}}`);
  return at < 0 ? undefined : template.slice(0, at);
}

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/** The item field a parameter named `name` takes its value from, or undefined when the item has none. */
export function fieldFor(name: string, item: Readonly<Record<string, unknown>>): string | undefined {
  const candidates = [name, snake(name)];
  if (/(?:Id|_id|ID)$/.test(name) || name === "id") candidates.push("id");
  const bare = name.replace(/(?:Id|_id|ID)$/, "");
  candidates.push(bare, snake(bare));
  const loose = (text: string) => text.replace(/[_-]/g, "").toLowerCase();
  const found = candidates.find((candidate) => isPathValue(item[candidate]));
  return found ?? Object.keys(item).find((key) => loose(key) === loose(name) && isPathValue(item[key]));
}

function isPathValue(value: unknown): value is PathValue {
  if (typeof value === "number") return Number.isSafeInteger(value);
  return typeof value === "string" && value.length > 0 && value.length <= 200;
}

/** The items an answer holds: a page's `data`, an array, or the one object. */
export function itemsOf(parsed: unknown): Record<string, unknown>[] {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (Array.isArray(parsed)) return parsed.filter(isRecord);
  if (!isRecord(parsed)) return [];
  if (Array.isArray(parsed.data)) return parsed.data.filter(isRecord);
  return [parsed];
}

const keyOf = (template: string, values: Readonly<Record<string, PathValue>>) =>
  `${template}\u0000${templateParameters(template)
    .map((name) => String(values[name]))
    .join("\u0000")}`;

/** Values by parameter name for one request, and which of them were not found in any answer. */
export interface FoundValues {
  readonly values: Record<string, PathValue>;
  /** Parameters no answer gave a value for (the caller draws or chooses them). */
  readonly missing: readonly string[];
}

/** What the run read and made, by concrete list path. */
export class PathHarvest {
  readonly #seen = new Map<string, Record<string, unknown>[]>();
  readonly #made = new Map<string, Record<string, unknown>[]>();

  /** Records the items of a 2xx answer to `template` with `values`; `made`: the run created them. */
  record(
    template: string,
    values: Readonly<Record<string, PathValue>>,
    response: LiveResponse,
    made = false,
  ): void {
    if (response.status < 200 || response.status > 299) return;
    const items = itemsOf(response.parsed);
    if (items.length === 0) return;
    const store = made ? this.#made : this.#seen;
    const key = keyOf(template, values);
    store.set(key, [...items, ...(store.get(key) ?? [])].slice(0, 50));
  }

  /** The items read at a list without path parameters (`/regions`). */
  seenAt(template: string): readonly Record<string, unknown>[] {
    return this.#seen.get(keyOf(template, {})) ?? [];
  }

  /** Forgets what was made at `template` with these values whose `field` is `value` (it was deleted). */
  forget(
    template: string,
    values: Readonly<Record<string, PathValue>>,
    field: string,
    value: PathValue,
  ): void {
    const key = keyOf(template, values);
    const kept = (this.#made.get(key) ?? []).filter((item) => item[field] !== value);
    this.#made.set(key, kept);
  }

  /**
   * Values for the path parameters of `operation`, each from the list at its parent path filled with the values
   * before it; `madeOnly`: only from what the run made; `fits`: whether a value suits the parameter's schema (a
   * target's example id may not). The first parameter without one ends the search.
   */
  valuesFor(
    operation: OperationInfo,
    madeOnly: boolean,
    fits: (name: string, value: PathValue) => boolean = () => true,
  ): FoundValues {
    const values: Record<string, PathValue> = {};
    const names = templateParameters(operation.pathTemplate);
    for (const [index, name] of names.entries()) {
      const parent = parentTemplate(operation.pathTemplate, name);
      const key = parent === undefined ? undefined : keyOf(parent, values);
      const items =
        key === undefined
          ? []
          : [...(this.#made.get(key) ?? []), ...(madeOnly ? [] : (this.#seen.get(key) ?? []))];
      const value = items
        .map((item) => item[fieldFor(name, item) ?? ""])
        .find((candidate): candidate is PathValue => isPathValue(candidate) && fits(name, candidate));
      if (value === undefined) return { values, missing: names.slice(index) };
      values[name] = value;
    }
    return { values, missing: [] };
  }
}
