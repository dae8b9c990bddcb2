import { describe, expect, it } from "vitest";
import {
  type CompiledFilter,
  checkFilter,
  checkFilterHeader,
  compareValues,
  evaluateFilter,
  judgeFilteredList,
  judgeFilteredPages,
} from "../../src/oracles/filter-oracle.ts";
import type { FilterableField } from "../../src/spec/types.ts";
import { instanceFields, instances, invalidCases, validCases } from "../cases/filter-semantics.cases.ts";

function compile(filter: unknown, fields: readonly FilterableField[] = instanceFields): CompiledFilter {
  const verdict = checkFilter(filter, fields);
  if (verdict.status !== "valid") throw new Error(`not valid: ${JSON.stringify(verdict)}`);
  return verdict.filter;
}

describe("filter oracle: the shared semantics table", () => {
  it.each(validCases)("$name", ({ filter, expected }) => {
    const answer = evaluateFilter(instances, compile(filter)).map((row) => row.label);
    expect(answer).toEqual(expected);
  });

  it.each(invalidCases)("refuses $name ($rule)", ({ header, rule, field }) => {
    const verdict = checkFilterHeader(header, instanceFields);
    expect(verdict.status).toBe("invalid");
    const problems = verdict.status === "invalid" ? verdict.problems : [];
    expect(problems.map((problem) => problem.rule)).toContain(rule);
    if (field !== undefined) {
      expect(problems.find((problem) => problem.rule === rule)?.message).toBe(`Cannot filter on ${field}`);
    }
  });
});

describe("filter oracle: what the description leaves open", () => {
  const open: [string, unknown, string][] = [
    ["+order_by a list field", { "+order_by": "tags" }, "order-by-list-field"],
    ["an empty +or", { "+or": [] }, "empty-logical"],
    ["equality with another type", { id: "3" }, "equality-type"],
    ["equality with null", { image: null }, "equality-null"],
    ["equality with an array", { tags: ["prod"] }, "equality-compound"],
    ["a comparison on a string field", { label: { "+gt": 3 } }, "operator-on-field-type"],
    ["+contains on a number field", { id: { "+contains": "1" } }, "operator-on-field-type"],
    ["+neq with a number", { id: { "+neq": 3 } }, "operator-on-field-type"],
    ["an empty operator object", { label: {} }, "empty-operators"],
    ["a comparison operator as a key", { "+gt": 3 }, "operator-misplaced"],
    ["ordering inside +or", { "+or": [{ "+order_by": "label" }] }, "order-nested"],
  ];
  it.each(open)("%s is unspecified", (_name, filter, point) => {
    const verdict = checkFilter(filter, instanceFields);
    expect(verdict.status).toBe("unspecified");
    expect(verdict.status === "unspecified" ? verdict.points.map((entry) => entry.rule) : []).toContain(
      point,
    );
  });

  it("a clear breach wins over an open point: the filter is invalid", () => {
    const verdict = checkFilter({ "+or": [], colour: "red" }, instanceFields);
    expect(verdict.status).toBe("invalid");
  });

  it("reports every rule broken, each with its pointer", () => {
    const verdict = checkFilter(
      { colour: "red", "+and": [{ id: { "+gt": "x" } }], "+order": "sideways" },
      instanceFields,
    );
    expect(verdict.status === "invalid" ? verdict.problems.map((p) => [p.rule, p.pointer]) : []).toEqual([
      ["unfilterable-field", "/colour"],
      ["operator-value-type", "/+and/0/id/+gt"],
      ["order-value", "/+order"],
      ["order-without-order-by", "/+order"],
    ]);
  });
});

describe("filter oracle: values and order", () => {
  const comparisons: [unknown, unknown, number][] = [
    [null, "a", -1],
    ["a", null, 1],
    [null, null, 0],
    [2, 10, -1],
    ["10", "2", -1],
    ["B", "a", -1],
    [false, true, -1],
    [1.5, 1.5, 0],
  ];
  it.each(comparisons)("compareValues(%j, %j) is %i", (a, b, sign) => {
    expect(Math.sign(compareValues(a, b))).toBe(sign);
  });

  it("booleans and numbers filter and order (events-like items)", () => {
    const fields: FilterableField[] = [
      { name: "id", type: "integer", nullable: false, extension: "x" },
      { name: "seen", type: "boolean", nullable: false, extension: "x" },
      { name: "username", type: "string", nullable: true, extension: "x" },
    ];
    const items = [
      { id: 1, seen: true, username: "ann" },
      { id: 2, seen: false, username: null },
      { id: 3, seen: false, username: "bob" },
    ];
    const ids = (filter: unknown) => evaluateFilter(items, compile(filter, fields)).map((item) => item.id);
    expect(ids({ seen: false })).toEqual([2, 3]);
    expect(ids({ "+order_by": "seen", "+order": "desc" })).toEqual([1, 2, 3]);
    expect(ids({ "+order_by": "username" })).toEqual([2, 1, 3]);
    expect(ids({ username: { "+neq": "ann" } })).toEqual([2, 3]);
    expect(ids({ id: { "+gt": 1.5, "+lt": 3 } })).toEqual([2]);
  });
});

