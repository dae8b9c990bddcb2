/**
 * Running one case: its context (clients, assertions, skip, labels, cleanup ledger, secrets, hooks), every
 * exchange judged as it happens, and what the case left: status, the results worth reporting, the exchanges
 * they point at, the reproduction and logs. A case that throws is errored (transport failures with their code);
 * `t.skip()` ends it skipped with its reason. A case running when the run is interrupted ends `interrupted`, never
 * failed, errored or skipped: what it judged before the signal is kept; after it, its own assertions are not
 * recorded (they would judge the interruption: an abandoned request, a wait cut short), its error and skip are
 * dropped and it gives no reproduction, while the checks still judge any answer that came.
 * @module
 */
import { ToolkitError } from "../core/errors.ts";
import type { CaseFinished, CaseStatus } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import type { CheckResult } from "../core/result.ts";
import { type CaseContextDeps, type CaseRecorder, CaseSkipped, createCaseContext } from "./case-context.ts";
import { CaseTally, type KeptBodies } from "./case-tally.ts";
import type { EventBus } from "./event-bus.ts";
import type { ExchangeJudge } from "./exchange-judge.ts";
import { errorGroupPrefix, type FailureGroups } from "./failure-groups.ts";
import { TransportError } from "./http-client.ts";
import type { StrayErrors } from "./stray-errors.ts";
import type { Suite, SuiteCase } from "./suite-api.ts";

/** What every case of a run shares: what its context is made of (less the suite's and the case's own), and the judge. */
export interface CaseRunDeps extends Omit<CaseContextDeps, "shared" | "suiteId" | "caseId"> {
  readonly judge: ExchangeJudge;
  readonly bus: EventBus;
  /** The run's failure groups: each failed result and each errored case is assigned one. */
  readonly groups: FailureGroups;
  /** What the reports keep of failing exchanges' bodies (per exchange and per run). */
  readonly keptBodies?: KeptBodies;
  /** Errors no suite awaited, caught while the suites run: a case running when one came ends errored. */
  readonly strays?: StrayErrors;
}

/** A case's outcome, less what the scheduler adds (suite, case and tags). */
export type CaseOutcome = Omit<CaseFinished, "type" | "suiteId" | "caseId" | "title" | "tags">;

/** What the judge is told of a case's exchange: whether it went with the run's own credential. */
const ownSource = {};
const foreignSource = { foreignCredential: true };

/** The skip reason of a case that ended without asserting anything. */
export const nothingJudged = "the case asserted nothing: no verdict (its log says what it could not judge)";

export async function runCase(
  deps: CaseRunDeps,
  suite: Suite,
  entry: SuiteCase,
  shared: Map<string, unknown>,
): Promise<CaseOutcome> {
  const started = performance.now();
  const ids = { suiteId: suite.id, caseId: entry.id };
  deps.bus.emit({ type: "case-started", ...ids, title: entry.title });
  const tally = new CaseTally(deps.secrets, { groups: deps.groups, ...ids }, deps.keptBodies);
  const { recorder, counts } = judgingRecorder(deps, ids, tally);
  const t = createCaseContext({ ...deps, shared, ...ids }, recorder);
  const ended = await runGuarded(deps, entry, t);
  const error = ended.error;
  let skipReason = ended.skipReason;
  if (deps.signal.aborted) return interruptedCase(started, counts.exchanges, tally, recorder.logs, error);
  // No case passes without judging: one that asserted nothing (a list too large to read, say) is skipped, saying so.
  if (!error && !skipReason && !tally.failed && counts.assertions === 0) skipReason = nothingJudged;
  const status: CaseStatus = error ? "errored" : tally.failed ? "failed" : skipReason ? "skipped" : "passed";
  const errorGroup = error ? errorGroupOf(deps.groups, error, ids, recorder.lastExchange) : undefined;
  return {
    status,
    durationMs: performance.now() - started,
    results: tally.notable,
    passedChecks: tally.passed,
    exchanges: tally.exchanges,
    exchangeCount: counts.exchanges,
    ...(skipReason ? { skipReason } : {}),
    ...(error ? { error } : {}),
    ...(errorGroup ? { errorGroup } : {}),
    ...(recorder.reproduction ? { reproduction: recorder.reproduction } : {}),
    ...(recorder.logs.length > 0 ? { logs: recorder.logs } : {}),
  };
}

interface CaseIds {
  readonly suiteId: string;
  readonly caseId: string;
}

