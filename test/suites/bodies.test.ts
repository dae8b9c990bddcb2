/**
 * The body suites (`invalid-bodies`, `valid-bodies`) through the real runner against the embedded reference
 * server: green when it is clean.
 */
import { describe, expect, it } from "vitest";
import { describeProblems, runSuites } from "../helpers/run-suites.ts";

const suites = ["invalid-bodies", "valid-bodies"];

describe("body suites", () => {
  it("pass against the clean reference, every case run", async () => {
    const run = await runSuites({ suites });
    expect(run.problems, describeProblems(run)).toEqual([]);
    const cases = run.events.filter((event) => event.type === "case-finished");
    expect(
      cases
        .map((event) => `${event.suiteId}/${event.caseId}:${event.status}`)
        .filter((entry) => !entry.endsWith(":passed")),
    ).toEqual([]);
    expect(run.finished.cleanup.failed).toEqual([]);
  });
});
