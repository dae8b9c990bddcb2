/**
 * The nested-field X-Filter table against both implementations, each called as a function: the oracle and the
 * reference server's own filter (twins that share no code). The events suite's test runs the same through the
 * reference server over HTTPS.
 */
import { describe, expect, it } from "vitest";
import {
  checkFilter,
  evaluateFilter,
  filterFieldValue,
  judgeFilteredList,
  judgeFilteredPages,
} from "../../src/oracles/filter-oracle.ts";
import { applyFilter, parseFilter } from "../../src/reference/filter.ts";
import {
  eventFields,
  events,
  type NestedFilterCase,
  type NestedInvalidCase,
  nestedCases,
  nestedInvalidCases,
} from "./nested-filter.cases.ts";

interface Implementation {
  readonly name: string;
  answer(filter: Record<string, unknown>): number[];
  /** The refusal's message, or undefined when the filter is taken. */
  refuse(filter: unknown): string | undefined;
}

const oracle: Implementation = {
  name: "oracle",
  answer(filter) {
    const verdict = checkFilter(filter, eventFields);
    if (verdict.status !== "valid") throw new Error(`the oracle calls it ${JSON.stringify(verdict)}`);
    return evaluateFilter(events, verdict.filter).map((row) => row.id);
  },
  refuse(filter) {
    const verdict = checkFilter(filter, eventFields);
    return verdict.status === "invalid"
      ? verdict.problems.map((problem) => problem.message).join("; ")
      : undefined;
  },
};

const reference: Implementation = {
  name: "reference filter",
  answer(filter) {
    const parsed = parseFilter(JSON.stringify(filter), eventFields);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return applyFilter(events, parsed.filter).map((row) => row.id);
  },
  refuse(filter) {
    const parsed = parseFilter(JSON.stringify(filter), eventFields);
    return parsed.ok ? undefined : parsed.errors.map((error) => error.reason).join("; ");
  },
};

describe.each([oracle, reference])("X-Filter on nested fields: $name", (implementation) => {
  it.each(nestedCases)("$name", ({ filter, expected }: NestedFilterCase) => {
    expect(implementation.answer(filter)).toEqual(expected);
  });

  it.each(nestedInvalidCases)("refuses $name", ({ filter, field }: NestedInvalidCase) => {
    const refusal = implementation.refuse(filter);
    expect(refusal).toBeDefined();
    if (field !== undefined) expect(refusal).toContain(`Cannot filter on ${field}`);
  });
});

describe("the oracle on nested fields", () => {
  it.each([
    ["a nested value", { entity: { id: 3 } }, 3],
    ["a null parent", { entity: null }, null],
    ["a missing parent", {}, null],
    ["a scalar parent", { entity: 5 }, null],
    ["a missing child", { entity: {} }, null],
    ["a top-level property named like the path is not the field", { "entity.id": 9 }, null],
  ])("filterFieldValue reads %s", (_name, item, expected) => {
    expect(filterFieldValue(item, eventFields[2]!)).toEqual(expected);
  });

  it.each([
    ["equality with null on a nested field", { "entity.id": null }, "equality-null"],
    ["equality with a boolean on a field of two types", { "entity.id": true }, "equality-type"],
    ["+order_by a field of two types", { "+order_by": "entity.id" }, "order-by-mixed-types"],
    ["+neq with a number on a field of two types", { "entity.id": { "+neq": 12 } }, "operator-on-field-type"],
  ])("%s is unspecified", (_name, filter, point) => {
    const verdict = checkFilter(filter, eventFields);
    expect(verdict.status).toBe("unspecified");
    expect(verdict.status === "unspecified" ? verdict.points.map((entry) => entry.rule) : []).toContain(
      point,
    );
  });

  it("judges a nested field's soundness and the stability of its values", () => {
    const verdict = checkFilter({ "entity.id": 12 }, eventFields);
    if (verdict.status !== "valid") throw new Error("not valid");
    const key = (row: { id: number }) => String(row.id);
    const wrong = events.filter((row) => row.action === "compute_create");
    expect(judgeFilteredPages({ returned: wrong, filter: verdict.filter, key })).toMatchObject({
      status: "failed",
      unexpected: ["7"],
    });
    // The entity of event 1 changed between the two reads: it is not judged.
    const after = events.map((row) =>
      row.id === 1 ? { ...row, entity: { id: 99, type: "compute", label: "x" } } : row,
    );
    expect(
      judgeFilteredList({
        before: events,
        after,
        returned: [events[1]!],
        pages: 1,
        filter: verdict.filter,
        key,
        fields: eventFields,
      }),
    ).toMatchObject({ status: "passed", unstable: 1 });
  });
});

describe("the reference on nested fields", () => {
  it("a null filter value on a nullable nested field matches the events without an entity", () => {
    expect(reference.answer({ "entity.id": null })).toEqual([5, 6]);
  });

  it("+order_by a field of two types puts numbers before strings", () => {
    expect(reference.answer({ "entity.id": { "+neq": "x" }, "+order_by": "entity.id" })).toEqual([
      5, 6, 3, 1, 2, 7, 4,
    ]);
  });
});
