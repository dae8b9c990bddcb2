/**
 * The runner's HTTP client on undici: one keep-alive Agent (a pool per origin) with connect, headers and body
 * timeouts, TLS options, a cap on response size, pacing and bounded 429 retries. Every attempt is recorded as an
 * Exchange, redacted at the point of recording: the caller gets the live response for its own use, everyone
 * else (events, checks, reporters) only ever sees the redacted record.
 * @module
 */
import { createHash } from "node:crypto";
import { Agent, type Dispatcher, request, errors as undiciErrors } from "undici";
import type { Exchange, RecordedRequest, RecordedResponse } from "../core/exchange.ts";
import {
  collectFormSecrets,
  collectSecrets,
  holdsSecretKeys,
  isRedactedHeader,
  redactForm,
  redactHeaders,
  redactJson,
  redactUrl,
  type SecretValues,
} from "../core/redact.ts";
import { abortRelayOf } from "./abort-relay.ts";
import { announcedWaitMs, type PacerClock, type RatePacer, realPacerClock } from "./rate-pacer.ts";

export interface ClientOptions {
  readonly timeoutMs: number;
  /** PEM text of extra CAs to trust. */
  readonly ca: string | undefined;
  readonly insecure: boolean;
  readonly connections: number;
  readonly maxResponseBytes: number;
  readonly maxRetries: number;
  readonly maxRetryWaitMs: number;
  readonly pacer: RatePacer;
  /** Told of a 429's `Retry-After` wait of a second or more (the pacer tells its own). */
  readonly onRetryWait?: (key: string, waitMs: number) => void;
  readonly secrets: SecretValues;
  /** Which spec operation a request hits (for coverage and pacing keys). */
  readonly matchOperation: (method: string, url: string) => string | undefined;
  readonly clock?: PacerClock;
}

export interface OutgoingRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as is; set the content type in headers. */
  readonly body?: string;
  /** false: a 429 is returned to the caller at once (suites that test rate limits). */
  readonly retry?: boolean;
  /** false: not held by the pacer for a spent window (suites that drive past a limit on purpose). */
  readonly pace?: boolean;
  readonly signal?: AbortSignal;
  /** What a deliberately invalid request breaks (recorded with it). */
  readonly breaks?: string;
}

/** What the caller gets: the live (unredacted) response, and the redacted record of it. */
export interface LiveResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** Parsed JSON when the body is JSON and complete; undefined otherwise. */
  readonly json: unknown;
  readonly exchange: Exchange;
}

export class TransportError extends Error {
  readonly code: string;
  readonly exchange: Exchange;
  constructor(code: string, message: string, exchange: Exchange) {
    super(message);
    this.code = code;
    this.exchange = exchange;
  }
}

/**
 * The live and the recorded headers of an answer. undici gives lower-cased names and a string per header (arrays
 * only for repeated ones); most answers need no joining and no redaction and hold no known secret, and then both
 * are the object undici made. One pass over it decides: every answer pays this.
 */
function answerHeaders(
  headers: Record<string, string | string[] | undefined>,
  secrets: SecretValues,
): { live: Record<string, string>; recorded: Readonly<Record<string, string>> } {
  // for-in: undici's header objects are in dictionary mode, where Object.keys/values cost more. Names are
  // lower-cased by undici.
  for (const name in headers) {
    const value = headers[name];
    if (typeof value !== "string" || isRedactedHeader(name) || secrets.appearsIn(value)) {
      const live = flattenedCopy(headers);
      return { live, recorded: secrets.scrubRecord(redactHeaders(live)) };
    }
  }
  const clean = headers as Record<string, string>;
  return { live: clean, recorded: clean };
}

