/**
 * Judging one exchange: a transport failure (no answer) once, with the reason, before any check; otherwise every
 * enabled check, a pass only counted (nearly every outcome is one, and nothing needs them one by one), anything
 * else recorded with the exchange it is about. Also what the run's coverage table needs (`coverage-tally.ts`).
 * One judge per run (or proxy/verify session) keeps each check's per-run state and calls its end-of-run hook.
 * @module
 */
import { type CheckContext, type CheckDefinition, isAnswered, type RecordingGaps } from "../checks/types.ts";
import type { OperationCoverage, OperationPlan } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import { isJson, parsedIfJson } from "../core/recorder.ts";
import { scanJson } from "../core/redact.ts";
import { type CheckResult, skipped } from "../core/result.ts";
import type { ApiSpec } from "../spec/types.ts";
import type { CaseTally } from "./case-tally.ts";
import { CoverageTally } from "./coverage-tally.ts";
import { type RefusalCounts, RefusalTally } from "./refusal-tally.ts";

/**
 * The exchange as the checks see it: a JSON body labelled otherwise (`text/plain`) with its JSON, so the checks of
 * what a body holds judge what it holds; the label is `content-type-json`'s failure alone, not one more "not JSON"
 * (or a silent pass: a secret shown) from every check that reads the body. Within the recorder's depth bound.
 */
function withBodyJson<T extends Exchange>(exchange: T & { response: NonNullable<Exchange["response"]> }) {
  const { response } = exchange;
  // A JSON label with no `json`: not JSON or too deep, the recorder said so; nothing to add.
  if (response.json !== undefined || response.truncated || isJson(response.headers["content-type"]))
    return exchange;
  const json = parsedIfJson(response.text);
  if (json === undefined || scanJson(json).tooDeep) return exchange;
  return { ...exchange, response: { ...response, json } };
}

/** The result id of a transport failure: the checks had nothing to judge. */
export const transportResultId = "transport";

export type RecordResult = (result: CheckResult, exchange: Exchange | undefined) => void;

/** What the feeder knows of an exchange beyond itself. */
export interface ExchangeSource {
  /** What the recording it comes from may lack (`conform verify`), if it is one. */
  readonly recording?: RecordingGaps;
  /** A digest of the request's credential, when the feeder knows it ({@link CheckContext.caller}). */
  readonly caller?: string;
  /**
   * The request went with another credential than the run's (none, an unknown token, another scope's): a refusal
   * is what it means to get, so the run's refusal count leaves it out.
   */
  readonly foreignCredential?: boolean;
}

export class ExchangeJudge {
  readonly #spec: ApiSpec;
  readonly #checks: readonly CheckDefinition[];
  /** Each stateful check's per-run state, by id. */
  readonly #states = new Map<string, unknown>();
  readonly #coverage: CoverageTally;
  readonly #refusals = new RefusalTally();
  /** Checks that passed or failed at least once; for the others, their first skip reason. */
  readonly #judgedChecks = new Set<string>();
  readonly #firstSkip = new Map<string, string>();
  #exchanges = 0;
  /** Exchanges that got an answer (the checks saw them). */
  #answered = 0;

