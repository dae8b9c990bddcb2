/**
 * The pacing step of the transport: each attempt waits for the pacer (`rate-pacer.ts`: a fixed budget, or the
 * target's windows learnt from its rate-limit headers) before it goes, unless the request asks not to be paced; the
 * pacer learns from every answer's headers and counts the attempt in flight until it ends. A wait past `--max-wait`
 * fails the request with the pacer's `WaitTooLongError`, before anything is sent or recorded.
 * @module
 */
import type { Dispatcher } from "undici";
import { BoundedMemo } from "../../core/bounded-memo.ts";
import { callerOf } from "../../core/caller.ts";
import type { OutgoingRequest } from "../contracts.ts";
import type { RatePacer } from "../rate-pacer.ts";
import { type AnswerSlot, PassingHandler, type RawHeaders, type TransportInterceptor } from "./types.ts";

export function pace(pacer: RatePacer): TransportInterceptor {
  return (dispatch) => (opts, handler) => {
    const pacing = opts.outgoing.pace !== false;
    const paced = new PacedAttempt(handler, pacer, opts.pacingKey, opts.answer, pacing);
    const waiting = pacing ? pacer.acquire(opts.pacingKey, opts.outgoing.signal) : undefined;
    if (waiting === undefined) return dispatch(opts, paced);
    waiting.then(
      () => dispatch(opts, paced),
      (error: Error) => paced.onResponseError(undefined, error),
    );
    return true;
  };
}

class PacedAttempt extends PassingHandler {
  readonly #pacer: RatePacer;
  readonly #key: string;
  readonly #answer: AnswerSlot;
  readonly #pacing: boolean;

  constructor(
    above: Dispatcher.DispatchHandler,
    pacer: RatePacer,
    key: string,
    answer: AnswerSlot,
    pacing: boolean,
  ) {
    super(above);
    this.#pacer = pacer;
    this.#key = key;
    this.#answer = answer;
    this.#pacing = pacing;
  }

  override onResponseEnd(controller: Dispatcher.DispatchController, trailers: RawHeaders): void {
    // The record step below left the answer: its live headers teach the pacer the window.
    if (this.#answer.live) this.#pacer.observe(this.#key, this.#answer.live.headers);
    if (this.#pacing) this.#pacer.settle(this.#key);
    super.onResponseEnd(controller, trailers);
  }

  override onResponseError(controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#pacing) this.#pacer.settle(this.#key);
    super.onResponseError(controller as Dispatcher.DispatchController, error);
  }
}

/**
 * The pacing key of a request: `<operation>\u0000<caller>`, or its method and path for a request no operation
 * matches. Targets limit per token (or per address without one) and per kind of endpoint: a window one token spent
 * must not hold another token's requests. The limit is named by its operation, never by the token.
 */
export function pacingKeyOf(outgoing: OutgoingRequest, operationId: string | undefined): string {
  const caller = callerOf(outgoing.headers) ?? "";
  if (operationId === undefined) return `${outgoing.method} ${new URL(outgoing.url).pathname}\u0000${caller}`;
  let byOperation = pacingKeys.get(caller);
  if (!byOperation) {
    // Callers are a run's few tokens (their digests are bounded the same way).
    if (pacingKeys.size >= 256) pacingKeys.clear();
    byOperation = new BoundedMemo(4096);
    pacingKeys.set(caller, byOperation);
  }
  return byOperation.get(operationId, (id) => `${id}\u0000${caller}`);
}

/**
 * The same string each time for the same operation and caller: the pacer looks it up three times per request, and a
 * string built anew would be hashed anew each time.
 */
const pacingKeys = new Map<string, BoundedMemo<string, string>>();
