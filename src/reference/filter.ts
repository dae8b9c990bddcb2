/**
 * X-Filter as the reference server implements it: parse and check a header value against a list's
 * filterable fields, then evaluate it over items and order them. The toolkit's own oracle (src/oracles)
 * is written separately on purpose: a judge must not share code with what it judges.
 *
 * Documented choices beyond the API description:
 * - nesting deeper than {@link maxFilterDepth} levels or more than {@link maxFilterConditions} conditions is refused (400);
 * - `+order_by` on a list-valued field (tags, ipv4) is refused: a list has no single value to sort by;
 * - nulls sort before every value in ascending order (after, in descending); ties keep the list's id order;
 * - `+contains` is case-sensitive; on a list-valued field it matches when any item contains the string;
 * - a nested field (`entity.id`, named by its dotted path where the description marks the nested property) reads
 *   the value down its path; a missing or null parent reads as null, which only `{"entity.id": null}` matches;
 * - a field of several types (`entity.id`: integer or string) takes a value of any of them, comparisons when one is
 *   numeric, `+contains` when one is text; ordering by it puts numbers before strings.
 * @module
 */
import type { FilterableField } from "../spec/types.ts";
import { filterError, reasons } from "./errors.ts";
import type { ApiErrorItem } from "./http/reply.ts";

export const maxFilterDepth = 16;
export const maxFilterConditions = 512;

type Scalar = string | number | boolean | null;
type Comparison = "eq" | "neq" | "gt" | "gte" | "lt" | "lte" | "contains";

export type FilterCondition =
  | { readonly kind: "and" | "or"; readonly items: readonly FilterCondition[] }
  | {
      readonly kind: "field";
      readonly field: FilterableField;
      readonly op: Comparison;
      readonly value: Scalar;
    };

export interface ParsedFilter {
  readonly condition: FilterCondition;
  readonly orderBy: FilterableField | undefined;
  readonly order: "asc" | "desc";
}

export type FilterParse =
  | { readonly ok: true; readonly filter: ParsedFilter }
  | { readonly ok: false; readonly errors: ApiErrorItem[] };

