/**
 * The shape of a check: a small pure function over one recorded exchange, with the spec and the matched
 * operation at hand. It returns an outcome (passed, failed with expected/actual, skipped with a reason), or
 * nothing when the exchange is not one it is about, and never throws. File name = check id = config key = CLI name.
 *
 * A check that judges across exchanges (a list walked page after page, a rate-limit window) declares its per-run
 * state: `state()` makes it once per run, proxy or verify session, and every call of `check` gets it, in the order
 * the exchanges were seen. `end(state)` is called once when the traffic ends, for what only the end can tell.
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
  /**
   * Who sent the request: a short digest of its credential (never the credential), when the feeder knows it
   * (a proxy; a recording whose tokens are not redacted). Undefined otherwise: a check keyed by caller then judges
   * only what holds whoever sent it.
   */
  readonly caller?: string;
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
  /**
   * True when the recording shows an Authorization header on at least one of its requests: it did not filter them
   * out, so a request it shows without one was sent without one. Otherwise (an SDK's cassette, a browser's HAR
   * exported without its sensitive data) a request without one says nothing of what was sent.
   */
  readonly authorizationKept?: boolean;
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

/** A check's verdict on one exchange; undefined when the exchange is not one it is about (neither counted nor kept). */
export type Check<State = undefined> = (
  context: CheckContext,
  exchange: AnsweredExchange,
  state: State,
) => CheckOutcome | undefined;

/** What a check's end-of-run hook found, and the exchange it is about when there is one. */
export interface EndFinding {
  readonly outcome: CheckOutcome;
  readonly exchange?: Exchange;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds checks of every state type; each is typed where defined.
export interface CheckDefinition<State = any> {
  readonly id: string;
  /** One line, shown by `conform run --help` and in reports. */
  readonly title: string;
  readonly check: Check<State>;
  /** Makes the check's per-run state (bounded: a proxy may run for days); none for a check of one exchange. */
  readonly state?: () => State;
  /** Called once when the traffic ends, with the run's state: what still stands open is judged now. */
  readonly end?: (state: State) => readonly EndFinding[];
}
