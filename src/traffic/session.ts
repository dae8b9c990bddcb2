/**
 * A judging session over traffic conform did not make: each source (a recorded file, a proxy's listeners) is a
 * suite of one case, `exchanges`; every exchange fed to it, in order, is judged by the enabled checks
 * (`exchange-judge.ts`, the stateful `observed-*` ones too), and the session emits the same event
 * stream as a run, so every reporter writes it and the exit codes are `run`'s. An exchange that matched no
 * operation of the description is counted and listed (in the case's log and a warning), not failed.
 * @module
 */
import type { CheckDefinition, RecordingGaps } from "../checks/types.ts";
import { RunInterrupted, RunTimedOut } from "../core/errors.ts";
import type { CaseFinished, Counts, RunFinished, RunSnapshot, SuiteFinished } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { SecretValues } from "../core/redact.ts";
import type { CheckResult } from "../core/result.ts";
import { CaseTally, KeptBodies } from "../runner/case-tally.ts";
import { checksOnlyCaseEnd } from "../runner/checks-only-case.ts";
import type { EventBus } from "../runner/event-bus.ts";
import { ExchangeJudge, type RecordResult } from "../runner/exchange-judge.ts";
import { FailureGroups } from "../runner/failure-groups.ts";
import type { ApiSpec } from "../spec/types.ts";
import { notShownOf, TrafficEvidence } from "./not-shown.ts";
import { observedIntentOf } from "./observed-intent.ts";

/** The one case of a source's suite. */
export const trafficCaseId = "exchanges";
/** Distinct unmatched requests listed per source (the rest are counted). */
const unmatchedListed = 20;

export interface TrafficSessionInput {
  readonly runId: string;
  readonly spec: ApiSpec;
  readonly checks: readonly CheckDefinition[];
  readonly bus: EventBus;
  /** What the traffic went to (a proxy's target, or the recordings' files). */
  readonly target: string;
  readonly toolVersion: string;
  readonly keptBodyBytes: number;
  readonly keptReportBytes: number;
  /**
   * The secrets the recorder learnt (shared, still growing): what a case keeps is scrubbed again when it ends
   * (`CaseTally`), so a value seen in free text before it was learnt under a secret key is in no report.
   */
  readonly secrets?: SecretValues;
}

interface Source {
  readonly id: string;
  readonly title: string;
  readonly tally: CaseTally;
  readonly started: number;
  exchanges: number;
  unmatched: number;
  /** Distinct unmatched requests (`METHOD /path`), the first {@link unmatchedListed}, each with how often it came. */
  readonly unmatchedSeen: Map<string, number>;
  /** Why its case is skipped when it judged nothing. */
  readonly skipReason: string;
  /** Lines its feeder logged (`note`), for the case's log. */
  readonly notes: string[];
  finished: boolean;
}

/** A source of traffic: its suite's id and title, and why its case is skipped when it judged nothing. */
export interface TrafficSource {
  readonly id: string;
  readonly title: string;
  readonly skipReason?: string;
}

export class TrafficSession {
  readonly #input: TrafficSessionInput;
  readonly #judge: ExchangeJudge;
  readonly #evidence: TrafficEvidence;
  readonly #groups: FailureGroups;
  readonly #kept: KeptBodies;
  readonly #secrets: SecretValues;
  readonly #sources = new Map<string, Source>();
  readonly #started = performance.now();
  readonly #counts = { passed: 0, failed: 0, skipped: 0, errored: 0, interrupted: 0 };
  /** Requests the target never answered, by the transport's code (ECONNREFUSED): why nothing may have been judged. */
  readonly #unanswered = new Map<string, number>();
  #snapshots = 0;

