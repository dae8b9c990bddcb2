/**
 * X-Filter semantics as a table, written once and run against every implementation: the oracle
 * (`test/oracles/filter-oracle.test.ts`) and the reference server (`test/reference/filter-semantics.test.ts`).
 *
 * The dataset is a small fixed set of compute instances (the list with the most kinds of filterable fields:
 * an integer id, strings, a nullable string and a list). Rows name items by label; ids are 1..7 here and the
 * reference assigns its own, so `translateIds` shifts every number that filters `id` by the server's offset.
 * Expected lists are exact, in order (ties keep the collection's id order, as both implementations choose).
 */
import type { FilterableField } from "../../src/spec/types.ts";

export interface InstanceRow {
  readonly id: number;
  readonly label: string;
  readonly region: string;
  readonly image: string | null;
  readonly group: string;
  readonly tags: readonly string[];
}

/** The instance list's filterable fields this table uses (as the spec declares them). */
export const instanceFields: readonly FilterableField[] = [
  { name: "id", type: "integer", nullable: false, extension: "x-compute-filterable" },
  { name: "label", type: "string", nullable: false, extension: "x-compute-filterable" },
  { name: "region", type: "string", nullable: false, extension: "x-compute-filterable" },
  { name: "image", type: "string", nullable: true, extension: "x-compute-filterable" },
  { name: "group", type: "string", nullable: false, extension: "x-compute-filterable" },
  { name: "tags", type: "array", itemType: "string", nullable: false, extension: "x-compute-filterable" },
  { name: "ipv4", type: "array", itemType: "string", nullable: false, extension: "x-compute-filterable" },
];

export const instances: readonly InstanceRow[] = [
  {
    id: 1,
    label: "web-1",
    region: "us-east",
    image: "compute/debian12",
    group: "web",
    tags: ["prod", "blue"],
  },
  { id: 2, label: "web-2", region: "us-east", image: "compute/debian12", group: "web", tags: ["prod"] },
  { id: 3, label: "Web-3", region: "us-west", image: "compute/ubuntu24", group: "web", tags: ["staging"] },
  { id: 4, label: "db-1", region: "eu-west", image: null, group: "db", tags: ["prod", "db"] },
  { id: 5, label: "db-2", region: "us-west", image: "compute/debian12", group: "db", tags: [] },
  { id: 6, label: "cache-A", region: "eu-west", image: null, group: "", tags: ["blue"] },
  {
    id: 7,
    label: "batch.job-7",
    region: "us-east",
    image: "compute/alpine3",
    group: "batch",
    tags: ["Prod"],
  },
];

const all = instances.map((row) => row.label);

export interface FilterSemanticsCase {
  readonly name: string;
  readonly filter: Record<string, unknown>;
  /** Labels of the items answered, in order. */
  readonly expected: readonly string[];
}

export const validCases: readonly FilterSemanticsCase[] = [
  { name: "an empty filter matches everything", filter: {}, expected: all },
  { name: "equality", filter: { region: "us-east" }, expected: ["web-1", "web-2", "batch.job-7"] },
  { name: "equality with an empty string", filter: { group: "" }, expected: ["cache-A"] },
  {
    name: "equality on a nullable field",
    filter: { image: "compute/debian12" },
    expected: ["web-1", "web-2", "db-2"],
  },
  {
    name: "equality on a list field is membership (exact, case-sensitive)",
    filter: { tags: "prod" },
    expected: ["web-1", "web-2", "db-1"],
  },
  {
    name: "several keys are ANDed",
    filter: { region: "us-east", group: "web" },
    expected: ["web-1", "web-2"],
  },
  { name: "+gt", filter: { id: { "+gt": 5 } }, expected: ["cache-A", "batch.job-7"] },
  { name: "+gte", filter: { id: { "+gte": 5 } }, expected: ["db-2", "cache-A", "batch.job-7"] },
  { name: "+lt", filter: { id: { "+lt": 2 } }, expected: ["web-1"] },
  { name: "+lte", filter: { id: { "+lte": 2 } }, expected: ["web-1", "web-2"] },
  {
    name: "two operators under one field are ANDed (a range)",
    filter: { id: { "+gte": 2, "+lte": 4 } },
    expected: ["web-2", "Web-3", "db-1"],
  },
  {
    name: "+contains is case-sensitive",
    filter: { label: { "+contains": "web" } },
    expected: ["web-1", "web-2"],
  },
  { name: "+contains, other case", filter: { label: { "+contains": "Web" } }, expected: ["Web-3"] },
  {
    name: "+contains on a list field: any item contains it",
    filter: { tags: { "+contains": "ro" } },
    expected: ["web-1", "web-2", "db-1", "batch.job-7"],
  },
  {
    name: "+contains never matches a null",
    filter: { image: { "+contains": "debian" } },
    expected: ["web-1", "web-2", "db-2"],
  },
  { name: "+neq", filter: { region: { "+neq": "us-east" } }, expected: ["Web-3", "db-1", "db-2", "cache-A"] },
  {
    name: "+neq on a list field: the list does not hold the value",
    filter: { tags: { "+neq": "prod" } },
    expected: ["Web-3", "db-2", "cache-A", "batch.job-7"],
  },
  {
    name: "+or is the union",
    filter: { "+or": [{ region: "eu-west" }, { group: "batch" }] },
    expected: ["db-1", "cache-A", "batch.job-7"],
  },
  {
    name: "+and is the intersection",
    filter: { "+and": [{ tags: "prod" }, { region: "us-east" }] },
    expected: ["web-1", "web-2"],
  },
  {
    name: "an element of +or ANDs its keys",
    filter: { "+or": [{ region: "us-west", group: "db" }, { tags: "staging" }] },
    expected: ["Web-3", "db-2"],
  },
  {
    name: "+and nested inside +or is not flattened",
    filter: { "+or": [{ "+and": [{ region: "us-east" }, { tags: "blue" }] }, { label: "db-2" }] },
    expected: ["web-1", "db-2"],
  },
  {
    name: "+or nested inside +and",
    filter: {
      "+and": [
        { "+or": [{ group: "db" }, { group: "batch" }] },
        { "+or": [{ region: "us-west" }, { region: "us-east" }] },
      ],
    },
    expected: ["db-2", "batch.job-7"],
  },
  {
    name: "a field key beside +or is ANDed with it",
    filter: { group: "web", "+or": [{ tags: "blue" }, { tags: "staging" }] },
    expected: ["web-1", "Web-3"],
  },
  {
    name: "+order_by a string: code-unit order, ascending by default",
    filter: { "+order_by": "label" },
    expected: ["Web-3", "batch.job-7", "cache-A", "db-1", "db-2", "web-1", "web-2"],
  },
  {
    name: "+order desc reverses",
    filter: { "+order_by": "label", "+order": "desc" },
    expected: ["web-2", "web-1", "db-2", "db-1", "cache-A", "batch.job-7", "Web-3"],
  },
  {
    name: "nulls sort first ascending; ties keep id order",
    filter: { "+order_by": "image" },
    expected: ["db-1", "cache-A", "batch.job-7", "web-1", "web-2", "db-2", "Web-3"],
  },
  {
    name: "nulls sort last descending; ties keep id order",
    filter: { "+order_by": "image", "+order": "desc" },
    expected: ["Web-3", "web-1", "web-2", "db-2", "batch.job-7", "db-1", "cache-A"],
  },
  {
    name: "ordering with a filter, by a number, descending",
    filter: { region: "us-east", "+order_by": "id", "+order": "desc" },
    expected: ["batch.job-7", "web-2", "web-1"],
  },
  {
    name: "+order asc said explicitly",
    filter: { group: { "+neq": "web" }, "+order_by": "group", "+order": "asc" },
    expected: ["cache-A", "batch.job-7", "db-1", "db-2"],
  },
];

