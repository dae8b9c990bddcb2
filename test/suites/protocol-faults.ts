/**
 * Shared by the protocol suite tests: runs suites against the clean reference and against each protocol fault a
 * suite claims, and states what "caught" means: the run fails and every check or assertion the fault names failed.
 */
import { expect } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import { faultRegistry } from "../../src/reference/faults/index.ts";
import { protocolFaults } from "../../src/reference/faults/protocol-faults.ts";
import { describeProblems, runSuites, type SuiteRun } from "../helpers/run-suites.ts";

/** Ids of the protocol faults that name `suite` among the suites that must catch them. */
export function faultsClaimedBy(suite: string): string[] {
  return protocolFaults.filter((fault) => fault.detectedBy.suites.includes(suite)).map((fault) => fault.id);
}

export function cases(run: SuiteRun): CaseFinished[] {
  return run.events.filter((event): event is CaseFinished => event.type === "case-finished");
}

/** The run passed with no failed or errored case; skips only those listed (case id -> reason pattern). */
export function expectGreen(run: SuiteRun, allowedSkips: Readonly<Record<string, RegExp>> = {}): void {
  expect(run.problems, describeProblems(run)).toEqual([]);
  expect(run.finished.status).toBe("passed");
  const skipped = cases(run).filter((event) => event.status === "skipped");
  for (const event of skipped) {
    expect(`${event.caseId}: ${event.skipReason}`).toMatch(allowedSkips[event.caseId] ?? /^$/);
  }
  expect(run.finished.cleanup.failed).toEqual([]);
}

/**
 * Runs `suites` with `faultId` enabled and expects it caught: the run fails, a case of those suites fails, and every
 * check or assertion the fault names fired (or `checks`, for a fault of another area that these suites also catch).
 */
export async function expectCaught(suites: readonly string[], faultId: string, checks?: readonly string[]) {
  const fault = faultRegistry.get(faultId);
  expect(fault, `fault ${faultId} is registered`).toBeDefined();
  const run = await runSuites({ suites, faults: [faultId] });
  expect(run.finished.status, `${faultId} went unnoticed by ${suites.join(", ")}`).toBe("failed");
  const failing = cases(run).filter((event) => event.status === "failed" && suites.includes(event.suiteId));
  expect(failing.length, `no case of ${suites.join(", ")} failed`).toBeGreaterThan(0);
  for (const check of checks ?? fault!.detectedBy.checks ?? []) {
    expect([...run.failedChecks], `${faultId}: ${check} did not fire`).toContain(check);
  }
  return run;
}
