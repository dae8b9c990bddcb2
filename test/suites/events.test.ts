/**
 * The events suite through the real runner against the embedded reference: green on the clean server (every case
 * passes, nothing left behind), and red with each event fault, failing the case and assertion it breaks.
 */
import { describe, expect, it } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import { eventFaults } from "../../src/reference/faults/event-faults.ts";
import { describeProblems, runSuites, type SuiteRun } from "../helpers/run-suites.ts";

/** A failing wait gives up after 2 s instead of the embedded default (5 s). */
const quick = { workflows: { deadlineMs: 2_000 } };

function statuses(run: SuiteRun): Record<string, string> {
  return Object.fromEntries(
    run.events
      .filter((event): event is CaseFinished => event.type === "case-finished")
      .map((event) => [event.caseId, event.status]),
  );
}

/** Which case each fault must fail. */
const steps: Record<string, string> = {
  "write-without-event": "writes-recorded",
  "boot-event-never-finishes": "boot-event",
  "event-entity-filter-ignored": "entity-filter",
};

describe("events suite on the clean reference", () => {
  it("passes every case and leaves nothing behind", async () => {
    const run = await runSuites({ suites: ["events"], suiteOptions: quick });
    expect(describeProblems(run)).toBe("");
    expect(statuses(run)).toEqual({
      "writes-recorded": "passed",
      "newest-first": "passed",
      "entity-filter": "passed",
      "boot-event": "passed",
      "events-scope": "passed",
    });
    expect(run.finished.exitCode).toBe(0);
    expect(run.finished.cleanup.failed).toEqual([]);
    // Load balancer, profile, node, instance, two tokens, OAuth client.
    expect(run.finished.cleanup.deleted).toBeGreaterThanOrEqual(7);
  });
});

describe("events suite against a faulty reference", () => {
  it("names a case for every event fault", () => {
    expect(Object.keys(steps).sort()).toEqual(eventFaults.map((fault) => fault.id).sort());
  });

  it.each(eventFaults.map((fault) => [fault.id, fault] as const))(
    "%s fails the case it breaks",
    async (id, fault) => {
      const run = await runSuites({
        suites: [...fault.detectedBy.suites],
        faults: [id],
        suiteOptions: quick,
      });
      expect(run.finished.exitCode).toBe(1);
      for (const check of fault.detectedBy.checks ?? []) expect(run.failedChecks).toContain(check);
      const failing = run.problems.find(
        (event) =>
          event.caseId === steps[id] &&
          event.results.some(
            (result) =>
              fault.detectedBy.checks?.includes(result.checkId) === true &&
              result.outcome.status === "failed",
          ),
      );
      expect(failing, describeProblems(run)).toBeDefined();
      expect(run.finished.cleanup.failed).toEqual([]);
    },
  );
});