/** The case's recorder: each exchange announced and judged as it comes, each assertion tallied, both counted. */
function judgingRecorder(deps: CaseRunDeps, ids: CaseIds, tally: CaseTally) {
  const counts = { exchanges: 0, assertions: 0 };
  // Passes are counted, not announced: an event for each would be most of the stream (every check on every
  // exchange) and no listener needs them one by one (case-finished carries the count).
  const record = (result: CheckResult, exchange: Exchange | undefined) => {
    // An exchange the interruption abandoned has no answer to judge: its "no response" skip says nothing.
    if (deps.signal.aborted && exchange?.response === undefined && exchange?.error) return;
    const recorded = tally.add(result, exchange);
    if (recorded.outcome.status !== "passed") deps.bus.emit({ type: "check", ...ids, result: recorded });
  };
  const recorder: CaseRecorder = {
    reproduction: undefined,
    logs: [],
    lastExchange: undefined,
    onExchange(exchange, foreignCredential) {
      counts.exchanges += 1;
      recorder.lastExchange = exchange;
      deps.bus.emit({ type: "exchange", ...ids, exchange });
      deps.judge.judge(exchange, tally, record, foreignCredential ? foreignSource : ownSource);
    },
    refusalExpected: (exchange) => deps.judge.refusalExpected(exchange),
    assert(result, exchange) {
      if (deps.signal.aborted) return;
      counts.assertions += 1;
      record(result, exchange);
    },
  };
  return { recorder, counts };
}

/** Runs the case's body: how it ended (skipped with its reason, errored with a code), a stray error counting as its own. */
async function runGuarded(
  deps: CaseRunDeps,
  entry: SuiteCase,
  t: Parameters<SuiteCase["run"]>[0],
): Promise<{ skipReason?: string | undefined; error?: CaseFinished["error"] }> {
  const { secrets, strays } = deps;
  let skipReason: string | undefined;
  let error: CaseFinished["error"];
  const straysBefore = strays?.count ?? 0;
  if (strays) strays.running += 1;
  try {
    await entry.run(t);
  } catch (thrown) {
    if (thrown instanceof CaseSkipped) skipReason = secrets.scrub(thrown.reason);
    else error = caseError(thrown, secrets);
  } finally {
    if (strays) strays.running -= 1;
  }
  const stray = strays?.since(straysBefore);
  if (!stray || error) return { skipReason, error };
  return {
    error: {
      code: "SUITE_UNHANDLED_ERROR",
      message: secrets.scrub(`an error nothing awaited came while this case ran: ${stray.message}`),
    },
  };
}

/** What a case that threw ends with: a transport failure or a toolkit error with its code, anything else as SUITE_ERROR. */
function caseError(thrown: unknown, secrets: CaseRunDeps["secrets"]): NonNullable<CaseFinished["error"]> {
  if (thrown instanceof TransportError) return { code: thrown.code, message: thrown.message };
  // A toolkit error carries its stable code (SUITE_REQUEST_INVALID: the suite's request broke the description).
  if (ToolkitError.is(thrown)) return { code: thrown.code, message: secrets.scrub(thrown.message) };
  return { code: "SUITE_ERROR", message: secrets.scrub(String((thrown as Error)?.stack ?? thrown)) };
}

/** An errored case is grouped too (by its code and the message's shape): one defect erroring many cases is one group. */
function errorGroupOf(
  groups: FailureGroups,
  error: NonNullable<CaseFinished["error"]>,
  ids: CaseIds,
  lastExchange: Exchange | undefined,
): string {
  const where = { ...ids, operationId: lastExchange?.operationId };
  return groups.assign(`${errorGroupPrefix}${error.code}`, error.message, where, false).groupId;
}

/** A case the run was interrupted in: what it judged before the signal, and its logs (what it was doing). */
function interruptedCase(
  started: number,
  exchangeCount: number,
  tally: CaseTally,
  logs: readonly string[],
  error: CaseFinished["error"],
): CaseOutcome {
  // The error a case ends with after the signal is the interruption's doing (an abandoned request): logged, not kept.
  const allLogs = error ? [...logs, `ended by the interruption with ${error.code}: ${error.message}`] : logs;
  return {
    status: "interrupted",
    durationMs: performance.now() - started,
    results: tally.notable,
    passedChecks: tally.passed,
    exchanges: tally.exchanges,
    exchangeCount,
    ...(allLogs.length > 0 ? { logs: allLogs } : {}),
  };
}

/** A case not run, with the reason (excluded, interrupted, refused, stopped early). */
export function skippedCase(reason: string): CaseOutcome {
  return {
    status: "skipped",
    durationMs: 0,
    results: [],
    passedChecks: 0,
    exchanges: [],
    exchangeCount: 0,
    skipReason: reason,
  };
}
