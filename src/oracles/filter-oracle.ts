/**
 * The X-Filter oracle: the description's filter semantics as a pure evaluator. It checks a filter object against
 * a list's filterable fields (valid, invalid, or something the description does not decide), says which items of
 * a whole collection match and in which order, and judges what a target returned against that.
 *
 * Written from `cloud-api-v4.md` ("Collections: filtering and sorting") and `facts.md` ("X-Filter") only, never
 * from the reference server: a judge must not share code with what it judges.
 *
 * What the description says:
 * - the header holds a JSON object; keys are filterable field names (a value is an accepted value: equality) or
 *   operators; several keys are ANDed; only filterable fields can be filtered (400 `Cannot filter on <field>`,
 *   field `X-Filter`);
 * - `+and` / `+or` take arrays of filter objects (each element's conditions ANDed) and nest to any depth;
 * - `+gt`, `+gte`, `+lt`, `+lte` take a number, `+contains` and `+neq` a string, all as the value of a field key;
 * - `+order_by` names a filterable field, `+order` is `asc` (default) or `desc` and requires `+order_by`; both sit
 *   at the top level beside field keys;
 * - on a list-valued field (tags, ipv4) equality matches an item whose list contains the value.
 *
 * What the facts add: a field inside an object property of the item is filtered by its dotted path
 * (`{"entity.id": 123}`, `{"entity.type": "compute"}`), only where the description marks that nested property
 * filterable; operators, `+and`/`+or` and `+order_by` apply to it as to any field. Its value is the nested one; a
 * missing or null parent is no value (as a null field is). A field of several types (`entity.id`: integer or
 * string) takes a value of any of them, comparisons where one is numeric, `+contains`/`+neq` where one is text.
 *
 * Choices where the description is silent (the reference server documents the same ones):
 * - `+contains` is case-sensitive; on a list-valued field it matches when any item contains the string;
 * - `+neq` on a list-valued field matches when the list does not hold the value;
 * - nulls sort before every value ascending (after, descending); strings compare by UTF-16 code units,
 *   numbers numerically, `false` before `true`; ties are free (a target may order them as it likes: the judge
 *   compares the sort keys, not the ids, within a run of equal keys);
 * - a null or missing value never satisfies a comparison or `+contains`, and is not equal to any value
 *   (so `+neq` holds for it).
 *
 * What neither the description nor the facts decide is reported as `unspecified` (a generator of valid filters
 * avoids it, one of invalid filters never claims it): `+order_by` on a list-valued field, ordering keys inside
 * nested objects, `+order_by` on a field of several types (how an integer sorts against a string), empty
 * `+and`/`+or` arrays, equality with null or with a value of another type than the field's,
 * comparisons on non-numeric fields, `+contains`/`+neq` on non-string fields, empty operator objects, and any
 * condition on a lenient field (`compute_id` of addresses: accepted, narrowing not promised).
 * @module
 */
import type { FilterableField } from "../spec/types.ts";

/** A parsed X-Filter value (a JSON object). */
export type FilterObject = { readonly [key: string]: unknown };

export const comparisonOperators = ["+gt", "+gte", "+lt", "+lte", "+contains", "+neq"] as const;
export type ComparisonOperator = (typeof comparisonOperators)[number];
export const numericOperators = ["+gt", "+gte", "+lt", "+lte"] as const;
export const logicalOperators = ["+and", "+or"] as const;
export const orderKeys = ["+order_by", "+order"] as const;

/** A rule of the description a filter can break; each must be refused with 400. */
export type FilterRule =
  | "not-json"
  | "not-an-object"
  | "unfilterable-field"
  | "unknown-operator"
  | "operator-value-type"
  | "logical-not-array"
  | "logical-element-not-object"
  | "order-without-order-by"
  | "order-by-not-string"
  | "order-by-unfilterable"
  | "order-value";

/** Something the description leaves open: a target may accept or refuse it. */
export type UnspecifiedPoint =
  | "equality-null"
  | "equality-type"
  | "equality-compound"
  | "operator-on-field-type"
  | "operator-misplaced"
  | "empty-operators"
  | "empty-logical"
  | "order-nested"
  | "order-by-list-field"
  | "order-by-mixed-types"
  | "lenient-field";