const operatorOf: Readonly<Record<string, Comparison>> = {
  "+neq": "neq",
  "+gt": "gt",
  "+gte": "gte",
  "+lt": "lt",
  "+lte": "lte",
  "+contains": "contains",
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

class FilterSyntaxError extends Error {}

/** The types a field's values (a list's entries) may have: usually one; `entity.id` is an integer or a string. */
function scalarTypes(field: FilterableField): readonly FilterableField["type"][] {
  if (field.type === "array") return [field.itemType ?? "string"];
  return field.types && field.types.length > 0 ? field.types : [field.type];
}

const isNumericType = (type: FilterableField["type"]) => type === "integer" || type === "number";

function fitsType(type: FilterableField["type"], value: unknown): boolean {
  if (isNumericType(type)) return typeof value === "number" && Number.isFinite(value);
  return typeof value === type;
}

function checkValue(field: FilterableField, op: Comparison, value: unknown): Scalar {
  const types = scalarTypes(field);
  const numeric = field.type !== "array" && types.some(isNumericType);
  if (op === "gt" || op === "gte" || op === "lt" || op === "lte") {
    if (!numeric) throw new FilterSyntaxError(`+${op} needs a numeric field; ${field.name} is not one`);
    if (typeof value !== "number" || !Number.isFinite(value))
      throw new FilterSyntaxError(`+${op} on ${field.name} needs a number`);
    return value;
  }
  if (op === "contains") {
    if (!types.includes("string"))
      throw new FilterSyntaxError(`+contains needs a text field; ${field.name} is not one`);
    if (typeof value !== "string") throw new FilterSyntaxError(`+contains on ${field.name} needs a string`);
    return value;
  }
  if (value === null) {
    if (!field.nullable) throw new FilterSyntaxError(`${field.name} is never null`);
    return null;
  }
  if (!types.some((type) => fitsType(type, value))) {
    const wanted = types.map((type) => (isNumericType(type) ? "number" : type)).join(" or ");
    throw new FilterSyntaxError(`${field.name} must be compared with a ${wanted}`);
  }
  return value as Scalar;
}

/** What an item holds for a field: its own property, or for `entity.id` the `id` of its `entity` (null when none). */
function fieldValueOf(item: Readonly<Record<string, unknown>>, field: FilterableField): unknown {
  if (!field.path) return item[field.name];
  let current: unknown = item;
  for (const step of field.path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return null;
    current = (current as Readonly<Record<string, unknown>>)[step];
  }
  return current;
}

class FilterParser {
  #conditions = 0;
  private readonly fields: ReadonlyMap<string, FilterableField>;
  constructor(fields: ReadonlyMap<string, FilterableField>) {
    this.fields = fields;
  }

  field(name: string): FilterableField {
    const field = this.fields.get(name);
    if (!field) throw new FilterSyntaxError(reasons.cannotFilter(name));
    return field;
  }

  object(value: unknown, depth: number): FilterCondition {
    if (depth > maxFilterDepth)
      throw new FilterSyntaxError(`X-Filter nests deeper than ${maxFilterDepth} levels`);
    if (!isPlainObject(value)) throw new FilterSyntaxError("Each filter must be a JSON object");
    const items: FilterCondition[] = [];
    for (const [key, entry] of Object.entries(value)) {
      if (key === "+order_by" || key === "+order") {
        if (depth > 0) throw new FilterSyntaxError(`${key} is only allowed at the top level of X-Filter`);
        continue;
      }
      if (key === "+and" || key === "+or") {
        if (!Array.isArray(entry) || entry.length === 0)
          throw new FilterSyntaxError(`${key} needs a non-empty array of filters`);
        items.push({
          kind: key === "+and" ? "and" : "or",
          items: entry.map((item) => this.object(item, depth + 1)),
        });
        continue;
      }
      if (key.startsWith("+")) throw new FilterSyntaxError(`Unknown operator ${key}`);
      items.push(...this.fieldConditions(this.field(key), entry));
    }
    return { kind: "and", items };
  }

  fieldConditions(field: FilterableField, entry: unknown): FilterCondition[] {
    const count = (condition: FilterCondition): FilterCondition => {
      this.#conditions += 1;
      if (this.#conditions > maxFilterConditions) {
        throw new FilterSyntaxError(`X-Filter has more than ${maxFilterConditions} conditions`);
      }
      return condition;
    };
    if (!isPlainObject(entry)) {
      if (Array.isArray(entry))
        throw new FilterSyntaxError(`${field.name} takes a value or an operator object, not an array`);
      return [count({ kind: "field", field, op: "eq", value: checkValue(field, "eq", entry) })];
    }
    const operators = Object.entries(entry);
    if (operators.length === 0) throw new FilterSyntaxError(`${field.name} has an empty operator object`);
    return operators.map(([operator, value]) => {
      const op = operatorOf[operator];
      if (!op) throw new FilterSyntaxError(`Unknown operator ${operator} on ${field.name}`);
      return count({ kind: "field", field, op, value: checkValue(field, op, value) });
    });
  }
}

/** Parses an X-Filter header value for a list whose filterable fields are given; never throws. */
export function parseFilter(header: string, filterable: readonly FilterableField[]): FilterParse {
  let json: unknown;
  try {
    json = JSON.parse(header);
  } catch {
    return { ok: false, errors: [filterError("X-Filter is not valid JSON")] };
  }
  if (!isPlainObject(json)) return { ok: false, errors: [filterError("X-Filter must be a JSON object")] };
  const fields = new Map(filterable.map((field) => [field.name, field]));
  try {
    const parser = new FilterParser(fields);
    const condition = parser.object(json, 0);
    const orderByName = json["+order_by"];
    const order = json["+order"];
    if (order !== undefined && orderByName === undefined)
      throw new FilterSyntaxError("+order requires +order_by");
    if (order !== undefined && order !== "asc" && order !== "desc")
      throw new FilterSyntaxError("+order must be asc or desc");
    let orderBy: FilterableField | undefined;
    if (orderByName !== undefined) {
      if (typeof orderByName !== "string") throw new FilterSyntaxError("+order_by must be a field name");
      orderBy = parser.field(orderByName);
      if (orderBy.type === "array")
        throw new FilterSyntaxError(`Cannot order by ${orderByName}: it is a list`);
    }
    return { ok: true, filter: { condition, orderBy, order: order === "desc" ? "desc" : "asc" } };
  } catch (error) {
    if (error instanceof FilterSyntaxError) return { ok: false, errors: [filterError(error.message)] };
    if (error instanceof RangeError)
      return { ok: false, errors: [filterError("X-Filter is too deeply nested")] };
    throw error;
  }
}

function compareScalar(op: Comparison, actual: unknown, expected: Scalar): boolean {
  switch (op) {
    case "eq":
      return actual === expected;
    case "neq":
      return actual !== expected;
    case "contains":
      return typeof actual === "string" && actual.includes(expected as string);
    default: {
      if (typeof actual !== "number") return false;
      const bound = expected as number;
      if (op === "gt") return actual > bound;
      if (op === "gte") return actual >= bound;
      if (op === "lt") return actual < bound;
      return actual <= bound;
    }
  }
}

function holds(condition: FilterCondition, item: Readonly<Record<string, unknown>>): boolean {
  if (condition.kind !== "field") {
    const inner = (each: FilterCondition) => holds(each, item);
    return condition.kind === "and" ? condition.items.every(inner) : condition.items.some(inner);
  }
  const { field, op, value } = condition;
  const actual = fieldValueOf(item, field);
  if (Array.isArray(actual)) {
    // A list field matches by membership; `+neq` means the list does not hold the value.
    if (op === "neq") return !actual.includes(value);
    return actual.some((element) => compareScalar(op, element, value));
  }
  return compareScalar(op, actual ?? null, value);
}

function compareForOrder(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  // A field of several types (`entity.id`): numbers before strings.
  if (typeof a === "number" || typeof b === "number") return typeof a === "number" ? -1 : 1;
  const left = String(a);
  const right = String(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The items that match, in the filter's order (a stable sort, so ties keep the input order). */
export function applyFilter<T extends object>(items: readonly T[], filter: ParsedFilter): T[] {
  const matching = items.filter((item) => holds(filter.condition, item as Readonly<Record<string, unknown>>));
  const orderBy = filter.orderBy;
  if (!orderBy) return matching;
  const sign = filter.order === "desc" ? -1 : 1;
  const key = (item: T) => fieldValueOf(item as Readonly<Record<string, unknown>>, orderBy);
  return matching.sort((a, b) => sign * compareForOrder(key(a), key(b)));
}
