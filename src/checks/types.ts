/**
 * The shape of a check: a small pure function over one recorded exchange, with the spec and the matched
 * operation at hand. It returns an outcome (passed, failed with expected/actual, skipped with a reason) and never
 * throws. File name = check id = config key = CLI name.
 * @module
 */
import type { Exchange, RecordedResponse } from "../core/exchange.ts";
import type { CheckOutcome } from "../core/result.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";

export interface CheckContext {
  readonly spec: ApiSpec;
  /** The operation the request matched; undefined when the spec has none for it. */
  readonly operation: OperationInfo | undefined;
  /**
   * Epoch ms when the request was sent: the earliest instant its answer can speak of. A time in the answer is
   * judged against this (or the answer's own `Date`), never against when conform got round to judging it.
   */
  readonly sentAt: number;
  /** Epoch ms when the response was received whole: the latest instant its answer can speak of. */
  readonly receivedAt: number;
  /**
   * Set when the exchange comes from a recording conform did not make (`conform verify`): what the recording may
   * have left out or rewritten, which a check must not hold against the target. Undefined for conform's own
   * traffic and a proxy's, which are seen whole.
   */
  readonly recording?: RecordingGaps;
}

/** What a recording may lack of the traffic it recorded. */
export interface RecordingGaps {
  /**
   * The response header names (lower-case) the recording kept on at least one of its answers, when it may have
   * filtered headers out (go-vcr cassettes: SDKs drop `Date`, `X-RateLimit-*`, `X-Spec-Version`... before
   * saving). A header outside this set was never recorded: its absence says nothing of the target, so a check
   * that needs it skips. Undefined when every header was recorded (HAR).
   */
  readonly headersKept?: ReadonlySet<string>;
}

/** Was `name` (lower-case) left out by the recording rather than by the target? */
export function notRecorded(context: CheckContext, name: string): boolean {
  const kept = context.recording?.headersKept;
  return kept !== undefined && !kept.has(name);
}

/**
 * An exchange that got an answer: the only kind a check sees. A transport failure (no answer at all) is judged
 * once by the runner before the checks, so no check repeats that guard.
 */
export interface AnsweredExchange extends Exchange {
  readonly response: RecordedResponse;
}

export function isAnswered(exchange: Exchange): exchange is AnsweredExchange {
  return exchange.response !== undefined;
}

export type Check = (context: CheckContext, exchange: AnsweredExchange) => CheckOutcome;

export interface CheckDefinition {
  readonly id: string;
  /** One line, shown by `conform run --help` and in reports. */
  readonly title: string;
  readonly check: Check;
}