export interface FilterProblem<R extends string = FilterRule> {
  readonly rule: R;
  /** JSON pointer into the filter object (`""` for the whole value). */
  readonly pointer: string;
  /** The key at fault (a field name or an operator), when one is. */
  readonly key?: string;
  readonly message: string;
}

export type Condition =
  | {
      readonly kind: "field";
      readonly field: FilterableField;
      readonly operator: "=" | ComparisonOperator;
      readonly value: unknown;
    }
  | { readonly kind: "all"; readonly of: readonly Condition[] }
  | { readonly kind: "any"; readonly of: readonly Condition[] };

export interface FilterOrder {
  readonly field: string;
  /** For a nested field (`entity.id`), the property names from the item down; absent for a top-level one. */
  readonly path?: readonly string[];
  readonly direction: "asc" | "desc";
}

export interface CompiledFilter {
  readonly condition: Condition;
  readonly order?: FilterOrder;
}

export type FilterVerdict =
  | { readonly status: "valid"; readonly filter: CompiledFilter }
  | { readonly status: "invalid"; readonly problems: readonly FilterProblem[] }
  | { readonly status: "unspecified"; readonly points: readonly FilterProblem<UnspecifiedPoint>[] };

const isPlainObject = (value: unknown): value is FilterObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** RFC 6901 escaping of one reference token. */
export function pointerToken(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The JSON type name of a value, as a field's `type` is written. */
function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Does a scalar fit a field's (or a list field's items') type? */
function fitsType(type: FilterableField["type"] | undefined, value: unknown): boolean {
  if (type === "integer" || type === "number") return typeof value === "number";
  if (type === "string") return typeof value === "string";
  if (type === "boolean") return typeof value === "boolean";
  return false;
}

/** The scalar types a field's values (a list field's entries) may have: one, or several (`entity.id`). */
function scalarTypes(field: FilterableField): readonly (FilterableField["type"] | undefined)[] {
  if (field.type === "array") return [field.itemType];
  return field.types ?? [field.type];
}

const isNumericField = (field: FilterableField) =>
  scalarTypes(field).some((type) => type === "integer" || type === "number") && field.type !== "array";
const isStringish = (field: FilterableField) => scalarTypes(field).includes("string");

class Collector {
  readonly problems: FilterProblem[] = [];
  readonly points: FilterProblem<UnspecifiedPoint>[] = [];
  invalid(rule: FilterRule, pointer: string, message: string, key?: string): void {
    this.problems.push({ rule, pointer, message, ...(key !== undefined ? { key } : {}) });
  }
  open(point: UnspecifiedPoint, pointer: string, message: string, key?: string): void {
    this.points.push({ rule: point, pointer, message, ...(key !== undefined ? { key } : {}) });
  }
}

/**
 * Checks an X-Filter header value (the raw text) against a list's filterable fields.
 * @public
 */
export function checkFilterHeader(text: string, fields: readonly FilterableField[]): FilterVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      status: "invalid",
      problems: [{ rule: "not-json", pointer: "", message: "the X-Filter header is not JSON" }],
    };
  }
  return checkFilter(value, fields);
}

/**
 * Checks a parsed filter value against a list's filterable fields: `valid` with the compiled filter, `invalid`
 * with every rule broken (a target must answer 400), or `unspecified` with what the description leaves open.
 * @public
 */
export function checkFilter(value: unknown, fields: readonly FilterableField[]): FilterVerdict {
  const collector = new Collector();
  if (!isPlainObject(value)) {
    collector.invalid("not-an-object", "", `the filter is ${jsonType(value)}, not a JSON object`);
    return { status: "invalid", problems: collector.problems };
  }
  const byName = new Map(fields.map((field) => [field.name, field]));
  const condition = compileObject(value, "", true, byName, collector);
  const order = compileOrder(value, byName, collector);
  if (collector.problems.length > 0) return { status: "invalid", problems: collector.problems };
  if (collector.points.length > 0) return { status: "unspecified", points: collector.points };
  return { status: "valid", filter: order ? { condition, order } : { condition } };
}

