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
  /** Epoch ms when the response was received (for `X-RateLimit-Reset` in the future). */
  readonly receivedAt: number;
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
