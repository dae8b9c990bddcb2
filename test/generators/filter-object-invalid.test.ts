import { describe, expect, it } from "vitest";
import { mutationsOf } from "../../src/generators/case-meta.ts";
import { invalidFilterObject, invalidFilterRules } from "../../src/generators/filter-object-invalid.ts";
import { checkFilterHeader } from "../../src/oracles/filter-oracle.ts";
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
const invalid = invalidFilterObject({
  fields: instanceFields,
  items: instances,
  unfilterable: ["status", "type"],
});

describe("invalidFilterObject", () => {
  it("same seed, same values", () => assertSameSeedSameValues(invalid));

  it.each(lists.map((operation) => [operation.operationId, operation] as const))(
    "%s: each value breaks exactly the one rule its provenance names, where it says",
    (_id, operation) => {
      const arbitrary = invalidFilterObject({
        fields: operation.filterableFields,
        items: [],
        unfilterable: ["created"],
      });
      assertEveryValue(arbitrary, ({ value, meta }) => {
        const [mutation, ...more] = mutationsOf(meta);
        if (!mutation || more.length > 0 || meta.mode !== "negative") return "not one mutation";
        if (mutation.field !== "X-Filter") return "the error must name X-Filter";
        const verdict = checkFilterHeader(value.header, operation.filterableFields);
        if (verdict.status !== "invalid") return `the oracle calls it ${verdict.status}`;
        if (verdict.problems.length !== 1) return `${verdict.problems.length} rules broken`;
        const [problem] = verdict.problems;
        if (problem!.rule !== mutation.operator) return `broke ${problem!.rule}, says ${mutation.operator}`;
        if (problem!.pointer !== mutation.pointer) return `at ${problem!.pointer}, says ${mutation.pointer}`;
        if (meta.scenario !== `filter-${mutation.operator}`) return "scenario and mutation differ";
        if (
          mutation.operator === "unfilterable-field" &&
          problem!.message !== `Cannot filter on ${mutation.detail}`
        )
          return `names ${problem!.message}, detail ${mutation.detail}`;
        return undefined;
      });
    },
  );

  it("breaks every rule of the description", () => {
    assertCovers(
      invalid,
      invalidFilterRules.map((rule) => `filter-${rule}`),
    );
  });

  it("uses the list's real unfilterable fields as well as made-up ones", () => {
    assertCovers(
      invalidFilterObject({
        fields: instanceFields,
        items: instances,
        unfilterable: ["status"],
        rules: ["unfilterable-field"],
      }),
      ["status", "colour"],
      500,
      ({ meta }) => String(mutationsOf(meta)[0]?.detail),
    );
  });

  it("beside a nested filterable field, a made-up sibling by its dotted path", () => {
    assertCovers(
      invalidFilterObject({ fields: eventFields, items: events, rules: ["unfilterable-field"] }),
      ["entity.colour", "colour"],
      500,
      ({ meta }) => String(mutationsOf(meta)[0]?.detail),
    );
  });

  it("only the rules asked for", () => {
    assertEveryValue(
      invalidFilterObject({ fields: instanceFields, items: instances, rules: ["order-value", "not-json"] }),
      ({ meta }) =>
        ["filter-order-value", "filter-not-json"].includes(meta.scenario) ? undefined : meta.scenario,
    );
  });

  it("shrinks to a small header breaking the same rule", () => {
    const shrunk = assertShrinks(invalid, ({ meta }) => meta.scenario === "filter-unfilterable-field");
    expect(shrunk.value.header.length).toBeLessThan(40);
  });
});