function compileObject(
  object: FilterObject,
  pointer: string,
  topLevel: boolean,
  fields: ReadonlyMap<string, FilterableField>,
  collector: Collector,
): Condition {
  const of: Condition[] = [];
  for (const [key, value] of Object.entries(object)) {
    const at = `${pointer}/${pointerToken(key)}`;
    if (key === "+and" || key === "+or") {
      of.push(compileLogical(key, value, at, fields, collector));
    } else if (key === "+order_by" || key === "+order") {
      // Ordering keys are read by compileOrder at the top level; the description places them nowhere else.
      if (!topLevel) collector.open("order-nested", at, `${key} inside a nested filter object`, key);
    } else if (key.startsWith("+")) {
      const misplaced = (comparisonOperators as readonly string[]).includes(key);
      if (misplaced) {
        collector.open("operator-misplaced", at, `${key} is used as a key, not under a field`, key);
      } else {
        collector.invalid("unknown-operator", at, `${key} is not an operator`, key);
      }
    } else {
      const field = fields.get(key);
      if (!field) {
        collector.invalid("unfilterable-field", at, `Cannot filter on ${key}`, key);
        continue;
      }
      of.push(...compileField(field, value, at, collector));
    }
  }
  return { kind: "all", of };
}

function compileLogical(
  key: "+and" | "+or",
  value: unknown,
  pointer: string,
  fields: ReadonlyMap<string, FilterableField>,
  collector: Collector,
): Condition {
  const kind = key === "+and" ? "all" : "any";
  if (!Array.isArray(value)) {
    collector.invalid("logical-not-array", pointer, `${key} takes an array, not ${jsonType(value)}`, key);
    return { kind, of: [] };
  }
  if (value.length === 0) collector.open("empty-logical", pointer, `${key} with an empty array`, key);
  const of = value.map((element, index) => {
    const at = `${pointer}/${index}`;
    if (!isPlainObject(element)) {
      collector.invalid(
        "logical-element-not-object",
        at,
        `each element of ${key} is a filter object, not ${jsonType(element)}`,
        key,
      );
      return { kind: "all", of: [] } satisfies Condition;
    }
    return compileObject(element, at, false, fields, collector);
  });
  return { kind, of };
}

function compileField(
  field: FilterableField,
  value: unknown,
  pointer: string,
  collector: Collector,
): Condition[] {
  if (field.lenient) {
    // Accepted, never refused; releases differ on whether it narrows the list (facts.md, "Address").
    collector.open(
      "lenient-field",
      pointer,
      `${field.name} is accepted but its narrowing is not promised`,
      field.name,
    );
    return [];
  }
  if (value === null) {
    collector.open("equality-null", pointer, `${field.name} equal to null`, field.name);
    return [];
  }
  if (Array.isArray(value)) {
    collector.open("equality-compound", pointer, `${field.name} equal to an array`, field.name);
    return [];
  }
  if (!isPlainObject(value)) {
    const types = scalarTypes(field);
    if (!types.some((type) => fitsType(type, value))) {
      collector.open(
        "equality-type",
        pointer,
        `${field.name} (${types.map((type) => type ?? "untyped").join(" or ")}) equal to a ${jsonType(value)}`,
        field.name,
      );
    }
    return [{ kind: "field", field, operator: "=", value }];
  }
  const entries = Object.entries(value);
  if (entries.length === 0) collector.open("empty-operators", pointer, `${field.name}: {}`, field.name);
  const conditions: Condition[] = [];
  for (const [operator, operand] of entries) {
    const at = `${pointer}/${pointerToken(operator)}`;
    if (!(comparisonOperators as readonly string[]).includes(operator)) {
      if (([...logicalOperators, ...orderKeys] as readonly string[]).includes(operator)) {
        collector.open("operator-misplaced", at, `${operator} under the field ${field.name}`, operator);
      } else {
        collector.invalid("unknown-operator", at, `${operator} is not a comparison operator`, operator);
      }
      continue;
    }
    const op = operator as ComparisonOperator;
    if ((numericOperators as readonly string[]).includes(op)) {
      if (typeof operand !== "number") {
        collector.invalid("operator-value-type", at, `${op} takes a number, not ${jsonType(operand)}`, op);
        continue;
      }
      if (!isNumericField(field)) {
        collector.open("operator-on-field-type", at, `${op} on the ${field.type} field ${field.name}`, op);
      }
    } else if (op === "+contains") {
      if (typeof operand !== "string") {
        collector.invalid("operator-value-type", at, `${op} takes a string, not ${jsonType(operand)}`, op);
        continue;
      }
      if (!isStringish(field)) {
        collector.open("operator-on-field-type", at, `${op} on the ${field.type} field ${field.name}`, op);
      }
    } else {
      // +neq: the table says string; a number on a numeric field is natural but not described.
      if (operand === null || typeof operand === "object") {
        collector.invalid("operator-value-type", at, `${op} takes a string, not ${jsonType(operand)}`, op);
        continue;
      }
      if (!isStringish(field) || typeof operand !== "string") {
        collector.open("operator-on-field-type", at, `${op} ${jsonType(operand)} on ${field.name}`, op);
      }
    }
    conditions.push({ kind: "field", field, operator: op, value: operand });
  }
  return conditions;
}

