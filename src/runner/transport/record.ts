/**
 * The record step of the transport, the innermost but the read bounds: each attempt becomes an {@link Exchange}
 * through the one recorder (`core/recorder.ts`, redaction included), seen by the request's `observe` as it ends,
 * and its live answer is left in the request's slot for the steps above and the caller. It consumes the body
 * (decoded within the size cap) and passes the answer's start and end up, not its bytes. A failure (no answer, a
 * bound hit) is recorded too and passed up as a {@link TransportError} carrying its exchange, its words from
 * `transport-reason.ts`. An interrupted run sends nothing more; a write in flight then still finishes (within
 * the timeouts): cancelled, what it created would be unknown to the cleanup ledger.
 * @module
 */
import { type Dispatcher, errors as undiciErrors } from "undici";
import type { Exchange, RecordedRequest } from "../../core/exchange.ts";
import { answerHeaders, recordAnswer, recordRequest } from "../../core/recorder.ts";
import type { SecretValues } from "../../core/redact.ts";
import { abortRelayOf } from "../abort-relay.ts";
import { type TransportBounds, transportReason } from "../transport-reason.ts";
import { decodedWithin } from "./bounds.ts";
import { TransportError } from "./failures.ts";
import {
  PassingHandler,
  type RawHeaders,
  type TransportDispatch,
  type TransportInterceptor,
  type TransportRequest,
} from "./types.ts";

export interface RecordOptions extends TransportBounds {
  readonly secrets: SecretValues;
  /** Headers (lower case) whose values are never recorded: the user's `--header`s secret by their names. */
  readonly secretHeaderNames: ReadonlySet<string>;
  readonly maxResponseBytes: number;
}

/** The record step; exchange ids count up over the transport's life. */
export function record(options: RecordOptions): TransportInterceptor {
  let nextId = 1;
  return (dispatch) => (opts, handler) => {
    const recording = new RecordingHandler(handler, opts, options, nextId++);
    return recording.dispatch(dispatch);
  };
}

/** Methods that change nothing at the target (RFC 9110 §9.2.1): cancelling them loses nothing. */
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

class RecordingHandler extends PassingHandler {
  readonly #opts: TransportRequest;
  readonly #options: RecordOptions;
  readonly #id: number;
  readonly #request: RecordedRequest;
  readonly #startedAt = Date.now();
  readonly #started = performance.now();
  #headersMs = 0;
  #status = 0;
  #live: Record<string, string> = {};
  #recorded: Readonly<Record<string, string>> = {};
  readonly #chunks: Buffer[] = [];
  #onAbort: (() => void) | undefined;

  constructor(above: Dispatcher.DispatchHandler, opts: TransportRequest, options: RecordOptions, id: number) {
    super(above);
    this.#opts = opts;
    this.#options = options;
    this.#id = id;
    this.#request = recordRequest(opts.outgoing, options.secrets, options.secretHeaderNames);
  }

  dispatch(dispatch: TransportDispatch): boolean {
    const { outgoing } = this.#opts;
    if (outgoing.signal?.aborted) {
      this.onResponseError(undefined, outgoing.signal.reason);
      return true;
    }
    // The client found no origin in the URL: undici would refuse it, and says so in its words.
    if (this.#opts.origin === undefined) {
      const refused = new undiciErrors.InvalidArgumentError(`Invalid URL: ${outgoing.url.slice(0, 200)}`);
      this.onResponseError(undefined, refused);
      return true;
    }
    return dispatch(this.#opts, this);
  }

  override onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    const signal = this.#opts.outgoing.signal;
    const method = this.#opts.method;
    if (signal && (safeMethods.has(method) || safeMethods.has(method.toUpperCase()))) {
      const abort = () => controller.abort(signal.reason as Error);
      if (signal.aborted) abort();
      else {
        this.#onAbort = abort;
        abortRelayOf(signal).once("abort", abort);
      }
    }
    super.onRequestStart(controller, context);
  }

  override onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: RawHeaders,
    statusMessage?: string,
  ): void {
    // An interim answer (100, 103) is not the answer.
    if (statusCode < 200) return;
    this.#headersMs = performance.now() - this.#started;
    this.#status = statusCode;
    const { live, recorded } = answerHeaders(headers, this.#options.secrets);
    this.#live = live;
    this.#recorded = recorded;
    super.onResponseStart(controller, statusCode, headers, statusMessage);
  }

  override onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  override onResponseEnd(controller: Dispatcher.DispatchController, trailers: RawHeaders): void {
    this.#release();
    let live: TransportRequest["answer"]["live"];
    try {
      live = this.#answered();
    } catch (error) {
      // The decoded body passed the cap: recorded as the attempt's failure.
      this.onResponseError(controller, error as Error);
      return;
    }
    this.#opts.answer.live = live;
    try {
      this.#opts.observe(live.exchange);
    } catch (error) {
      // A listener's fault, not the target's: passed up as it is, the exchange already recorded.
      super.onResponseError(controller, error as Error);
      return;
    }
    super.onResponseEnd(controller, trailers);
  }

  override onResponseError(controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.#release();
    const code =
      error instanceof undiciErrors.UndiciError
        ? String((error as { code?: string }).code)
        : errorCode(error);
    const exchange = this.#exchange(undefined, {
      code,
      // A bound of the client (too large, too slow, silent too long): its words say which bound and its option.
      message: this.#options.secrets.scrub(transportReason(error, this.#options)),
    });
    const failure = new TransportError(
      code,
      `${this.#opts.outgoing.method} ${this.#request.url}: ${exchange.error?.message} (${code})`,
      exchange,
    );
    let passed: Error = failure;
    try {
      this.#opts.observe(exchange);
    } catch (error) {
      // A listener's fault, not the target's: passed up instead (a throw here would reach undici's internals).
      passed = error as Error;
    }
    super.onResponseError(controller as Dispatcher.DispatchController, passed);
  }

  /** The attempt's live answer and its record; throws a BoundHit when the decoded body passes the cap. */
  #answered(): NonNullable<TransportRequest["answer"]["live"]> {
    const chunks = this.#chunks;
    const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const cap = this.#options.maxResponseBytes;
    const text = decodedWithin(raw, this.#live["content-encoding"], cap).toString("utf8");
    const answer = recordAnswer(
      { status: this.#status, headers: this.#recorded, text, bytes: raw.byteLength, truncated: false },
      this.#options.secrets,
    );
    const exchange = this.#exchange(answer.response, undefined);
    const { json, parsed, unreadable } = answer;
    return { status: this.#status, headers: this.#live, text, json, parsed, unreadable, exchange };
  }

  #exchange(response: Exchange["response"], error: Exchange["error"]): Exchange {
    return {
      id: this.#id,
      request: this.#request,
      response,
      error,
      timings: {
        startedAt: this.#startedAt,
        headersMs: this.#headersMs,
        totalMs: performance.now() - this.#started,
      },
      operationId: this.#opts.operationId,
      retries: this.#opts.attempt,
    };
  }

  #release(): void {
    const signal = this.#opts.outgoing.signal;
    if (this.#onAbort && signal) abortRelayOf(signal).removeListener("abort", this.#onAbort);
    this.#onAbort = undefined;
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") return code;
  return (error as Error)?.name === "AbortError" ? "ABORTED" : "TRANSPORT";
}
