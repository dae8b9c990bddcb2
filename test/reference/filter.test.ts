import { describe, expect, it } from "vitest";
import { applyFilter, maxFilterDepth, parseFilter } from "../../src/reference/filter.ts";
import type { FilterableField } from "../../src/spec/types.ts";

const field = (
  name: string,
  type: FilterableField["type"],
  extra: Partial<FilterableField> = {},
): FilterableField => ({
  name,
  type,
  nullable: false,
  extension: "x-compute-filterable",
  ...extra,
});

const fields = [
  field("label", "string"),
  field("class", "string"),
  field("vcpus", "integer"),
  field("memory", "number"),
  field("image", "string", { nullable: true }),
  field("tags", "array", { itemType: "string" }),
];

const items = [
  { id: 1, label: "alpha", class: "standard", vcpus: 1, memory: 1024, image: "debian", tags: ["a", "b"] },
  { id: 2, label: "beta", class: "highmem", vcpus: 2, memory: 24576, image: null, tags: ["b"] },
  { id: 3, label: "gamma", class: "standard", vcpus: 2, memory: 4096, image: "alpine", tags: [] },
  { id: 4, label: "Alphabet", class: "dedicated", vcpus: 4, memory: 8192, image: "debian", tags: ["c"] },
];

function ids(filter: unknown): number[] {
  const parsed = parseFilter(JSON.stringify(filter), fields);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return applyFilter(items, parsed.filter).map((item) => item.id);
}

describe("reference X-Filter evaluation", () => {
  it.each([
    ["equality", { class: "standard" }, [1, 3]],
    ["implicit AND of keys", { class: "standard", vcpus: 2 }, [3]],
    ["+gt", { vcpus: { "+gt": 1 } }, [2, 3, 4]],
    ["+gte", { vcpus: { "+gte": 2 } }, [2, 3, 4]],
    ["+lt", { memory: { "+lt": 4096 } }, [1]],
    ["+lte", { memory: { "+lte": 4096 } }, [1, 3]],
    ["range on one field", { memory: { "+gte": 2000, "+lte": 9000 } }, [3, 4]],
    ["+contains is case-sensitive", { label: { "+contains": "lpha" } }, [1, 4]],
    ["+contains no fold", { label: { "+contains": "Alpha" } }, [4]],
    ["+neq", { class: { "+neq": "standard" } }, [2, 4]],
    ["+or", { "+or": [{ class: "highmem" }, { vcpus: 4 }] }, [2, 4]],
    ["+and", { "+and": [{ class: "standard" }, { memory: { "+gt": 2000 } }] }, [3]],
    [
      "nested +and in +or",
      { "+or": [{ "+and": [{ class: "standard" }, { vcpus: 1 }] }, { label: "beta" }] },
      [1, 2],
    ],
    ["null equality on a nullable field", { image: null }, [2]],
    ["list membership", { tags: "b" }, [1, 2]],
    ["list +neq means not a member", { tags: { "+neq": "b" } }, [3, 4]],
    ["order by asc, ties keep id order", { "+order_by": "vcpus" }, [1, 2, 3, 4]],
    ["order by desc", { "+order_by": "memory", "+order": "desc" }, [2, 4, 3, 1]],
    ["order with a filter", { class: "standard", "+order_by": "label", "+order": "desc" }, [3, 1]],
    ["nulls first ascending", { "+order_by": "image" }, [2, 3, 1, 4]],
  ])("%s", (_name, filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  const deep = (levels: number): unknown =>
    levels === 0 ? { class: "standard" } : { "+and": [deep(levels - 1)] };

  it.each([
    ["malformed JSON", "{", "X-Filter is not valid JSON"],
    ["a non-object", "[1]", "X-Filter must be a JSON object"],
    ["an unfilterable field", JSON.stringify({ region: "us-east" }), "Cannot filter on region"],
    ["+order without +order_by", JSON.stringify({ "+order": "asc" }), "+order requires +order_by"],
    ["+order_by on an unfilterable field", JSON.stringify({ "+order_by": "id" }), "Cannot filter on id"],
    ["a bad +order", JSON.stringify({ "+order_by": "label", "+order": "up" }), "+order must be asc or desc"],
    ["+gt with a string", JSON.stringify({ vcpus: { "+gt": "2" } }), "+gt on vcpus needs a number"],
    [
      "+gt on a text field",
      JSON.stringify({ label: { "+gt": 2 } }),
      "+gt needs a numeric field; label is not one",
    ],
    [
      "+contains with a number",
      JSON.stringify({ label: { "+contains": 2 } }),
      "+contains on label needs a string",
    ],
    ["equality of the wrong type", JSON.stringify({ vcpus: "2" }), "vcpus must be compared with a number"],
    ["null on a non-nullable field", JSON.stringify({ label: null }), "label is never null"],
    [
      "an unknown operator",
      JSON.stringify({ vcpus: { "+between": [1, 2] } }),
      "Unknown operator +between on vcpus",
    ],
    [
      "+or that is not an array",
      JSON.stringify({ "+or": { class: "x" } }),
      "+or needs a non-empty array of filters",
    ],
    [
      "+order_by nested",
      JSON.stringify({ "+and": [{ "+order_by": "label" }] }),
      "+order_by is only allowed at the top level of X-Filter",
    ],
    [
      "ordering by a list field",
      JSON.stringify({ "+order_by": "tags" }),
      "Cannot order by tags: it is a list",
    ],
    [
      "too deep",
      JSON.stringify(deep(maxFilterDepth + 1)),
      `X-Filter nests deeper than ${maxFilterDepth} levels`,
    ],
  ])("refuses %s with an error on field X-Filter", (_name, header, reason) => {
    const parsed = parseFilter(header, fields);
    expect(parsed).toEqual({ ok: false, errors: [{ reason, field: "X-Filter" }] });
  });

  it("accepts nesting up to the documented limit", () => {
    expect(parseFilter(JSON.stringify(deep(maxFilterDepth)), fields).ok).toBe(true);
  });

  it("survives a hostile header far deeper than the stack", () => {
    const header = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    expect(parseFilter(header, fields).ok).toBe(false);
  });
});
