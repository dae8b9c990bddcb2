/**
 * The checks' end-of-run hooks in `conform run`: when an enabled check has one (`CheckDefinition.end`), the run
 * plans one more suite of one case, judged after every suite has run, where its findings are recorded, so a
 * finding about an exchange of a finished case still counts, groups and reports like any check's result. A run
 * whose checks have no end hook plans and emits nothing more.
 * @module
 */
import type { CheckDefinition } from "../checks/types.ts";
import type { CaseStatus, PlannedSuite } from "../core/events.ts";
import type { SecretValues } from "../core/redact.ts";
import { CaseTally, type KeptBodies } from "./case-tally.ts";
import { checksOnlyCaseEnd } from "./checks-only-case.ts";
import type { EventBus } from "./event-bus.ts";
import type { ExchangeJudge } from "./exchange-judge.ts";
import type { FailureGroups } from "./failure-groups.ts";

export const runEndSuite = {
  id: "checks-at-run-end",
  caseId: "end-of-traffic",
  title: "What the checks judge when the run's traffic has ended",
} as const;

/** The suite to plan for the end-of-run hooks, when an enabled check has one. */
export function runEndPlan(checks: readonly CheckDefinition[]): PlannedSuite | undefined {
  if (!checks.some((definition) => definition.end)) return undefined;
  return { id: runEndSuite.id, title: runEndSuite.title, tags: ["read-only"], cases: 1 };
}

export interface RunEndDeps {
  readonly judge: ExchangeJudge;
  readonly checks: readonly CheckDefinition[];
  readonly bus: EventBus;
  readonly groups: FailureGroups;
  readonly secrets: SecretValues;
  readonly keptBodies?: KeptBodies;
  /** The run was interrupted: what the traffic left open is the interruption's doing, not judged. */
  readonly signal: AbortSignal;
}

/** Runs the end-of-run hooks as the planned suite's case; its status, or undefined when none was planned. */
export function judgeRunEnd(deps: RunEndDeps): CaseStatus | undefined {
  if (!runEndPlan(deps.checks)) return undefined;
  const { bus } = deps;
  const { id: suiteId, caseId, title } = runEndSuite;
  const started = performance.now();
  bus.emit({ type: "suite-started", suiteId, title, tags: ["read-only"] });
  bus.emit({ type: "case-started", suiteId, caseId, title });
  const tally = new CaseTally(deps.secrets, { groups: deps.groups, suiteId, caseId }, deps.keptBodies);
  if (!deps.signal.aborted)
    deps.judge.end(() => ({
      tally,
      record: (result, exchange) => {
        const recorded = tally.add(result, exchange);
        if (recorded.outcome.status !== "passed")
          bus.emit({ type: "check", suiteId, caseId, result: recorded });
      },
    }));
  const end = checksOnlyCaseEnd({
    suiteId,
    caseId,
    title,
    tally,
    durationMs: performance.now() - started,
    exchangeCount: 0,
    skipReason: deps.signal.aborted
      ? "the run was interrupted: what its traffic left open is not judged"
      : "the end-of-run hooks found nothing to judge",
  });
  bus.emit(end.case);
  bus.emit(end.suite);
  return end.case.status;
}
