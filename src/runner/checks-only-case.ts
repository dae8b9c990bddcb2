/**
 * The end of a suite of one read-only case that only the checks judge (a traffic source of `proxy` or `verify`, the
 * run's end-of-run hooks): failed when a check failed, passed when one passed, else skipped with `skipReason`.
 * @module
 */
import type { CaseFinished, CaseStatus, SuiteFinished } from "../core/events.ts";
import type { CaseTally } from "./case-tally.ts";

export interface ChecksOnlyCase {
  readonly suiteId: string;
  readonly caseId: string;
  readonly title: string;
  readonly tally: CaseTally;
  readonly durationMs: number;
  readonly exchangeCount: number;
  /** Why it is skipped when no check judged anything. */
  readonly skipReason: string;
  readonly logs?: readonly string[];
}

/** The case's and its suite's end events. */
export function checksOnlyCaseEnd(input: ChecksOnlyCase): { case: CaseFinished; suite: SuiteFinished } {
  const { suiteId, tally, durationMs } = input;
  const status: CaseStatus = tally.failed ? "failed" : tally.passed > 0 ? "passed" : "skipped";
  return {
    case: {
      type: "case-finished",
      suiteId,
      caseId: input.caseId,
      title: input.title,
      tags: ["read-only"],
      status,
      durationMs,
      results: tally.notable,
      passedChecks: tally.passed,
      exchanges: tally.exchanges,
      exchangeCount: input.exchangeCount,
      ...(status === "skipped" ? { skipReason: input.skipReason } : {}),
      ...(input.logs ? { logs: [...input.logs] } : {}),
    },
    suite: {
      type: "suite-finished",
      suiteId,
      status,
      counts: { passed: 0, failed: 0, skipped: 0, errored: 0, interrupted: 0, [status]: 1 },
      durationMs,
    },
  };
}
