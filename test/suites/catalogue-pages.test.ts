/**
 * Issue 31: with a server whose `pages` is wrong, the catalogue suite judges each page's length from `results`
 * (the pagination oracle), so its failures never say nonsense such as "page 3 holds -16 items".
 */
import { describe, expect, it } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import { runSuites } from "../helpers/run-suites.ts";

describe("catalogue suite against wrong page counts", () => {
  it("fails on pages, never with a negative item count", async () => {
    const run = await runSuites({ suites: ["catalogue"], faults: ["pages-off-by-one"] });
    expect(run.finished.exitCode).toBe(1);
    const failures = run.events
      .filter((event): event is CaseFinished => event.type === "case-finished")
      .flatMap((event) => event.results)
      .flatMap((result) => (result.outcome.status === "failed" ? [result] : []));
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect(failure.checkId).not.toMatch(/-\d+ items/);
      if (failure.outcome.status === "failed") {
        expect(failure.outcome.message).not.toMatch(/-\d+ items/);
        if (typeof failure.outcome.expected === "number")
          expect(failure.outcome.expected).toBeGreaterThanOrEqual(0);
      }
    }
  });
});
