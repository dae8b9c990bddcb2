import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { filterObject, filterScenarios, scenariosFor } from "../../src/generators/filter-object.ts";
import { checkFilter, evaluateFilter } from "../../src/oracles/filter-oracle.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { instanceFields, instances } from "../cases/filter-semantics.cases.ts";
import { eventFields, events } from "../cases/nested-filter.cases.ts";
import {
  assertCovers,
  assertEveryValue,
  assertSameSeedSameValues,
  assertShrinks,
} from "./arbitrary-assertions.ts";

const spec = await loadSpec(bundledSpecPath);
const lists = spec.operations
  .all()
  .filter((operation) => operation.paginated && operation.filterableFields.length > 0);
const items = instances.map((row) => ({ ...row, ipv4: [`192.0.2.${row.id}`, `192.168.128.${row.id}`] }));
const filters = filterObject({ fields: instanceFields, items });

/** Depth of +and/+or nesting. */
function depth(value: unknown): number {
  if (Array.isArray(value)) return Math.max(0, ...value.map(depth));
  if (typeof value !== "object" || value === null) return 0;
  return Math.max(
    0,
    ...Object.entries(value).map(([key, inner]) => (key === "+and" || key === "+or" ? 1 : 0) + depth(inner)),
  );
}

describe("filterObject", () => {
  it("finds the spec's filterable lists", () => {
    expect(lists.map((operation) => operation.operationId).sort()).toEqual([
      "getComputeInstances",
      "getComputeTypes",
      "getEvents",
      "getIPs",
      "getNodeBalancers",
      "getOAuthClients",
      "getPersonalAccessTokens",
    ]);
  });

  it("same seed, same filters", () => assertSameSeedSameValues(filters));

  it.each(lists.map((operation) => [operation.operationId, operation] as const))(
    "%s: every filter is valid by the oracle (with and without items to draw from)",
    (_id, operation) => {
      for (const source of [[], items]) {
        assertEveryValue(filterObject({ fields: operation.filterableFields, items: source }), ({ value }) => {
          const verdict = checkFilter(value, operation.filterableFields);
          return verdict.status === "valid" ? undefined : JSON.stringify(verdict);
        });
      }
    },
  );

  it("draws every scenario the instance list allows", () => {
    expect(scenariosFor(instanceFields)).toEqual([...filterScenarios]);
    assertCovers(
      filters,
      filterScenarios.map((scenario) => `filter-${scenario}`),
    );
  });

  it("nested fields take part like any other, their values drawn from down their path (integer or string ids)", () => {
    const eventFilters = filterObject({ fields: eventFields, items: events });
    assertEveryValue(eventFilters, ({ value }) => {
      const verdict = checkFilter(value, eventFields);
      return verdict.status === "valid" ? undefined : JSON.stringify(verdict);
    });
    const sample = fc
      .sample(eventFilters, { seed: 3, numRuns: 600 })
      .map(({ value }) => JSON.stringify(value));
    for (const shown of ['"entity.id":12', '"entity.id":"192.168.1.5"', '"entity.type":"']) {
      expect(
        sample.some((text) => text.includes(shown)),
        shown,
      ).toBe(true);
    }
    expect(sample.some((text) => /"entity\.id":\{"\+(gt|gte|lt|lte)":\d+\}/.test(text))).toBe(true);
    expect(sample.some((text) => text.includes('"+order_by":"entity.type"'))).toBe(true);
    // How an integer id orders against a string one is not described: entity.id is never ordered by.
    expect(sample.some((text) => text.includes('"+order_by":"entity.id"'))).toBe(false);
  });

  it("a list without numeric fields gets no comparisons", () => {
    const balancers = lists.find((operation) => operation.operationId === "getNodeBalancers")!;
    expect(scenariosFor(balancers.filterableFields)).not.toContain("comparison");
    expect(() =>
      filterObject({ fields: balancers.filterableFields, items: [], scenarios: ["range"] }),
    ).toThrow(RangeError);
  });

  it("each value has the shape its scenario names", () => {
    const shapes: Record<string, (value: Record<string, unknown>) => boolean> = {
      "filter-comparison": (value) => /"\+(gt|gte|lt|lte)"/.test(JSON.stringify(value)),
      "filter-range": (value) =>
        Object.values(value).some((inner) => Object.keys(inner as object).length === 2),
      "filter-contains": (value) => JSON.stringify(value).includes('"+contains"'),
      "filter-neq": (value) => JSON.stringify(value).includes('"+neq"'),
      "filter-implicit-and": (value) => Object.keys(value).length >= 2,
      "filter-and": (value) => Array.isArray(value["+and"]),
      "filter-or": (value) => Array.isArray(value["+or"]),
      "filter-nested": (value) => depth(value) >= 2,
      "filter-order": (value) => typeof value["+order_by"] === "string",
    };
    assertEveryValue(filters, ({ value, meta }) =>
      (shapes[meta.scenario] ?? (() => true))(value as Record<string, unknown>) ? undefined : meta.scenario,
    );
  });

  it("selects non-trivially from the items it drew from (neither always none nor always all)", () => {
    const sample = fc.sample(filters, { seed: 5, numRuns: 400 });
    const between = sample.filter(({ value }) => {
      const verdict = checkFilter(value, instanceFields);
      if (verdict.status !== "valid") return false;
      const count = evaluateFilter(items, verdict.filter).length;
      return count > 0 && count < items.length;
    });
    expect(between.length / sample.length).toBeGreaterThan(0.4);
  });

  it("+contains pieces sometimes change case (so a case-folding target shows)", () => {
    const pieces = fc
      .sample(filterObject({ fields: instanceFields, items, scenarios: ["contains"] }), {
        seed: 9,
        numRuns: 300,
      })
      .map(({ value }) => Object.values(value)[0] as { "+contains": string })
      .map((operand) => operand["+contains"]);
    const labels = items.flatMap((row) => [row.label, row.region, row.group, row.image ?? "", ...row.tags]);
    expect(pieces.some((piece) => !labels.some((text) => text.includes(piece)))).toBe(true);
  });

  it("shrinks a failing filter to a small one of the same kind", () => {
    const shrunk = assertShrinks(filters, ({ value }) => JSON.stringify(value).includes('"+or"'));
    expect(JSON.stringify(shrunk.value)).toContain('"+or"');
    // Scenarios do not shrink into each other: a nested filter stays two levels deep, with single conditions.
    expect(depth(shrunk.value)).toBeLessThanOrEqual(2);
    expect(JSON.stringify(shrunk.value).length).toBeLessThan(100);
  });
});