  constructor(input: TrafficSessionInput, sources: readonly TrafficSource[]) {
    this.#input = input;
    this.#secrets = input.secrets ?? new SecretValues();
    const { spec, bus } = input;
    this.#judge = new ExchangeJudge(spec, input.checks);
    this.#evidence = new TrafficEvidence(spec);
    this.#groups = new FailureGroups(
      (event) => bus.emit(event),
      spec.operations.all().map((operation) => operation.operationId),
    );
    this.#kept = new KeptBodies(input.keptBodyBytes, input.keptReportBytes);
    bus.emit({
      type: "run-started",
      runId: input.runId,
      startedAt: new Date().toISOString(),
      target: { baseUrl: input.target, authUrl: undefined, embedded: false },
      spec: { source: spec.source, version: spec.version, operations: spec.operations.all().length },
      seed: 0,
      labelPrefix: "",
      suites: sources.map((source) => ({
        id: source.id,
        title: source.title,
        tags: ["read-only"],
        cases: 1,
      })),
      toolVersion: input.toolVersion,
      nodeVersion: process.version,
    });
    for (const source of sources) this.#open(source);
  }

  #open({ id, title, skipReason }: TrafficSource): void {
    const { bus } = this.#input;
    const tally = new CaseTally(
      this.#secrets,
      { groups: this.#groups, suiteId: id, caseId: trafficCaseId },
      this.#kept,
    );
    this.#sources.set(id, {
      id,
      title,
      tally,
      started: performance.now(),
      exchanges: 0,
      unmatched: 0,
      unmatchedSeen: new Map(),
      skipReason: skipReason ?? "no exchange of an operation of the description to judge",
      notes: [],
      finished: false,
    });
    bus.emit({ type: "suite-started", suiteId: id, title, tags: ["read-only"] });
    bus.emit({ type: "case-started", suiteId: id, caseId: trafficCaseId, title });
  }

  /**
   * Judges one exchange of `sourceId` (in the order observed); `caller` tells tokens apart, when known;
   * `recording` says what a recorded file may lack.
   */
  add(sourceId: string, observed: Exchange, caller?: string, recording?: RecordingGaps): void {
    const source = this.#sources.get(sourceId);
    if (!source || source.finished) return;
    const exchange = this.#withIntent(observed, recording !== undefined);
    const { bus } = this.#input;
    source.exchanges += 1;
    bus.emit({ type: "exchange", suiteId: sourceId, caseId: trafficCaseId, exchange });
    // A request with the generic layer's intent is judged as the run judged it, even where its broken path value
    // matches no template (`/volumes/not-of-this-type`).
    if (exchange.response && !exchange.operationId && !exchange.request.intent) {
      source.unmatched += 1;
      const url = new URL(exchange.request.url);
      const key = `${exchange.request.method.toUpperCase()} ${url.pathname}`;
      const seen = source.unmatchedSeen.get(key);
      if (seen !== undefined) source.unmatchedSeen.set(key, seen + 1);
      else if (source.unmatchedSeen.size < unmatchedListed) source.unmatchedSeen.set(key, 1);
      return;
    }
    // A recording that shows Authorization on none of its requests may have dropped it: a request without one there
    // says nothing of what was sent.
    this.#evidence.observe(exchange, recording !== undefined && !recording.authorizationKept);
    if (!exchange.response) {
      const code = exchange.error?.code ?? "TRANSPORT";
      this.#unanswered.set(code, (this.#unanswered.get(code) ?? 0) + 1);
    }
    this.#judge.judge(exchange, source.tally, this.#recordIn(source), {
      ...(recording ? { recording } : {}),
      ...(caller !== undefined ? { caller } : {}),
    });
  }

  /**
   * A request without the generic layer's intent gets the one its operation's description gives it (valid, or the
   * rules it breaks), so the valid/invalid checks and the coverage table judge a client's requests too.
   */
  #withIntent(exchange: Exchange, recorded: boolean): Exchange {
    const { request, operationId } = exchange;
    // A suite's own request that says what it breaks keeps its word.
    if (request.intent || request.breaks !== undefined || operationId === undefined) return exchange;
    const intent = observedIntentOf(this.#input.spec, operationId, request, recorded);
    return intent ? { ...exchange, request: { ...request, intent } } : exchange;
  }

  /** Adds a line to a source's case log (what its feeder did beyond the exchanges, e.g. requests it did not send). */
  note(sourceId: string, line: string): void {
    this.#sources.get(sourceId)?.notes.push(line);
  }

  /** Records a result in a source's case (a failure or skip also as a `check` event). */
  #recordIn(source: Source): RecordResult {
    return (result: CheckResult, judged: Exchange | undefined) => {
      const recorded = source.tally.add(result, judged);
      if (recorded.outcome.status !== "passed")
        this.#input.bus.emit({ type: "check", suiteId: source.id, caseId: trafficCaseId, result: recorded });
    };
  }

  /** Ends a source's case and suite; the last one open gets the checks' end-of-run findings first. */
  finishSource(sourceId: string): void {
    const source = this.#sources.get(sourceId);
    if (!source || source.finished) return;
    const lastOpen = [...this.#sources.values()].every((other) => other === source || other.finished);
    if (lastOpen) this.#judge.end(() => ({ tally: source.tally, record: this.#recordIn(source) }));
    source.finished = true;
    const { bus } = this.#input;
    const end = this.#endOf(source);
    if (source.unmatched > 0) {
      bus.emit({
        type: "warning",
        message: `${source.id}: ${unmatchedText(source, true)}: ${unmatchedList(source)}`,
      });
    }
    this.#counts[end.case.status] += 1;
    bus.emit(end.case);
    bus.emit(end.suite);
  }

  /** A source's case and suite as they end now; changes nothing (a snapshot asks it too). */
  #endOf(source: Source): { readonly case: CaseFinished; readonly suite: SuiteFinished } {
    const { tally } = source;
    const logs: string[] = [exchangesText(source.exchanges)];
    if (source.unmatched > 0) logs.push(`${unmatchedText(source)}: ${unmatchedList(source)}`);
    logs.push(...source.notes);
    return checksOnlyCaseEnd({
      suiteId: source.id,
      caseId: trafficCaseId,
      title: source.title,
      tally,
      durationMs: performance.now() - source.started,
      exchangeCount: source.exchanges,
      skipReason: source.skipReason,
      logs,
    });
  }

  /**
   * Emits what the session has judged so far as a `run-snapshot` (`--report-every`): the sources still open as they
   * would end now, and the run's end so far. Changes nothing: later exchanges and the real end build on the same
   * state.
   */
  snapshot(): RunSnapshot {
    const counts = { ...this.#counts };
    const cases: CaseFinished[] = [];
    const suites: SuiteFinished[] = [];
    for (const source of this.#sources.values()) {
      if (source.finished) continue;
      const end = this.#endOf(source);
      counts[end.case.status] += 1;
      cases.push(end.case);
      suites.push(end.suite);
    }
    this.#snapshots += 1;
    const snapshot: RunSnapshot = {
      type: "run-snapshot",
      sequence: this.#snapshots,
      takenAt: new Date().toISOString(),
      cases,
      suites,
      finished: this.#finished(counts, undefined),
    };
    this.#input.bus.emit(snapshot);
    return snapshot;
  }

  /** Ends every source and the run; `signal` aborted by a {@link RunInterrupted} gives its exit code. */
  finish(signal?: AbortSignal): RunFinished {
    for (const id of this.#sources.keys()) this.finishSource(id);
    const finished = this.#finished({ ...this.#counts }, signal);
    if (finished.counts.passed + finished.counts.failed + finished.counts.errored === 0)
      this.#input.bus.emit({ type: "warning", message: this.#nothingJudged() });
    this.#input.bus.emit(finished);
    return finished;
  }

  /**
   * Why nothing was judged, in one line: `nothing judged: no exchange of an operation of the description; the
   * target did not answer (ECONNREFUSED) 1×`, or that no traffic came at all.
   */
  #nothingJudged(): string {
    const exchanges = [...this.#sources.values()].reduce((sum, source) => sum + source.exchanges, 0);
    if (exchanges === 0) return "nothing judged: no traffic came";
    const unanswered = [...this.#unanswered].map(([code, count]) => `(${code}) ${count}×`);
    const why = unanswered.length === 0 ? "" : `; the target did not answer ${unanswered.join(", ")}`;
    return `nothing judged: no exchange of an operation of the description${why}`;
  }

  /** The run's end with these counts: the verdict on what was judged. */
  #finished(totals: Counts, signal: AbortSignal | undefined): RunFinished {
    let verdict: Pick<RunFinished, "status" | "exitCode">;
    if (totals.failed + totals.errored > 0) verdict = { status: "failed", exitCode: ExitCode.checkFailed };
    else if (totals.passed === 0) verdict = { status: "errored", exitCode: ExitCode.toolkitError };
    else verdict = { status: "passed", exitCode: ExitCode.ok };
    // A proxy ends on a signal: that is how it is stopped, its verdict is what it judged (a failure still fails).
    // Its time limit (`--max-time`) is a way to stop it too, but nothing judged by then is exit 2: nothing ran.
    const reason: unknown = signal?.reason;
    if (signal?.aborted && verdict.status === "errored" && !(reason instanceof RunTimedOut)) {
      verdict = {
        status: "interrupted",
        exitCode: reason instanceof RunInterrupted ? reason.exitCode : ExitCode.interrupted,
      };
    }
    const coverage = this.#judge.coverage();
    return {
      type: "run-finished",
      runId: this.#input.runId,
      finishedAt: new Date().toISOString(),
      durationMs: performance.now() - this.#started,
      ...verdict,
      counts: totals,
      exchanges: this.#judge.exchanges,
      coverage,
      retries: 0,
      rateLimited: 0,
      cleanup: { deleted: 0, failed: [] },
      groups: this.#groups.summary(),
      notShown: notShownOf(coverage, this.#evidence.rulesNotShown(), this.#judge.checksWithoutVerdict()),
    };
  }
}

/**
 * `4 exchanges matched no operation of the description (3 distinct)`: the distinct count when some repeat, and how
 * many more were not listed.
 */
function unmatchedText(source: Source, notJudged = false): string {
  const listed = [...source.unmatchedSeen.values()].reduce((sum, count) => sum + count, 0);
  const more = source.unmatched - listed;
  const distinct =
    more > 0
      ? ` (${source.unmatchedSeen.size} distinct listed, ${more} more not)`
      : source.unmatchedSeen.size < source.unmatched
        ? ` (${source.unmatchedSeen.size} distinct)`
        : "";
  const said = notJudged ? ` and ${source.unmatched === 1 ? "was" : "were"} not judged` : "";
  return `${exchangesText(source.unmatched)} matched no operation of the description${said}${distinct}`;
}

/** `POST /v4/a, DELETE /v4/b ×2`: each distinct request listed once, with how often it came. */
function unmatchedList(source: Source): string {
  return [...source.unmatchedSeen]
    .map(([request, count]) => (count > 1 ? `${request} ×${count}` : request))
    .join(", ");
}

/** "1 exchange", "3 exchanges". */
function exchangesText(count: number): string {
  return `${count} ${count === 1 ? "exchange" : "exchanges"}`;
}