function flattenedCopy(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** Methods that change nothing at the target (RFC 9110 §9.2.1): cancelling them loses nothing. */
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

function isJson(contentType: string | undefined): boolean {
  return /^application\/([\w.+-]*\+)?json\b/i.test(contentType ?? "");
}

/** `Retry-After` in ms: delta-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export class HttpClient {
  readonly #agent: Dispatcher;
  readonly #options: ClientOptions;
  readonly #clock: PacerClock;
  #nextId = 1;
  /** 429 answers retried, and 429 answers seen, for the report. */
  retries = 0;
  rateLimited = 0;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#clock = options.clock ?? realPacerClock;
    this.#agent = new Agent({
      connections: options.connections,
      connectTimeout: options.timeoutMs,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 10_000,
      connect: { ca: options.ca, rejectUnauthorized: !options.insecure },
    });
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  /**
   * Sends a request, pacing it and retrying 429s (unless `retry: false`); `observe` sees every recorded attempt.
   * Throws TransportError when no answer came.
   */
  async send(
    outgoing: OutgoingRequest,
    observe: (exchange: Exchange) => void = () => {},
  ): Promise<LiveResponse> {
    const operationId = this.#options.matchOperation(outgoing.method, outgoing.url);
    // Targets limit per token (or per address without one) and per kind of endpoint: a window one token spent
    // must not hold another token's requests.
    const key = `${operationId ?? `${outgoing.method} ${new URL(outgoing.url).pathname}`}\u0000${callerOf(outgoing)}`;
    for (let attempt = 0; ; attempt += 1) {
      const pacing = outgoing.pace !== false;
      const paced = pacing ? this.#options.pacer.acquire(key, outgoing.signal) : undefined;
      let live: LiveResponse;
      try {
        if (paced) await paced;
        live = await this.attempt(outgoing, operationId, attempt, observe);
        this.#options.pacer.observe(key, live.headers);
      } finally {
        if (pacing) this.#options.pacer.settle(key);
      }
      if (live.status !== 429) return live;
      this.rateLimited += 1;
      if (outgoing.retry === false || attempt >= this.#options.maxRetries || outgoing.signal?.aborted)
        return live;
      const wait = Math.min(
        retryAfterMs(live.headers["retry-after"], this.#clock.now()) ?? 1000,
        this.#options.maxRetryWaitMs,
      );
      this.retries += 1;
      if (wait >= announcedWaitMs) this.#options.onRetryWait?.(key, wait);
      await this.#clock.sleep(wait, outgoing.signal);
    }
  }

  private recordRequest(outgoing: OutgoingRequest): RecordedRequest {
    const headers = redactHeaders(outgoing.headers ?? {});
    let body = outgoing.body;
    if (body !== undefined) {
      const type = headers["content-type"] ?? "";
      if (isJson(type)) {
        const parsed = parsedOrUndefined(body);
        // Not JSON after all: the value scrub below still removes known secrets.
        if (parsed !== undefined && holdsSecretKeys(parsed)) {
          collectSecrets(parsed, this.#options.secrets);
          body = JSON.stringify(redactJson(parsed));
        }
      } else if (type.startsWith("application/x-www-form-urlencoded")) {
        collectFormSecrets(body, this.#options.secrets);
        body = redactForm(body);
      }
      body = this.#options.secrets.scrub(body);
    }
    const secrets = this.#options.secrets;
    const recorded: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
      method: outgoing.method,
      url: secrets.scrub(redactUrl(outgoing.url)),
      headers: secrets.scrubRecord(headers),
      body,
    };
    // Set only on the rare negative request: a spread into the literal would build every record the slow way.
    if (outgoing.breaks !== undefined) recorded.breaks = outgoing.breaks;
    return recorded;
  }

  private async attempt(
    outgoing: OutgoingRequest,
    operationId: string | undefined,
    retries: number,
    observe: (exchange: Exchange) => void,
  ): Promise<LiveResponse> {
    const startedAt = Date.now();
    const started = performance.now();
    const recordedRequest = this.recordRequest(outgoing);
    const exchangeId = this.#nextId++;
    let headersMs = 0;
    try {
      // An interrupted run sends nothing more...
      outgoing.signal?.throwIfAborted();
      const answer = await request(outgoing.url, {
        method: outgoing.method as Dispatcher.HttpMethod,
        headers: outgoing.headers,
        body: outgoing.body,
        dispatcher: this.#agent,
        // ...but lets a write in flight finish (within the timeout): cancelled, what it created would be unknown
        // to the cleanup ledger and left behind.
        signal:
          outgoing.signal && safeMethods.has(outgoing.method.toUpperCase())
            ? abortRelayOf(outgoing.signal)
            : undefined,
      });
      headersMs = performance.now() - started;
      const { live: headers, recorded: recordedHeaders } = answerHeaders(
        answer.headers,
        this.#options.secrets,
      );
      const { text, bytes, truncated } = await this.readBody(answer.body, headers["content-length"]);
      const json =
        !truncated && isJson(headers["content-type"]) && text !== "" ? parsedOrUndefined(text) : undefined;
      const recorded = this.recordBody(text, json);
      const response: RecordedResponse = {
        status: answer.statusCode,
        headers: recordedHeaders,
        json: recorded.json,
        text: recorded.text,
        truncated,
        bytes,
      };
      const exchange: Exchange = {
        id: exchangeId,
        request: recordedRequest,
        response,
        error: undefined,
        timings: { startedAt, headersMs, totalMs: performance.now() - started },
        operationId,
        retries,
      };
      observe(exchange);
      return { status: answer.statusCode, headers, text, json, exchange };
    } catch (error) {
      const code =
        error instanceof undiciErrors.UndiciError
          ? String((error as { code?: string }).code)
          : errorCode(error);
      const exchange: Exchange = {
        id: exchangeId,
        request: recordedRequest,
        response: undefined,
        error: { code, message: this.#options.secrets.scrub(String((error as Error)?.message ?? error)) },
        timings: { startedAt, headersMs, totalMs: performance.now() - started },
        operationId,
        retries,
      };
      observe(exchange);
      throw new TransportError(
        code,
        `${outgoing.method} ${recordedRequest.url}: ${exchange.error?.message} (${code})`,
        exchange,
      );
    }
  }

  /**
   * The recorded form of a response body. Most answers hold no secret: a cheap scan says so and they are kept as
   * they came (the recorded JSON is then the live value itself: recording is the hot path of every run). Answers
   * under a secret key teach the run that secret and are redacted by key; known secret values are scrubbed anywhere.
   */
  private recordBody(text: string, json: unknown): { text: string; json: unknown } {
    const secrets = this.#options.secrets;
    if (json === undefined) return { text: secrets.scrub(text), json: undefined };
    if (holdsSecretKeys(json)) {
      // Secrets the target hands out (new tokens, client secrets) are scrubbed wherever they appear later.
      collectSecrets(json, secrets);
      const redacted = secrets.scrubDeep(redactJson(json));
      return { text: JSON.stringify(redacted), json: redacted };
    }
    if (secrets.appearsIn(text)) return { text: secrets.scrub(text), json: secrets.scrubDeep(json) };
    return { text, json };
  }

  private async readBody(
    body: Dispatcher.ResponseData["body"],
    contentLength: string | undefined,
  ): Promise<{ text: string; bytes: number; truncated: boolean }> {
    // Most answers declare a length within the cap: read whole at once, cheaper than iterating chunks.
    if (contentLength !== undefined && Number(contentLength) <= this.#options.maxResponseBytes) {
      const whole = await body.bytes();
      const text = Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).toString("utf8");
      return { text, bytes: whole.byteLength, truncated: false };
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let kept = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (kept < this.#options.maxResponseBytes) {
        const room = this.#options.maxResponseBytes - kept;
        const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
        chunks.push(piece);
        kept += piece.length;
      }
    }
    return { text: Buffer.concat(chunks).toString("utf8"), bytes, truncated: bytes > kept };
  }
}

/** Who a request counts against at the target: a digest of its Authorization (never the token itself), or none. */
const callerDigests = new Map<string, string>();

/** Who is asking, as a short digest of the Authorization header (the token itself is never kept as a key). */
function callerOf(outgoing: OutgoingRequest): string {
  const authorization = outgoing.headers?.authorization ?? outgoing.headers?.Authorization;
  if (!authorization) return "";
  let digest = callerDigests.get(authorization);
  if (digest === undefined) {
    // A run uses a handful of tokens; the bound only guards against a suite minting thousands.
    if (callerDigests.size >= 256) callerDigests.clear();
    digest = createHash("sha256").update(authorization).digest("base64url").slice(0, 16);
    callerDigests.set(authorization, digest);
  }
  return digest;
}

/** The JSON value of a text, or undefined when it is not JSON. */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") return code;
  return (error as Error)?.name === "AbortError" ? "ABORTED" : "TRANSPORT";
}
