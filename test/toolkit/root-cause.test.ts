/**
 * Failure identity by root cause (issue 31): a falsification naming its cause is recorded under the cause's name,
 * whichever property found it; with a baseline that knows the cause, the property searches on and reports a second
 * defect in the same area as its own, keeping the known one recorded.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { filterCause } from "../../src/toolkit/filter-answers.ts";
import { PropertyRunner } from "../../src/toolkit/property.ts";
import { causeName, knownCause, type RootCause } from "../../src/toolkit/root-cause.ts";
import { fakeCase, specWith } from "../helpers/fake-case.ts";

const spec = await specWith();

/** A filter of one operator, as a generated value; the target gets `+or` and `+neq` wrong. */
const operators = ["+or", "+neq", "+contains", "+gt"] as const;
const filterOf = (operator: string) =>
  operator === "+or" ? { "+or": [{ label: "a" }, { label: "b" }] } : { label: { [operator]: "a" } };
const wrongOn = new Set(["+or", "+neq"]);

function property(name: string, broken = wrongOn) {
  return {
    name,
    arbitrary: fc.constantFrom(...operators),
    defaultRuns: 40,
    predicate: async (operator: string) =>
      broken.has(operator)
        ? { message: `${operator} answered wrongly`, cause: filterCause("getThings", filterOf(operator)) }
        : true,
  };
}

const failedNames = (fake: ReturnType<typeof fakeCase>) =>
  fake.expectations.filter((entry) => !entry.ok).map((entry) => entry.name);

describe("root causes", () => {
  it.each<[RootCause, string]>([
    [
      { rule: "X-Filter answers wrongly", operationId: "getThings", parts: ["+or"] },
      "getThings: X-Filter answers wrongly with +or",
    ],
    [
      { rule: "X-Filter answers wrongly", parts: ["+or", "+neq", "+or"] },
      "X-Filter answers wrongly with +neq +or",
    ],
    [
      { rule: "X-Filter answers wrongly", operationId: "getThings", parts: [] },
      "getThings: X-Filter answers wrongly",
    ],
  ])("names %j %s", (cause, name) => {
    expect(causeName(cause)).toBe(name);
  });

  it("a known cause explains a failure whose input has more ingredients, not fewer", () => {
    const fake = fakeCase(spec, undefined, {
      knownFailures: ["getThings: X-Filter answers wrongly with +or"],
    });
    expect(knownCause(fake.t, filterCause("getThings", filterOf("+or")))).toBe(true);
    expect(knownCause(fake.t, filterCause("getThings", { "+or": [{ label: { "+neq": "a" } }] }))).toBe(true);
    expect(knownCause(fake.t, filterCause("getThings", filterOf("+neq")))).toBe(false);
    expect(knownCause(fake.t, filterCause("getOthers", filterOf("+or")))).toBe(false);
    // However many operators the shrunk filter still holds (seven here, once missed).
    const crowded = {
      "+or": [{ a: { "+gt": 1, "+gte": 1, "+lte": 2 } }, { b: { "+neq": "x" } }],
      "+order_by": "a",
      "+order": "asc",
    };
    expect(knownCause(fake.t, filterCause("getThings", crowded))).toBe(true);
  });

  it("two properties finding the same defect record it under one name (one failure group)", async () => {
    const fake = fakeCase(spec);
    const runner = new PropertyRunner(fake.t, "things");
    await runner.check(property("the oracle agrees", new Set(["+or"])));
    await runner.check(property("+or is the union", new Set(["+or"])));
    expect(failedNames(fake)).toEqual([
      "getThings: X-Filter answers wrongly with +or",
      "getThings: X-Filter answers wrongly with +or",
    ]);
    expect(fake.expectations.find((entry) => !entry.ok)?.details?.message).toMatch(
      /^the oracle agrees falsified after \d+ run\(s\) and \d+ shrink\(s\): \+or answered wrongly$/,
    );
  });

  it("with the baseline knowing one defect, the search goes on and the second is reported too", async () => {
    const known = "getThings: X-Filter answers wrongly with +or";
    const fake = fakeCase(spec, undefined, { knownFailures: [known] });
    const outcome = await new PropertyRunner(fake.t, "things").check(property("the oracle agrees"));
    expect(outcome.passed).toBe(false);
    expect(failedNames(fake).sort()).toEqual([known, "getThings: X-Filter answers wrongly with +neq"].sort());
  });

  it("with the baseline knowing the only defect, it stays recorded as found (known, not fixed)", async () => {
    const known = "getThings: X-Filter answers wrongly with +or";
    const fake = fakeCase(spec, undefined, { knownFailures: [known] });
    await new PropertyRunner(fake.t, "things").check(property("the oracle agrees", new Set(["+or"])));
    expect(failedNames(fake)).toEqual([known]);
    expect(fake.expectations.find((entry) => !entry.ok)?.details?.message).toMatch(
      /a defect the baseline knows/,
    );
  });
});
