/**
 * Judging one exchange: a transport failure (no answer) once, with the reason, before any check; otherwise every
 * enabled check, a pass only counted (nearly every outcome is one, and nothing needs them one by one), anything
 * else recorded with the exchange it is about. Also what the run's coverage table needs (`coverage-tally.ts`).
 * @module
 */
import { type CheckContext, type CheckDefinition, isAnswered, type RecordingGaps } from "../checks/types.ts";
import type { OperationCoverage, OperationPlan } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import { type CheckResult, skipped } from "../core/result.ts";
import type { ApiSpec } from "../spec/types.ts";
import type { CaseTally } from "./case-tally.ts";
import { CoverageTally } from "./coverage-tally.ts";

/** The result id of a transport failure: the checks had nothing to judge. */
export const transportResultId = "transport";

export type RecordResult = (result: CheckResult, exchange: Exchange) => void;

export class ExchangeJudge {
  readonly #spec: ApiSpec;
  readonly #checks: readonly CheckDefinition[];
  readonly #coverage: CoverageTally;
  readonly #answers = new Map<string, { total: number; refused: number }>();
  /** Checks that passed or failed at least once; for the others, their first skip reason. */
  readonly #judgedChecks = new Set<string>();
  readonly #firstSkip = new Map<string, string>();
  #exchanges = 0;

  constructor(spec: ApiSpec, checks: readonly CheckDefinition[]) {
    this.#spec = spec;
    this.#checks = checks;
    this.#coverage = new CoverageTally(
      new Map(spec.operations.all().map((operation) => [operation.operationId, operation.pathTemplate])),
    );
  }

  /** Exchanges judged so far. */
  get exchanges(): number {
    return this.#exchanges;
  }

  /** `recording`: what the recording the exchange comes from may lack (`conform verify`), if it is one. */
  judge(exchange: Exchange, tally: CaseTally, record: RecordResult, recording?: RecordingGaps): void {
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
    const { operationId, response } = exchange;
    if (operationId) {
      const answers = this.#answers.get(operationId) ?? { total: 0, refused: 0 };
      answers.total += 1;
      if (response.status === 401 || response.status === 403 || response.status === 404) answers.refused += 1;
      this.#answers.set(operationId, answers);
    }
    const operation = operationId ? this.#spec.operations.byId(operationId) : undefined;
    // One shape for every context (no spread): `recording` is set only when judging a recording.
    const context: { -readonly [K in keyof CheckContext]: CheckContext[K] } = {
      spec: this.#spec,
      operation,
      sentAt: exchange.timings.startedAt,
      receivedAt: exchange.timings.startedAt + exchange.timings.totalMs,
    };
    if (recording) context.recording = recording;
    for (const definition of this.#checks) {
      let outcome: CheckResult["outcome"];
      try {
        outcome = definition.check(context, exchange);
      } catch (error) {
        // A check must not throw; if one does, that is the toolkit's defect, reported as a failure of that check.
        outcome = {
          status: "failed",
          message: `check ${definition.id} crashed: ${(error as Error)?.message ?? error}`,
        };
      }
      if (outcome.status === "skipped") {
        if (!this.#judgedChecks.has(definition.id) && !this.#firstSkip.has(definition.id))
          this.#firstSkip.set(definition.id, outcome.reason);
      } else {
        this.#judgedChecks.add(definition.id);
        if (operationId) this.#coverage.judged(operationId, definition.id);
      }
      if (outcome.status === "passed") tally.countPass();
      else record({ checkId: definition.id, exchangeId: exchange.id, outcome }, exchange);
    }
  }

  /** Answers per operation, and how many were 401, 403 or 404 (the run's warnings). */
  answers(): ReadonlyMap<string, { readonly total: number; readonly refused: number }> {
    return this.#answers;
  }

  /** Enabled checks that never passed nor failed, with their first skip reason (the run's warnings). */
  checksNeverJudged(): Map<string, string | undefined> {
    const never = new Map<string, string | undefined>();
    for (const { id } of this.#checks)
      if (!this.#judgedChecks.has(id)) never.set(id, this.#firstSkip.get(id));
    return never;
  }

  /**
   * Every operation of `plan` (default: every operation of the description, for traffic conform did not make) with
   * what it got: requests, answers, valid and invalid ones, the suites and checks that judged it.
   */
  coverage(plan: readonly OperationPlan[] = trafficPlan(this.#spec)): OperationCoverage[] {
    return this.#coverage.table(plan);
  }
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
