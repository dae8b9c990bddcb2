/**
 * The checks' end-of-run hooks in `conform run`: after every suite has run, the enabled checks' hooks
 * (`CheckDefinition.end`) are called, and what they find goes to one more suite of one case, so a finding about an
 * exchange of a finished case still counts, groups and reports like any check's result. That suite is not planned:
 * it is emitted only when a hook found something, so a run whose hooks find nothing (most of them: a run's suites
 * wait for what they start) looks as one without hooks; an interrupted run calls no hook.
 * @module
 */
import type { CheckDefinition } from "../checks/types.ts";
import type { CaseStatus } from "../core/events.ts";
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

/**
 * Runs the end-of-run hooks; their findings as the case of one more suite, opened at the first finding that is not a
 * pass. Its status, or undefined when no hook found anything but passes (or the run was interrupted, or no check has a
 * hook).
 */
export function judgeRunEnd(deps: RunEndDeps): CaseStatus | undefined {
  if (deps.signal.aborted || !deps.checks.some((definition) => definition.end)) return undefined;
  const { bus } = deps;
  const { id: suiteId, caseId, title } = runEndSuite;
  const started = performance.now();
  const tally = new CaseTally(deps.secrets, { groups: deps.groups, suiteId, caseId }, deps.keptBodies);
  let opened = false;
  // Opened at the first finding that is not a pass: a run whose end hooks only pass looks as one without them.
  const open = () => {
    if (opened) return;
    opened = true;
    bus.emit({ type: "suite-started", suiteId, title, tags: ["read-only"] });
    bus.emit({ type: "case-started", suiteId, caseId, title });
  };
  deps.judge.end(() => ({
    tally,
    record: (result, exchange) => {
      open();
      const recorded = tally.add(result, exchange);
      if (recorded.outcome.status !== "passed")
        bus.emit({ type: "check", suiteId, caseId, result: recorded });
    },
  }));
  if (!opened) return undefined;
  const end = checksOnlyCaseEnd({
    suiteId,
    caseId,
    title,
    tally,
    durationMs: performance.now() - started,
    exchangeCount: 0,
    skipReason: "every end-of-run finding was skipped: their reasons say why",
  });
  bus.emit(end.case);
  bus.emit(end.suite);
  return end.case.status;
}
