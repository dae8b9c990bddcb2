/**
 * What the X-Filter generators know about one filterable field: which operators the description makes valid on
 * it, and which values to filter it with, drawn from the items the target actually holds (so a filter selects
 * some but not all items), with a typed stand-in when the target holds none. A nested field (`entity.id`) is read
 * down its path; a field of several types (`entity.id`: integer or string) takes values of each, comparisons
 * with numbers, `+contains` and `+neq` with strings, and is not ordered by (how its types interleave is not
 * described).
 * @module
 * @internal
 */
import fc from "fast-check";
import type { FilterableField } from "../../spec/types.ts";

export type Scalar = string | number | boolean;

export interface FieldProfile {
  readonly field: FilterableField;
  /** Distinct non-null values the target holds (list fields: their entries), at most {@link maxValues}. */
  readonly values: readonly Scalar[];
  /** Numeric field: `+gt`/`+gte`/`+lt`/`+lte` are valid on it. */
  readonly numeric: boolean;
  /** String (or list of strings) field: `+contains` and `+neq` are valid on it. */
  readonly textual: boolean;
  /** A single-valued field `+order_by` may name (a list has no single value to sort by). */
  readonly orderable: boolean;
}

const maxValues = 64;

/** The scalar types of a field's values (a list's entries): one, or several (`entity.id`). */
function scalarTypes(field: FilterableField): readonly (FilterableField["type"] | undefined)[] {
  if (field.type === "array") return [field.itemType];
  return field.types ?? [field.type];
}

/** What an item holds for a field: its property, or the value down a nested field's path (undefined if none). */
function heldBy(item: object, field: FilterableField): unknown {
  let value: unknown = item;
  for (const name of field.path ?? [field.name]) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

function fits(type: FilterableField["type"] | undefined, value: unknown): value is Scalar {
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  if (type === "string") return typeof value === "string";
  if (type === "boolean") return typeof value === "boolean";
  return false;
}

/** Values to use when the target holds none: still well typed, so the filter stays valid. */
function standIns(type: FilterableField["type"] | undefined): Scalar[] {
  if (type === "integer" || type === "number") return [0, 1, 100];
  if (type === "boolean") return [false, true];
  return ["a", "conform"];
}

export function profileField(field: FilterableField, items: readonly object[]): FieldProfile {
  const types = scalarTypes(field);
  const seen = new Set<Scalar>();
  for (const item of items) {
    const raw = heldBy(item, field);
    const entries = field.type === "array" ? (Array.isArray(raw) ? raw : []) : [raw];
    for (const entry of entries) {
      if (seen.size >= maxValues) break;
      if (types.some((type) => fits(type, entry))) seen.add(entry as Scalar);
    }
  }
  const values = seen.size > 0 ? [...seen] : types.flatMap(standIns);
  return {
    field,
    values,
    numeric: field.type !== "array" && types.some((type) => type === "integer" || type === "number"),
    textual: types.includes("string"),
    orderable: field.type !== "array" && types.length === 1,
  };
}

/** A value of the field as the target holds it. */
export function heldValue(profile: FieldProfile): fc.Arbitrary<Scalar> {
  return fc.constantFrom(...profile.values);
}

/** A string the field holds (for `+neq`; on a field of several types only its strings), or a stand-in. */
export function heldText(profile: FieldProfile): fc.Arbitrary<string> {
  const texts = profile.values.filter((value): value is string => typeof value === "string");
  return fc.constantFrom(...(texts.length > 0 ? texts : standIns("string").map(String)));
}

/** A number near the values held (one of them, or one off), for comparisons. */
export function nearNumber(profile: FieldProfile): fc.Arbitrary<number> {
  const held = profile.values.filter((value): value is number => typeof value === "number");
  const numbers = held.length > 0 ? held : (standIns("integer") as number[]);
  return fc
    .tuple(fc.constantFrom(...numbers), fc.constantFrom(0, 0, 0, -1, 1))
    .map(([value, delta]) => value + delta);
}

/**
 * A piece of a held string: a substring (the whole value down to one character), a third of the time with the case
 * of every letter swapped, so case-sensitivity shows. Shrinks toward short pieces of the first value.
 */
export function textPiece(profile: FieldProfile): fc.Arbitrary<string> {
  const texts = profile.values.filter(
    (value): value is string => typeof value === "string" && value.length > 0,
  );
  const source = texts.length > 0 ? texts : ["conform"];
  return fc
    .tuple(fc.constantFrom(...source), fc.nat(), fc.nat(), fc.constantFrom("as-is", "as-is", "swapped"))
    .map(([text, a, b, casing]) => {
      const start = a % text.length;
      const length = 1 + (b % (text.length - start));
      const piece = text.slice(start, start + length);
      return casing === "swapped" ? swapCase(piece) : piece;
    });
}

/** `Web-3` → `wEB-3`. */
function swapCase(text: string): string {
  return [...text]
    .map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase()))
    .join("");
}