function compileOrder(
  object: FilterObject,
  fields: ReadonlyMap<string, FilterableField>,
  collector: Collector,
): FilterOrder | undefined {
  const orderBy = object["+order_by"];
  const order = object["+order"];
  let direction: "asc" | "desc" = "asc";
  if (order !== undefined) {
    if (order === "asc" || order === "desc") direction = order;
    else collector.invalid("order-value", "/+order", `+order is asc or desc, not ${JSON.stringify(order)}`);
    if (orderBy === undefined)
      collector.invalid("order-without-order-by", "/+order", "+order needs +order_by");
  }
  if (orderBy === undefined) return undefined;
  if (typeof orderBy !== "string") {
    collector.invalid(
      "order-by-not-string",
      "/+order_by",
      `+order_by takes a string, not ${jsonType(orderBy)}`,
    );
    return undefined;
  }
  const field = fields.get(orderBy);
  if (!field) {
    collector.invalid("order-by-unfilterable", "/+order_by", `Cannot order by ${orderBy}`, orderBy);
    return undefined;
  }
  if (field.type === "array") {
    collector.open("order-by-list-field", "/+order_by", `+order_by on the list field ${orderBy}`, orderBy);
  }
  if (field.types !== undefined && field.types.length > 1) {
    collector.open(
      "order-by-mixed-types",
      "/+order_by",
      `+order_by on ${orderBy}, whose values may be ${field.types.join(" or ")}: how they interleave is not described`,
      orderBy,
    );
  }
  return { field: orderBy, ...(field.path ? { path: field.path } : {}), direction };
}

/** An item's value at a path of property names; a missing one, or one under a missing or null parent, is null. */
function valueAtPath(item: object, path: readonly string[]): unknown {
  let value: unknown = item;
  for (const name of path) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
    value = Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
  }
  return value === undefined ? null : value;
}

/**
 * An item's value for a filterable field, as the oracle reads it: the property itself, or for a nested field
 * (`entity.id`) the value down its path; missing (or under a missing or null parent) reads as null.
 * @public
 */
export function filterFieldValue(item: object, field: Pick<FilterableField, "name" | "path">): unknown {
  return valueAtPath(item, field.path ?? [field.name]);
}

const orderValue = (item: object, order: FilterOrder) => valueAtPath(item, order.path ?? [order.field]);

function holds(condition: Condition, item: object): boolean {
  switch (condition.kind) {
    case "all":
      return condition.of.every((part) => holds(part, item));
    case "any":
      return condition.of.some((part) => holds(part, item));
    case "field":
      return fieldHolds(
        condition.field,
        condition.operator,
        condition.value,
        filterFieldValue(item, condition.field),
      );
  }
}

function fieldHolds(
  field: FilterableField,
  operator: "=" | ComparisonOperator,
  operand: unknown,
  actual: unknown,
): boolean {
  if (field.type === "array" || Array.isArray(actual)) {
    const list = Array.isArray(actual) ? actual : [];
    switch (operator) {
      case "=":
        return list.some((entry) => entry === operand);
      case "+neq":
        return !list.some((entry) => entry === operand);
      case "+contains":
        return list.some((entry) => typeof entry === "string" && entry.includes(operand as string));
      default:
        return list.some((entry) => compareNumber(operator, entry, operand));
    }
  }
  switch (operator) {
    case "=":
      return actual === operand;
    case "+neq":
      return actual !== operand;
    case "+contains":
      return typeof actual === "string" && typeof operand === "string" && actual.includes(operand);
    default:
      return compareNumber(operator, actual, operand);
  }
}