  constructor(spec: ApiSpec, checks: readonly CheckDefinition[]) {
    this.#spec = spec;
    this.#checks = checks;
    for (const definition of checks)
      if (definition.state) this.#states.set(definition.id, definition.state());
    this.#coverage = new CoverageTally(
      new Map(spec.operations.all().map((operation) => [operation.operationId, operation.pathTemplate])),
    );
  }

  /** Exchanges judged so far. */
  get exchanges(): number {
    return this.#exchanges;
  }

  judge(exchange: Exchange, tally: CaseTally, record: RecordResult, source: ExchangeSource = {}): void {
    this.#exchanges += 1;
    this.#coverage.observe(exchange, tally.suiteId);
    if (!isAnswered(exchange)) {
      const why = exchange.error ? `${exchange.error.code}: ${exchange.error.message}` : "transport error";
      record(
        {
          checkId: transportResultId,
          exchangeId: exchange.id,
          outcome: skipped(`no response (${why}): the checks had nothing to judge`),
        },
        exchange,
      );
      return;
    }
    this.#answered += 1;
    const { operationId, response } = exchange;
    if (operationId)
      this.#refusals.observe(exchange, operationId, response.status, source.foreignCredential === true);
    const judged = withBodyJson(exchange);
    const operation = operationId ? this.#spec.operations.byId(operationId) : undefined;
    // One shape for every context (no spread): `recording` is set only when judging a recording.
    const context: { -readonly [K in keyof CheckContext]: CheckContext[K] } = {
      spec: this.#spec,
      operation,
      sentAt: exchange.timings.startedAt,
      receivedAt: exchange.timings.startedAt + exchange.timings.totalMs,
    };
    if (source.recording) context.recording = source.recording;
    if (source.caller !== undefined) context.caller = source.caller;
    for (const definition of this.#checks) {
      let outcome: CheckResult["outcome"] | undefined;
      try {
        outcome = definition.check(context, judged, this.#states.get(definition.id));
      } catch (error) {
        outcome = crashed(definition.id, error);
      }
      if (outcome) this.#take(definition.id, outcome, exchange, tally, record);
    }
  }

  #take(
    checkId: string,
    outcome: CheckResult["outcome"],
    exchange: Exchange,
    tally: CaseTally,
    record: RecordResult,
  ): void {
    if (outcome.status === "skipped") {
      if (!this.#judgedChecks.has(checkId) && !this.#firstSkip.has(checkId))
        this.#firstSkip.set(checkId, outcome.reason);
    } else {
      this.#judgedChecks.add(checkId);
      if (exchange.operationId) this.#coverage.judged(exchange.operationId, checkId);
    }
    if (outcome.status === "passed") tally.countPass();
    else record({ checkId, exchangeId: exchange.id, outcome }, exchange);
  }

  /**
   * The end of the traffic: each stateful check's end-of-run hook, its findings judged like an exchange's outcomes
   * (`recordAt` gives the tally and record of the case a finding belongs to; `exchange` undefined: none named).
   * Call once.
   */
  end(recordAt: (exchange: Exchange | undefined) => { tally: CaseTally; record: RecordResult }): void {
    for (const definition of this.#checks) {
      if (!definition.end) continue;
      let findings: ReturnType<NonNullable<CheckDefinition["end"]>>;
      try {
        findings = definition.end(this.#states.get(definition.id));
      } catch (error) {
        findings = [{ outcome: crashed(definition.id, error) }];
      }
      for (const { outcome, exchange } of findings) {
        const { tally, record } = recordAt(exchange);
        if (outcome.status === "passed") tally.countPass();
        else record({ checkId: definition.id, exchangeId: exchange?.id, outcome }, exchange);
        if (outcome.status === "skipped") continue;
        this.#judgedChecks.add(definition.id);
        // A verdict only the end can give still judged the operation of the exchange it names (the coverage table).
        if (exchange?.operationId) this.#coverage.judged(exchange.operationId, definition.id);
      }
    }
  }

  /**
   * Answers per operation to the run's own valid requests, and how many were 401, 403 or 404 (the run's warnings;
   * `refusal-tally.ts` says which requests count).
   */
  answers(): RefusalCounts {
    return this.#refusals.counts();
  }

  /** A case asserted that this exchange's answer is a refusal (401, 403, 404): it is not counted as one of the run's. */
  refusalExpected(exchange: Exchange): void {
    this.#refusals.takeBack(exchange.id);
  }

  /**
   * Enabled checks that never passed nor failed, with their first skip reason (the run's warnings): those that
   * skipped every exchange they were about, or all of them when no answer came. A check that no exchange was about
   * (no deprecated operation called) is not listed: it could judge nothing, and said so by answering nothing.
   */
  checksNeverJudged(): Map<string, string | undefined> {
    const never = this.checksWithoutVerdict();
    for (const [id, reason] of never) if (reason === undefined && this.#answered > 0) never.delete(id);
    return never;
  }

  /**
   * Every enabled check that never passed nor failed, with its first skip reason; undefined when no exchange was
   * about it (what traffic did not show: `conform proxy`, `conform verify`).
   */
  checksWithoutVerdict(): Map<string, string | undefined> {
    const without = new Map<string, string | undefined>();
    for (const { id } of this.#checks)
      if (!this.#judgedChecks.has(id)) without.set(id, this.#firstSkip.get(id));
    return without;
  }

  /**
   * Every operation of `plan` (default: every operation of the description, for traffic conform did not make) with
   * what it got: requests, answers, valid and invalid ones, the suites and checks that judged it.
   */
  coverage(plan: readonly OperationPlan[] = trafficPlan(this.#spec)): OperationCoverage[] {
    return this.#coverage.table(plan);
  }
}

/** A check must not throw; if one does, that is the toolkit's defect, reported as a failure of that check. */
function crashed(checkId: string, error: unknown): CheckResult["outcome"] {
  return { status: "failed", message: `check ${checkId} crashed: ${(error as Error)?.message ?? error}` };
}

/** Traffic judged as it came (`proxy`, `verify`): an operation it never hit was simply not in it. */
function trafficPlan(spec: ApiSpec): OperationPlan[] {
  return spec.operations.all().map((operation) => ({
    operationId: operation.operationId,
    method: operation.method.toUpperCase(),
    path: operation.pathTemplate,
    notRequested: { reason: "not-reached", detail: "no exchange of the judged traffic hit it" },
  }));
}
