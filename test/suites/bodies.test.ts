/**
 * The body suites (`invalid-bodies`, `valid-bodies`) through the real runner against the embedded reference
 * server: green when it is clean, red with each body fault, failing the suite and the assertions or checks the
 * fault names in its `detectedBy`.
 */
import { describe, expect, it } from "vitest";
import { faultRegistry } from "../../src/reference/faults/index.ts";
import { describeProblems, runSuites } from "../helpers/run-suites.ts";

const suites = ["invalid-bodies", "valid-bodies"];

describe("body suites", () => {
  it("pass against the clean reference, every case run, everything they made deleted", async () => {
    const run = await runSuites({ suites });
    expect(run.problems, describeProblems(run)).toEqual([]);
    const cases = run.events.flatMap((event) => (event.type === "case-finished" ? [event] : []));
    expect(cases.filter((event) => event.status !== "passed").map((event) => event.caseId)).toEqual([]);
    expect(cases.length).toBe(11);
    expect(run.finished.cleanup.failed).toEqual([]);
    expect(run.finished.cleanup.deleted).toBeGreaterThan(10);
  });

  it.each([
    "error-field-missing",
    "first-error-only",
    "invalid-body-accepted",
    "malformed-json-500",
    "id-as-string",
    "nodes-status-missing",
  ])("%s is caught by the suites and checks it names", async (id) => {
    const fault = faultRegistry.get(id);
    expect(fault, `${id} is registered`).toBeDefined();
    const run = await runSuites({ suites, faults: [id] });
    const failingSuites = new Set(run.problems.map((event) => event.suiteId));
    for (const suite of fault!.detectedBy.suites)
      expect(failingSuites, `${id} fails ${suite}`).toContain(suite);
    for (const check of fault!.detectedBy.checks ?? []) {
      expect([...run.failedChecks], `${id} fires ${check}`).toContain(check);
    }
  });
});