export interface InvalidFilterCase {
  readonly name: string;
  /** The X-Filter header as sent (raw text: some are not JSON). */
  readonly header: string;
  /** The rule the oracle must name. */
  readonly rule: string;
  /** For `unfilterable-field`: the field the 400 must name in `Cannot filter on <field>`. */
  readonly field?: string;
}

const json = (value: unknown) => JSON.stringify(value);

export const invalidCases: readonly InvalidFilterCase[] = [
  {
    name: "a field that exists but is not filterable",
    header: json({ type: "g6-standard-2" }),
    rule: "unfilterable-field",
    field: "type",
  },
  {
    name: "a field that does not exist",
    header: json({ colour: "red" }),
    rule: "unfilterable-field",
    field: "colour",
  },
  {
    name: "an unfilterable field nested inside +or",
    header: json({ "+or": [{ region: "us-east" }, { status: "running" }] }),
    rule: "unfilterable-field",
    field: "status",
  },
  { name: "+order without +order_by", header: json({ "+order": "desc" }), rule: "order-without-order-by" },
  {
    name: "+order_by an unfilterable field",
    header: json({ "+order_by": "type" }),
    rule: "order-by-unfilterable",
  },
  { name: "+order_by a number", header: json({ "+order_by": 5 }), rule: "order-by-not-string" },
  {
    name: "+order neither asc nor desc",
    header: json({ "+order_by": "label", "+order": "down" }),
    rule: "order-value",
  },
  { name: "+gt with a string", header: json({ id: { "+gt": "five" } }), rule: "operator-value-type" },
  { name: "+lte with null", header: json({ id: { "+lte": null } }), rule: "operator-value-type" },
  {
    name: "+contains with a number",
    header: json({ label: { "+contains": 5 } }),
    rule: "operator-value-type",
  },
  {
    name: "+neq with an array",
    header: json({ region: { "+neq": ["us-east"] } }),
    rule: "operator-value-type",
  },
  { name: "an unknown operator", header: json({ label: { "+like": "web" } }), rule: "unknown-operator" },
  { name: "+or with an object", header: json({ "+or": { region: "us-east" } }), rule: "logical-not-array" },
  { name: "+and holding a string", header: json({ "+and": ["region"] }), rule: "logical-element-not-object" },
  { name: "malformed JSON", header: '{"region": "us-east"', rule: "not-json" },
  { name: "an array", header: json([{ region: "us-east" }]), rule: "not-an-object" },
  { name: "a string", header: json("region"), rule: "not-an-object" },
  { name: "null", header: "null", rule: "not-an-object" },
  { name: "a number", header: "42", rule: "not-an-object" },
];

/** Shifts every number filtering `id` (as a value or an operand) by `offset`: table ids are 1..n. */
export function translateIds(filter: unknown, offset: number): unknown {
  if (Array.isArray(filter)) return filter.map((element) => translateIds(element, offset));
  if (typeof filter !== "object" || filter === null) return filter;
  return Object.fromEntries(
    Object.entries(filter).map(([key, value]) => {
      if (key !== "id") return [key, translateIds(value, offset)];
      if (typeof value === "number") return [key, value + offset];
      if (typeof value === "object" && value !== null) {
        return [
          key,
          Object.fromEntries(
            Object.entries(value).map(([op, operand]) => [
              op,
              typeof operand === "number" ? operand + offset : operand,
            ]),
          ),
        ];
      }
      return [key, value];
    }),
  );
}