describe("filter oracle: judging an answer", () => {
  const fields = instanceFields;
  const key = (row: { id: number }) => String(row.id);
  const byRegion = compile({ region: "us-east" });
  const ordered = compile({ "+order_by": "region" });
  const usEast = instances.filter((row) => row.region === "us-east");
  const judge = (returned: readonly (typeof instances)[number][], filter = byRegion, extra = {}) =>
    judgeFilteredList({
      before: instances,
      after: instances,
      returned,
      pages: 1,
      filter,
      key,
      fields,
      ...extra,
    });

  it("passes the oracle's own answer", () => {
    expect(judge(usEast).status).toBe("passed");
    expect(judge(evaluateFilter(instances, ordered), ordered).status).toBe("passed");
  });

  it("passes another order of ties", () => {
    const answer = evaluateFilter(instances, ordered);
    const swapped = [answer[1]!, answer[0]!, ...answer.slice(2)];
    expect(answer[0]!.region).toBe(answer[1]!.region);
    expect(judge(swapped, ordered).status).toBe("passed");
  });

  it("names an item left out, one let in, one repeated", () => {
    const verdict = judge([usEast[0]!, usEast[0]!, instances[3]!]);
    expect(verdict).toMatchObject({
      status: "failed",
      expected: ["1", "2", "7"],
      missing: ["2", "7"],
      unexpected: ["4"],
      duplicated: ["1"],
    });
  });

  it("names the first place the order is wrong", () => {
    const answer = evaluateFilter(instances, ordered).reverse();
    const verdict = judge(answer, ordered);
    expect(verdict).toMatchObject({ status: "failed", misordered: { index: 0, expected: "eu-west" } });
  });

  it("does not judge items that changed meanwhile (single page)", () => {
    const moved = instances.map((row) => (row.id === 2 ? { ...row, region: "eu-west" } : row));
    const added = [...instances, { ...instances[0]!, id: 8, label: "new" }];
    expect(judge([usEast[0]!, usEast[2]!], byRegion, { after: moved }).status).toBe("passed");
    expect(judge(usEast, byRegion, { after: added }).status).toBe("passed");
    // Stable items are still judged.
    expect(judge([usEast[0]!], byRegion, { after: moved }).status).toBe("failed");
  });

  it("is inconclusive when the collection changed during a walk of several pages", () => {
    const added = [...instances, { ...instances[0]!, id: 8, label: "new" }];
    expect(judge(usEast, byRegion, { after: added, pages: 2 }).status).toBe("inconclusive");
    expect(judge(usEast, byRegion, { pages: 2 }).status).toBe("passed");
  });
});

describe("filter oracle: judging the pages read of an answer too long to read whole", () => {
  const key = (row: { id: number }) => String(row.id);
  const byRegion = compile({ region: "us-east" });
  const ordered = compile({ "+order_by": "region", "+order": "desc" });
  const usEast = instances.filter((row) => row.region === "us-east");
  const judge = (returned: readonly (typeof instances)[number][], filter = byRegion) =>
    judgeFilteredPages({ returned, filter, key });

  it.each([
    [
      "matching items, some left out (completeness is not judged)",
      [usEast[0]!],
      byRegion,
      { status: "passed" },
    ],
    ["the oracle's ordered answer", evaluateFilter(instances, ordered), ordered, { status: "passed" }],
    [
      "an item that does not match",
      [usEast[0]!, instances[3]!],
      byRegion,
      { status: "failed", missing: [], unexpected: ["4"] },
    ],
    ["an item twice", [usEast[0]!, usEast[0]!], byRegion, { status: "failed", duplicated: ["1"] }],
    [
      "items out of order",
      evaluateFilter(instances, ordered).reverse(),
      ordered,
      { status: "failed", unexpected: [], misordered: { index: expect.any(Number) } },
    ],
  ])("%s", (_name, returned, filter, verdict) => {
    expect(judge(returned, filter)).toMatchObject(verdict);
  });
});
