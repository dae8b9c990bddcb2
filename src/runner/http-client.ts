/**
 * The runner's HTTP client: a thin caller of the transport (`transport/transport.ts`: undici with pacing, 429
 * retries, recording and read bounds as composed steps). It adds the user's `--header`s, finds the operation a
 * request hits and its pacing key, and hands back the live response of the last attempt: the caller gets it for its
 * own use, everyone else (events, checks, reporters) only ever sees the redacted record.
 * @module
 */
import type { Dispatcher } from "undici";
import { BoundedMemo } from "../core/bounded-memo.ts";
import type { Exchange } from "../core/exchange.ts";
import type { SecretValues } from "../core/redact.ts";
import { secretHeaderNames, withAddedHeaders } from "./added-headers.ts";
import type { LiveResponse, OutgoingRequest, PacerClock } from "./contracts.ts";
import { type RatePacer, realPacerClock } from "./rate-pacer.ts";
import { pacingKeyOf } from "./transport/pace.ts";
import { Transport } from "./transport/transport.ts";
import type { AnswerSlot, TransportRequest } from "./transport/types.ts";

export { retryAfterMs, TransportError } from "./transport/failures.ts";

export interface ClientOptions {
  readonly timeoutMs: number;
  /** PEM text of extra CAs to trust. */
  readonly ca: string | undefined;
  readonly insecure: boolean;
  readonly connections: number;
  /** A body above this, as received or as decoded (gzip, deflate, br), is not read further: "answer too large". */
  readonly maxResponseBytes: number;
  /** From the answer's first byte (its headers) to its last: a body trickling in must end. */
  readonly requestDeadlineMs: number;
  readonly maxRetries: number;
  /** The longest a `Retry-After` is waited; a longer one fails the request (WaitTooLongError). */
  readonly maxWaitMs: number;
  readonly pacer: RatePacer;
  /** Told of a 429's `Retry-After` wait of a second or more (the pacer tells its own). */
  readonly onRetryWait?: (key: string, waitMs: number) => void;
  readonly secrets: SecretValues;
  /** Which spec operation a request hits (for coverage and pacing keys). */
  readonly matchOperation: (method: string, url: string) => string | undefined;
  readonly clock?: PacerClock;
  /** Headers the user adds to every request (`--header`), names lower-cased; a request's own header wins. */
  readonly addedHeaders?: Readonly<Record<string, string>>;
}

export class HttpClient {
  readonly #transport: Transport;
  readonly #options: ClientOptions;

  constructor(options: ClientOptions) {
    this.#options = options;
    // Added headers whose values are never recorded (secret by their names), and secrets of the run.
    const secretNames = secretHeaderNames(options.addedHeaders ?? {});
    for (const name of secretNames) options.secrets.add(options.addedHeaders?.[name]);
    this.#transport = new Transport({
      ...options,
      clock: options.clock ?? realPacerClock,
      secretHeaderNames: secretNames,
    });
  }

  /** 429 answers retried, for the report. */
  get retries(): number {
    return this.#transport.tally.retries;
  }

  /** 429 answers seen, for the report. */
  get rateLimited(): number {
    return this.#transport.tally.rateLimited;
  }

  async close(): Promise<void> {
    await this.#transport.close();
  }

  /**
   * Sends a request, pacing it and retrying 429s (unless `retry: false`); `observe` sees every recorded attempt.
   * Throws TransportError when no answer came.
   */
  send(given: OutgoingRequest, observe: (exchange: Exchange) => void = () => {}): Promise<LiveResponse> {
    const added = this.#options.addedHeaders;
    const outgoing =
      added === undefined ? given : { ...given, headers: withAddedHeaders(given.headers, added) };
    const operationId = this.#options.matchOperation(outgoing.method, outgoing.url);
    const pacingKey = pacingKeyOf(outgoing, operationId);
    const target = dispatchTargets.get(outgoing.url, dispatchTargetOf);
    return new Promise((resolve, reject) => {
      const answer: AnswerSlot = { live: undefined };
      // One literal: what undici reads and what the steps read, nothing copied per request.
      const request: TransportRequest = {
        origin: target?.origin,
        path: target?.path ?? "/",
        method: outgoing.method as Dispatcher.HttpMethod,
        headers: outgoing.headers,
        body: outgoing.body,
        outgoing,
        operationId,
        pacingKey,
        attempt: 0,
        observe,
        answer,
      };
      this.#transport.dispatch(request, new Settled(answer, resolve, reject));
    });
  }
}

/** The caller's end of a request: its last attempt's live answer, or why none came. */
class Settled implements Dispatcher.DispatchHandler {
  readonly #answer: AnswerSlot;
  readonly #resolve: (live: LiveResponse) => void;
  readonly #reject: (error: Error) => void;

  constructor(answer: AnswerSlot, resolve: (live: LiveResponse) => void, reject: (error: Error) => void) {
    this.#answer = answer;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  onResponseEnd(): void {
    const live = this.#answer.live;
    if (live) this.#resolve(live);
    else this.#reject(new Error("the transport ended a request without its answer"));
  }

  onResponseError(_controller: unknown, error: Error): void {
    this.#reject(error);
  }
}

/** Where undici sends a URL: its origin and its path with the query, as undici's `request(url)` derives them. */
interface DispatchTarget {
  readonly origin: string;
  readonly path: string;
}

/** By URL: a run sends the same URLs again and again; bounded, so a campaign of distinct URLs cannot grow it. */
const dispatchTargets = new BoundedMemo<string, DispatchTarget | undefined>(4096);

/** Undefined for a URL undici would refuse (not absolute, not http or https): the record step says so. */
function dispatchTargetOf(url: string): DispatchTarget | undefined {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return undefined;
  return {
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
  };
}
