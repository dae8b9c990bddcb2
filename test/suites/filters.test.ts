/**
 * The filters suite through the real runner: green on the clean reference, red with each X-Filter fault, naming
 * the property that caught it, with a reproduction (seed, shrunk filter, replay command).
 */
import { describe, expect, it } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import { filterFaults } from "../../src/reference/faults/list-faults.ts";
import { describeProblems, expectFaultCaught, runSuites } from "../helpers/run-suites.ts";

// A wrong answer is named by its root cause (the filter's operators), whichever property found it (issue 31).
const caught: Record<string, RegExp> = {
  "filter-or-as-and": /: X-Filter answers wrongly with (.+ )?\+or( .+)?$/,
  "filter-order-ignored": /: desc is the reverse of asc$/,
  "filter-gt-as-gte": /: X-Filter answers wrongly with (.+ )?\+gt( .+)?$/,
  "filter-neq-ignored": /: X-Filter answers wrongly with (.+ )?\+neq( .+)?$/,
  "filter-contains-case-folded": /: X-Filter answers wrongly with (.+ )?\+contains( .+)?$/,
  "filter-unfilterable-accepted": / refuses a filter on \w+ with Cannot filter on \w+$/,
  "filter-nested-and-flattened": /: X-Filter answers wrongly with (.+ )?\+(and|or)( .+)?$/,
};

const cases = (events: readonly { type: string }[]) =>
  events.filter((event): event is CaseFinished => event.type === "case-finished");

describe("filters suite", () => {
  it("is green on the clean reference, seeds its lists and stays within a few hundred requests", async () => {
    const run = await runSuites({ suites: ["filters"] });
    expect(describeProblems(run)).toBe("");
    expect(cases(run.events).map((event) => [event.caseId, event.status])).toEqual([
      ["seed-data", "passed"],
      ["semantics", "passed"],
      ["and-or", "passed"],
      ["order-reverse", "passed"],
      ["page-size-independent", "passed"],
      ["invalid-filters", "passed"],
    ]);
    expect(run.finished.exchanges).toBeLessThan(700);
    // What seed-data created is deleted at the end of the run.
    expect(run.finished.cleanup.failed).toEqual([]);
    expect(run.finished.cleanup.deleted).toBeGreaterThanOrEqual(11);
  });

  it("every X-Filter fault has a row here", () => {
    expect(filterFaults.map((fault) => fault.id).sort()).toEqual(Object.keys(caught).sort());
  });

  it.each(filterFaults.map((fault) => [fault.id, fault] as const))("is red with %s", async (id, fault) => {
    await expectFaultCaught("filters", fault, caught[id]!);
  });

  it("a falsified property reports the seed, the shrunk filter and the command that replays it", async () => {
    const run = await runSuites({ suites: ["filters"], faults: ["filter-or-as-and"], seed: 5 });
    const failing = cases(run.events).find((event) => event.caseId === "and-or")!;
    expect(failing.status).toBe("failed");
    expect(failing.reproduction).toMatchObject({
      seed: 5,
      replay: expect.stringMatching(
        /^conform fuzz filters --seed 5 --runs \d+ --property 'filters\/and-or\/\w+: \+and is the intersection, \+or the union' --path \d+(:\d+)*$/,
      ),
    });
    expect(failing.reproduction?.path).toMatch(/^\d+(:\d+)*$/);
    const counterexample = failing.reproduction?.counterexample as {
      a: { value: object };
      b: { value: object };
    };
    expect(counterexample.a.value).toBeTypeOf("object");
    expect(counterexample.b.value).toBeTypeOf("object");
    // The property's own assertion: per-exchange checks (observed-filter-complete) may fail the same answer first.
    const asserted = failing.results.filter((entry) => entry.checkId.startsWith("assert:"));
    const message = asserted.find((result) => result.outcome.status === "failed")?.outcome;
    expect(message).toMatchObject({
      message: expect.stringMatching(/falsified after \d+ run\(s\) and \d+ shrink\(s\): \+(and|or) answered/),
    });
    // It points at the combined filter's request (the one that answered wrongly), with the ids missing and extra.
    const result = asserted.find((entry) => entry.outcome.status === "failed")!;
    const exchange = failing.exchanges.find((entry) => entry.id === result.exchangeId);
    expect(exchange?.request.headers["x-filter"]).toMatch(/^\{"\+(and|or)":/);
    expect(result.outcome).toMatchObject({
      actual: { missing: expect.any(Array), extra: expect.any(Array) },
    });
  });

  it("the replay command reproduces the same shrunk counterexample (same seed, same runs)", async () => {
    const first = await runSuites({ suites: ["filters"], faults: ["filter-neq-ignored"], seed: 3 });
    const replay = cases(first.events).find((event) => event.caseId === "semantics")?.reproduction;
    const runs = Number(/--runs (\d+)/.exec(replay?.replay ?? "")?.[1]);
    const again = await runSuites({
      suites: ["filters"],
      faults: ["filter-neq-ignored"],
      seed: replay!.seed,
      suiteOptions: { runs },
    });
    const replayed = cases(again.events).find((event) => event.caseId === "semantics")?.reproduction;
    expect(replayed?.counterexample).toEqual(replay?.counterexample);
    expect(replayed?.path).toBe(replay?.path);
  });

  it("runs as many cases as `runs` asks", async () => {
    const few = await runSuites({ suites: ["filters"], suiteOptions: { runs: 1 } });
    const more = await runSuites({ suites: ["filters"], suiteOptions: { runs: 6 } });
    expect(describeProblems(few) + describeProblems(more)).toBe("");
    expect(more.finished.exchanges).toBeGreaterThan(few.finished.exchanges);
  });
});
