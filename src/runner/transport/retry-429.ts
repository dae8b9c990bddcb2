/**
 * The retry step of the transport, the outermost: an attempt answered 429 is sent again after its `Retry-After`
 * (1 s when it gives none), up to `--max-retries`, unless the request asks for the 429 (`retry: false`) or the run
 * is interrupted; every attempt is recorded by the steps below it, and each is paced again. A `Retry-After` longer
 * than `--max-wait` fails the request (`WaitTooLongError`), the 429 recorded. It counts the 429s seen and retried
 * for the report, and tells of a wait of a second or more (`onRetryWait`).
 * @module
 */
import type { Dispatcher } from "undici";
import { WaitTooLongError } from "../../core/errors.ts";
import type { PacerClock } from "../contracts.ts";
import { announcedWaitMs } from "../rate-pacer.ts";
import { retryAfterMs } from "./failures.ts";
import {
  PassingHandler,
  type RawHeaders,
  type TransportDispatch,
  type TransportInterceptor,
  type TransportRequest,
} from "./types.ts";

export interface RetryOptions {
  readonly maxRetries: number;
  /** The longest a `Retry-After` is waited; a longer one fails the request (WaitTooLongError). */
  readonly maxWaitMs: number;
  readonly clock: PacerClock;
  /** Told of a 429's `Retry-After` wait of a second or more (the pacer tells its own). */
  readonly onRetryWait?: ((key: string, waitMs: number) => void) | undefined;
}

/** 429 answers retried, and 429 answers seen, for the report. */
export interface RetryTally {
  retries: number;
  rateLimited: number;
}

export function retry429(options: RetryOptions, tally: RetryTally): TransportInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(opts, new RetryOn429(handler, dispatch, opts, options, tally));
}

/** Sees every attempt's start, and the end (or error) of the last only. */
class RetryOn429 extends PassingHandler {
  readonly #dispatch: TransportDispatch;
  #opts: TransportRequest;
  readonly #options: RetryOptions;
  readonly #tally: RetryTally;

  constructor(
    above: Dispatcher.DispatchHandler,
    dispatch: TransportDispatch,
    opts: TransportRequest,
    options: RetryOptions,
    tally: RetryTally,
  ) {
    super(above);
    this.#dispatch = dispatch;
    this.#opts = opts;
    this.#options = options;
    this.#tally = tally;
  }

  override onResponseEnd(controller: Dispatcher.DispatchController, trailers: RawHeaders): void {
    const wait = this.#retryWait();
    if (wait === undefined) super.onResponseEnd(controller, trailers);
    else if (wait instanceof WaitTooLongError) super.onResponseError(controller, wait);
    else this.#sendAgain(wait);
  }

  /** How long to wait before sending the attempt again; undefined to hand its answer up; too long: the error. */
  #retryWait(): number | WaitTooLongError | undefined {
    const opts = this.#opts;
    const live = opts.answer.live;
    if (live?.status !== 429) return undefined;
    this.#tally.rateLimited += 1;
    const { outgoing } = opts;
    if (outgoing.retry === false || opts.attempt >= this.#options.maxRetries || outgoing.signal?.aborted)
      return undefined;
    const { clock, maxWaitMs } = this.#options;
    const asked = live.headers["retry-after"];
    const wait = retryAfterMs(asked, clock.now()) ?? 1000;
    // A target asking for a day must not hold the run for a day (nor a few minutes per request).
    if (wait <= maxWaitMs) return wait;
    return new WaitTooLongError(
      `${outgoing.method} ${live.exchange.request.url} answered 429 asking to wait ${seconds(wait)} (Retry-After: ${asked}), beyond the ${seconds(maxWaitMs)} ceiling (--max-wait)`,
    );
  }

  #sendAgain(wait: number): void {
    const opts = this.#opts;
    this.#tally.retries += 1;
    if (wait >= announcedWaitMs) this.#options.onRetryWait?.(opts.pacingKey, wait);
    this.#opts = { ...opts, attempt: opts.attempt + 1 };
    void this.#options.clock.sleep(wait, opts.outgoing.signal).then(() => this.#dispatch(this.#opts, this));
  }
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}