function compareNumber(operator: ComparisonOperator, actual: unknown, operand: unknown): boolean {
  if (typeof actual !== "number" || typeof operand !== "number") return false;
  switch (operator) {
    case "+gt":
      return actual > operand;
    case "+gte":
      return actual >= operand;
    case "+lt":
      return actual < operand;
    case "+lte":
      return actual <= operand;
    default:
      return false;
  }
}

/** Does one item satisfy the filter's conditions? */
export function matchesFilter(item: object, filter: CompiledFilter): boolean {
  return holds(filter.condition, item);
}

/**
 * Ascending comparison of two field values: nulls first, numbers numerically, strings by UTF-16 code units,
 * `false` before `true`; values of different JSON types by type name (never expected in a well-typed list).
 */
export function compareValues(a: unknown, b: unknown): number {
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull || bNull) return aNull && bNull ? 0 : aNull ? -1 : 1;
  if (typeof a !== typeof b) return jsonType(a) < jsonType(b) ? -1 : 1;
  if (typeof a === "number") return Math.sign(a - (b as number));
  if (typeof a === "boolean") return Number(a) - Number(b);
  if (typeof a === "string") return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  const left = JSON.stringify(a);
  const right = JSON.stringify(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Compares two items by the filter's order (0 when it has none, or for ties). */
export function compareByOrder(a: object, b: object, order: FilterOrder | undefined): number {
  if (!order) return 0;
  const ascending = compareValues(orderValue(a, order), orderValue(b, order));
  return order.direction === "desc" ? -ascending : ascending;
}

/**
 * The items of a whole collection that match, in the filter's order (a stable sort: ties and unordered filters
 * keep the collection's order).
 * @public
 */
export function evaluateFilter<T extends object>(items: readonly T[], filter: CompiledFilter): T[] {
  const matching = items.filter((item) => matchesFilter(item, filter));
  if (!filter.order) return matching;
  const order = filter.order;
  return matching
    .map((item, index) => ({ item, index }))
    .sort((a, b) => compareByOrder(a.item, b.item, order) || a.index - b.index)
    .map((entry) => entry.item);
}

/** What a target returned for a filter, judged against the oracle. */
export type FilterJudgement =
  | { readonly status: "passed"; readonly judged: number; readonly unstable: number }
  | {
      readonly status: "failed";
      /** Keys the oracle expects, in its order (judged items only); absent where the whole list was not read. */
      readonly expected?: readonly string[];
      /** Keys the oracle expects that the target left out. */
      readonly missing: readonly string[];
      /** Keys the target returned that do not match. */
      readonly unexpected: readonly string[];
      /** Keys the target returned more than once. */
      readonly duplicated: readonly string[];
      /** The first place where the order differs (sort keys compared; ties are free). */
      readonly misordered?: {
        readonly index: number;
        readonly expected: unknown;
        readonly actual: unknown;
        readonly key: string;
      };
      readonly judged: number;
    }
  | { readonly status: "inconclusive"; readonly reason: string };

export interface FilterJudgementInput<T extends object> {
  /** The whole unfiltered collection read before the filtered walk, and again after it. */
  readonly before: readonly T[];
  readonly after: readonly T[];
  /** Every item the target returned for the filter, across all pages, in order. */
  readonly returned: readonly T[];
  /** How many pages the filtered walk took (a single page is one atomic answer). */
  readonly pages: number;
  readonly filter: CompiledFilter;
  /** Identity of an item (`id`, or `address` for addresses). */
  readonly key: (item: T) => string;
  /** The fields whose values decide the answer: an item whose filterable values changed meanwhile is not judged. */
  readonly fields: readonly FilterableField[];
}

/**
 * Judges a filtered answer against the oracle applied to the unfiltered collection. Only items that are in both
 * snapshots with the same filterable values are judged, so a collection that changes during the check (another
 * client writing) cannot cause a false failure; when it changed and the answer spans several pages, items may
 * have shifted between pages and the judgement is inconclusive (the caller tries again).
 * @public
 */
export function judgeFilteredList<T extends object>(input: FilterJudgementInput<T>): FilterJudgement {
  const { key, filter } = input;
  const fields = input.fields.toSorted((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const projection = (item: T) => JSON.stringify(fields.map((field) => filterFieldValue(item, field)));
  const after = new Map(input.after.map((item) => [key(item), projection(item)]));
  const stable = new Set<string>();
  for (const item of input.before) {
    if (after.get(key(item)) === projection(item)) stable.add(key(item));
  }
  const unstable = new Set([...input.before.map(key), ...input.after.map(key)]).size - stable.size;
  if (unstable > 0 && input.pages > 1) {
    return {
      status: "inconclusive",
      reason: `${unstable} item(s) changed while ${input.pages} pages were read`,
    };
  }
  const expected = evaluateFilter(
    input.before.filter((item) => stable.has(key(item))),
    filter,
  );
  const returnedKeys = input.returned.map(key);
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  for (const id of returnedKeys) {
    if (seen.has(id)) duplicated.add(id);
    seen.add(id);
  }
  const expectedKeys = new Set(expected.map(key));
  const returnedStable = input.returned.filter((item) => stable.has(key(item)));
  const missing = [...expectedKeys].filter((id) => !seen.has(id));
  const unexpected = [...new Set(returnedStable.map(key))].filter((id) => !expectedKeys.has(id));
  let misordered: Extract<FilterJudgement, { status: "failed" }>["misordered"];
  if (filter.order && missing.length === 0 && unexpected.length === 0 && duplicated.size === 0) {
    const order = filter.order;
    for (let index = 0; index < expected.length; index += 1) {
      const want = orderValue(expected[index]!, order);
      const got = returnedStable[index] ? orderValue(returnedStable[index]!, order) : undefined;
      if (compareValues(want, got) !== 0) {
        misordered = { index, expected: want, actual: got, key: key(returnedStable[index]!) };
        break;
      }
    }
  }
  if (missing.length === 0 && unexpected.length === 0 && duplicated.size === 0 && !misordered) {
    return { status: "passed", judged: stable.size, unstable };
  }
  return {
    status: "failed",
    expected: expected.map(key),
    missing,
    unexpected,
    duplicated: [...duplicated],
    ...(misordered ? { misordered } : {}),
    judged: stable.size,
  };
}

/**
 * Judges the pages read of a filtered answer too long to read whole, without the collection: soundness (every
 * returned item matches the filter, each judged on its own values as answered), no item twice across the pages
 * read, and with `+order_by` the order of what was returned. Completeness (nothing left out) needs the whole
 * answer and the whole collection, so `missing` is always empty here.
 * @public
 */
export function judgeFilteredPages<T extends object>(input: {
  readonly returned: readonly T[];
  readonly filter: CompiledFilter;
  readonly key: (item: T) => string;
}): FilterJudgement {
  const { returned, filter, key } = input;
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  for (const id of returned.map(key)) {
    if (seen.has(id)) duplicated.add(id);
    seen.add(id);
  }
  const unexpected = [...new Set(returned.filter((item) => !matchesFilter(item, filter)).map(key))];
  let misordered: Extract<FilterJudgement, { status: "failed" }>["misordered"];
  if (filter.order) {
    const order = filter.order;
    const at = returned.findIndex(
      (item, index) => index > 0 && compareByOrder(returned[index - 1]!, item, order) > 0,
    );
    if (at > 0) {
      const previous = orderValue(returned[at - 1]!, order);
      const actual = orderValue(returned[at]!, order);
      const expected = `${filter.order.direction === "desc" ? "at most" : "at least"} ${JSON.stringify(previous)}`;
      misordered = { index: at, expected, actual, key: key(returned[at]!) };
    }
  }
  if (unexpected.length === 0 && duplicated.size === 0 && !misordered)
    return { status: "passed", judged: returned.length, unstable: 0 };
  return {
    status: "failed",
    missing: [],
    unexpected,
    duplicated: [...duplicated],
    ...(misordered ? { misordered } : {}),
    judged: returned.length,
  };
}
