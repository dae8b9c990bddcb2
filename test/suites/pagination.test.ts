/**
 * The pagination suite through the real runner: green on the clean reference, red with each pagination fault,
 * naming the property or assertion that caught it, with a reproduction for generated edges.
 */
import { describe, expect, it } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import { type Generated, mutationsOf } from "../../src/generators/case-meta.ts";
import { paginationFaults } from "../../src/reference/faults/list-faults.ts";
import { describeProblems, expectFaultCaught, runSuites } from "../helpers/run-suites.ts";

const caught: Record<string, RegExp> = {
  "pages-off-by-one": /^assert:property: getComputeTypes answers page and page_size edges as described$/,
  "pages-at-default-size": /^assert:property: getComputeTypes answers page and page_size edges as described$/,
  "page-repeats-item": /^assert:property: getComputeTypes gives every item once at any page size$/,
  "page-size-ignored": /^assert:property: getComputeTypes answers page and page_size edges as described$/,
  "default-page-size-wrong": /^assert:getComputeTypes: the default page size is 100$/,
  "huge-page-500": /^not-a-server-error$/,
  "page-size-out-of-range-accepted":
    /^assert:property: getRegions answers page and page_size edges as described$/,
};

const cases = (events: readonly { type: string }[]) =>
  events.filter((event): event is CaseFinished => event.type === "case-finished");

describe("pagination suite", () => {
  it("is green on the clean reference within a few hundred requests, its nested lists never thin", async () => {
    const run = await runSuites({ suites: ["pagination"] });
    expect(describeProblems(run)).toBe("");
    expect(cases(run.events).map((event) => [event.caseId, event.status])).toEqual([
      ["seed-data", "passed"],
      ["edges", "passed"],
      ["walks", "passed"],
      ["default-page-size", "passed"],
    ]);
    expect(run.finished.exchanges).toBeLessThan(500);
    const warnings = run.events.flatMap((event) => (event.type === "warning" ? [event.message] : []));
    expect(warnings.join("\n")).not.toMatch(/\/nodebalancers\/\d+\/configs\S* holds/);
  });

  it("every pagination fault has a row here", () => {
    expect(paginationFaults.map((fault) => fault.id).sort()).toEqual(Object.keys(caught).sort());
  });

  it.each(paginationFaults.map((fault) => [fault.id, fault] as const))(
    "is red with %s",
    async (id, fault) => {
      await expectFaultCaught("pagination", fault, caught[id]!);
    },
  );

  it("an out-of-range page_size accepted is reported with the edge that shows it, shrunk, and its provenance", async () => {
    const run = await runSuites({ suites: ["pagination"], faults: ["page-size-out-of-range-accepted"] });
    const edges = cases(run.events).find((event) => event.caseId === "edges")!;
    expect(edges.reproduction?.replay).toMatch(
      /^conform fuzz pagination --seed 1 --runs \d+ --property 'pagination\/edges\/[^']+' --path \d+(:\d+)*$/,
    );
    const counterexample = edges.reproduction?.counterexample as Generated<{ page_size?: string }>;
    expect(counterexample.meta.mode).toBe("negative");
    expect(mutationsOf(counterexample.meta).map((mutation) => mutation.field)).toContain("page_size");
    // The run's own checks (observed-pages) judge the same answer too: the property's assertion is the one here.
    const failure = edges.results.find(
      (result) => result.outcome.status === "failed" && result.checkId.startsWith("assert:"),
    )?.outcome;
    expect(failure).toMatchObject({
      message: expect.stringMatching(/answered 200; it must be refused with 400 naming page_size/),
    });
  });
});

describe("pagination suite: the failing exchange", () => {
  it("a walk that repeats an item points at the walk's page that broke, not at a snapshot read after it", async () => {
    const run = await runSuites({ suites: ["pagination"], faults: ["page-repeats-item"] });
    const walks = cases(run.events).find((event) => event.caseId === "walks")!;
    const failure = walks.results.find(
      (result) => result.outcome.status === "failed" && result.checkId.startsWith("assert:property:"),
    )!;
    const exchange = walks.exchanges.find((one) => one.id === failure.exchangeId)!;
    const url = new URL(exchange.request.url);
    const page = url.searchParams.get("page");
    // The walk's page size is the counterexample; a snapshot reads at the largest (500).
    expect(url.searchParams.get("page_size")).toBe(String(failure.reproduction?.counterexample));
    expect(url.searchParams.get("page_size")).not.toBe("500");
    expect(Number(page)).toBeGreaterThan(1);
    expect(failure.outcome).toMatchObject({ message: expect.stringContaining(`page ${page} at page_size`) });
    expect(failure.reproduction?.replay).toMatch(
      /--property 'pagination\/walks\/\w+ gives every item once at any page size' --path [\d:]+$/,
    );
  });
});
