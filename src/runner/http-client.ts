/**
 * The runner's HTTP client on undici: one keep-alive Agent (a pool per origin) with connect, headers and body
 * timeouts, TLS options, a cap on response size, pacing and bounded 429 retries. Every attempt is recorded as an
 * Exchange, redacted at the point of recording: the caller gets the live response for its own use, everyone
 * else (events, checks, reporters) only ever sees the redacted record.
 * @module
 */
import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { Agent, type Dispatcher, request, errors as undiciErrors } from "undici";
import { BoundedMemo } from "../core/bounded-memo.ts";
import { WaitTooLongError } from "../core/errors.ts";
import type { Exchange, RecordedRequest, RecordedResponse } from "../core/exchange.ts";
import { isRedactedHeader, maxRecordedDepth, type SecretValues } from "../core/redact.ts";
import { recordBody, recordHeaders, recordUrl } from "../core/redaction-policy.ts";
import { abortRelayOf } from "./abort-relay.ts";
import { secretHeaderNames, withAddedHeaders } from "./added-headers.ts";
import type { LiveResponse, OutgoingRequest, PacerClock } from "./contracts.ts";
import { announcedWaitMs, type RatePacer, realPacerClock } from "./rate-pacer.ts";
import { transportReason } from "./transport-reason.ts";

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
      return { live, recorded: recordHeaders(live, secrets) };
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
  readonly #deadlines: ReadDeadlines;
  /** Added headers whose values are never recorded (secret by their names). */
  readonly #secretHeaderNames: ReadonlySet<string>;
  #nextId = 1;
  /** 429 answers retried, and 429 answers seen, for the report. */
  retries = 0;
  rateLimited = 0;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#clock = options.clock ?? realPacerClock;
    this.#deadlines = new ReadDeadlines(options.requestDeadlineMs);
    this.#secretHeaderNames = secretHeaderNames(options.addedHeaders ?? {});
    for (const name of this.#secretHeaderNames) options.secrets.add(options.addedHeaders?.[name]);
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
    this.#deadlines.stop();
    await this.#agent.close();
  }

  /**
   * Sends a request, pacing it and retrying 429s (unless `retry: false`); `observe` sees every recorded attempt.
   * Throws TransportError when no answer came.
   */
  async send(
    given: OutgoingRequest,
    observe: (exchange: Exchange) => void = () => {},
  ): Promise<LiveResponse> {
    const added = this.#options.addedHeaders;
    const outgoing =
      added === undefined ? given : { ...given, headers: withAddedHeaders(given.headers, added) };
    const operationId = this.#options.matchOperation(outgoing.method, outgoing.url);
    // Targets limit per token (or per address without one) and per kind of endpoint: a window one token spent
    // must not hold another token's requests.
    const key =
      operationId === undefined
        ? `${outgoing.method} ${new URL(outgoing.url).pathname}\u0000${callerOf(outgoing)}`
        : pacingKeyOf(operationId, callerOf(outgoing));
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
      const wait = retryAfterMs(live.headers["retry-after"], this.#clock.now()) ?? 1000;
      // A target asking for a day must not hold the run for a day (nor a few minutes per request).
      if (wait > this.#options.maxWaitMs)
        throw new WaitTooLongError(
          `${outgoing.method} ${live.exchange.request.url} answered 429 asking to wait ${seconds(wait)} (Retry-After: ${live.headers["retry-after"]}), beyond the ${seconds(this.#options.maxWaitMs)} ceiling (--max-wait)`,
        );
      this.retries += 1;
      if (wait >= announcedWaitMs) this.#options.onRetryWait?.(key, wait);
      await this.#clock.sleep(wait, outgoing.signal);
    }
  }

  private recordRequest(outgoing: OutgoingRequest): RecordedRequest {
    const secrets = this.#options.secrets;
    const headers = recordHeaders(outgoing.headers ?? {}, secrets, this.#secretHeaderNames);
    const body =
      outgoing.body === undefined
        ? undefined
        : recordBody(outgoing.body, parsedIfJson(outgoing.body), secrets).text;
    const recorded: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
      method: outgoing.method,
      url: recordUrl(outgoing.url, secrets),
      headers,
      body,
    };
    // Set only on the rare negative request: a spread into the literal would build every record the slow way.
    if (outgoing.breaks !== undefined) recorded.breaks = outgoing.breaks;
    if (outgoing.intent !== undefined) recorded.intent = outgoing.intent;
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
      const method = outgoing.method as Dispatcher.HttpMethod;
      const { headers: sent, body } = outgoing;
      // ...but lets a write in flight finish (within the timeout): cancelled, what it created would be unknown
      // to the cleanup ledger and left behind.
      const signal =
        outgoing.signal && (safeMethods.has(method) || safeMethods.has(method.toUpperCase()))
          ? abortRelayOf(outgoing.signal)
          : undefined;
      // The agent is asked directly with the URL's origin and path, remembered per URL (undici's `request(url)`
      // parses it on every call); a URL undici would refuse goes through `request` for undici's own error. One
      // literal each way: no options object copied per request.
      const target = dispatchTargets.get(outgoing.url, dispatchTargetOf);
      const answer = target
        ? await this.#agent.request({
            origin: target.origin,
            path: target.path,
            method,
            headers: sent,
            body,
            signal,
          })
        : await request(outgoing.url, { method, headers: sent, body, signal, dispatcher: this.#agent });
      headersMs = performance.now() - started;
      const { live: headers, recorded: recordedHeaders } = answerHeaders(
        answer.headers,
        this.#options.secrets,
      );
      const { text, bytes, truncated } = await this.readBody(answer.body, headers);
      // Parsed whatever the label: a mislabelled answer still teaches its secrets and names what it created.
      const labelled = isJson(headers["content-type"]);
      let parsed: unknown =
        truncated || text === "" ? undefined : labelled ? parsedOrWhyNot(text) : parsedIfJson(text);
      let unreadable: string | undefined;
      if (parsed instanceof NotJson) {
        unreadable = parsed.message;
        parsed = undefined;
      }
      const recorded = recordBody(text, parsed, this.#options.secrets);
      if (parsed !== undefined && recorded.json === undefined) {
        // Recorded as text, too deep: a suite walking it (or quoting it in an assertion) would overflow the stack.
        parsed = undefined;
        if (labelled) unreadable = `nests deeper than ${maxRecordedDepth} levels`;
      }
      const json = labelled ? parsed : undefined;
      const response: RecordedResponse = {
        status: answer.statusCode,
        headers: recordedHeaders,
        json: labelled ? recorded.json : undefined,
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
      return { status: answer.statusCode, headers, text, json, parsed, unreadable, exchange };
    } catch (error) {
      const code =
        error instanceof undiciErrors.UndiciError
          ? String((error as { code?: string }).code)
          : errorCode(error);
      // A bound of the client (too large, too slow, silent too long): its words say which bound and its option.
      const exchange: Exchange = {
        id: exchangeId,
        request: recordedRequest,
        response: undefined,
        error: { code, message: this.#options.secrets.scrub(transportReason(error, this.#options)) },
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
   * Reads a body within the client's bounds: at most `maxResponseBytes` as received and as decoded (a gzip bomb is
   * stopped by its decoded size), and no later than `requestDeadlineMs` after the headers came (undici's body
   * timeout is per chunk: a byte every few seconds never trips it; `ReadDeadlines` stops it within a tenth more). Beyond a bound the body is destroyed, nothing
   * more is read and the exchange fails (BoundHit: RESPONSE_TOO_LARGE or REQUEST_DEADLINE).
   */
  private async readBody(
    body: Dispatcher.ResponseData["body"],
    headers: Readonly<Record<string, string>>,
  ): Promise<{ text: string; bytes: number; truncated: boolean }> {
    const cap = this.#options.maxResponseBytes;
    const deadlineMs = this.#options.requestDeadlineMs;
    let hit: BoundHit | undefined;
    const read = this.#deadlines.start(performance.now() + deadlineMs, () => {
      hit = new BoundHit(
        "REQUEST_DEADLINE",
        `the answer (${headers["content-type"] ?? "no content type"}) did not end within ${deadlineMs} ms of its headers (--request-deadline); reading stopped`,
      );
      body.destroy(hit);
    });
    try {
      let raw: Buffer;
      const declared = headers["content-length"];
      if (declared !== undefined && Number(declared) > cap) {
        // Left unread, the body would hold its socket paused: the agent's close and the requests queued behind it
        // would never settle (and Node, finding nothing else to do, would end the run without its verdict).
        body.destroy();
        throw tooLarge(headers, cap, Number(declared));
      }
      if (declared !== undefined) {
        // Most answers declare a length within the cap: read whole at once, cheaper than iterating chunks.
        const whole = await body.bytes();
        raw = Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength);
      } else {
        const chunks: Buffer[] = [];
        let bytes = 0;
        for await (const chunk of body as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          if (bytes > cap) {
            body.destroy();
            throw tooLarge(headers, cap, undefined);
          }
          chunks.push(chunk);
        }
        raw = Buffer.concat(chunks);
      }
      const decoded = decodedBody(raw, headers, cap);
      return { text: decoded.toString("utf8"), bytes: raw.byteLength, truncated: false };
    } catch (error) {
      // Whatever stopped the read (a bound, a decoding error), the connection is freed: never left paused.
      if (!body.destroyed) body.destroy();
      throw hit ?? error;
    } finally {
      this.#deadlines.end(read);
    }
  }
}

interface Read {
  /** `performance.now()` past which the read is stopped. */
  readonly at: number;
  readonly expire: () => void;
}

/**
 * The deadlines of the bodies being read, swept by one timer: a timer per request cost every request a Timeout
 * and two updates of Node's timer lists. A read is stopped within a tenth of the deadline (10 ms to 1 s) after it
 * passed. The timer is unref'd (a read in flight holds its socket anyway) and stops once a sweep finds no read.
 */
class ReadDeadlines {
  readonly #reads = new Set<Read>();
  readonly #periodMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(deadlineMs: number) {
    this.#periodMs = Math.min(1000, Math.max(10, Math.floor(deadlineMs / 10)));
  }

  start(at: number, expire: () => void): Read {
    const read: Read = { at, expire };
    this.#reads.add(read);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.#periodMs);
      this.#timer.unref();
    }
    return read;
  }

  end(read: Read): void {
    this.#reads.delete(read);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    if (this.#reads.size === 0) {
      this.stop();
      return;
    }
    const now = performance.now();
    for (const read of this.#reads) {
      if (read.at > now) continue;
      this.#reads.delete(read);
      read.expire();
    }
  }
}

/** A bound of the client was hit reading an answer: the exchange fails with this code and message. */
class BoundHit extends Error {
  readonly code: "RESPONSE_TOO_LARGE" | "REQUEST_DEADLINE";
  constructor(code: "RESPONSE_TOO_LARGE" | "REQUEST_DEADLINE", message: string) {
    super(message);
    this.code = code;
  }
}

function tooLarge(headers: Readonly<Record<string, string>>, cap: number, declared: number | undefined) {
  const size = declared === undefined ? `more than ${cap} bytes` : `${declared} bytes declared`;
  return new BoundHit(
    "RESPONSE_TOO_LARGE",
    `answer too large: ${headers["content-type"] ?? "no content type"}, ${size}, above the ${cap}-byte cap (--max-response-bytes); reading stopped`,
  );
}

/**
 * The body as decoded by its `Content-Encoding` (conform asks for none, but a target may send one anyway), never
 * more than `cap` bytes of it; an encoding Node does not know is kept as it came.
 */
function decodedBody(raw: Buffer, headers: Readonly<Record<string, string>>, cap: number): Buffer {
  const encoding = headers["content-encoding"]?.trim().toLowerCase();
  if (!encoding || encoding === "identity" || raw.byteLength === 0) return raw;
  const decode =
    encoding === "gzip" || encoding === "x-gzip"
      ? gunzipSync
      : encoding === "deflate"
        ? inflateSync
        : encoding === "br"
          ? brotliDecompressSync
          : undefined;
  if (!decode) return raw;
  try {
    return decode(raw, { maxOutputLength: cap });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
      throw new BoundHit(
        "RESPONSE_TOO_LARGE",
        `answer too large: ${raw.byteLength} bytes of ${encoding} decode to more than the ${cap}-byte cap (--max-response-bytes); decoding stopped`,
      );
    // Not decodable as labelled: judged as the bytes that came.
    return raw;
  }
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

/** Where undici sends a URL: its origin and its path with the query, as undici's `request(url)` derives them. */
interface DispatchTarget {
  readonly origin: string;
  readonly path: string;
}

/** By URL: a run sends the same URLs again and again; bounded, so a campaign of distinct URLs cannot grow it. */
const dispatchTargets = new BoundedMemo<string, DispatchTarget | undefined>(4096);

/** Undefined for a URL undici would refuse (not absolute, not http or https): `request` then says why. */
function dispatchTargetOf(url: string): DispatchTarget | undefined {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return undefined;
  return {
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
  };
}

/**
 * `<operation>\u0000<caller>`, the same string each time for the same pair: the pacer looks it up three times per
 * request, and a string built anew would be hashed anew each time.
 */
const pacingKeys = new Map<string, BoundedMemo<string, string>>();

function pacingKeyOf(operationId: string, caller: string): string {
  let byOperation = pacingKeys.get(caller);
  if (!byOperation) {
    // Callers are a run's few tokens (their digests are bounded the same way).
    if (pacingKeys.size >= 256) pacingKeys.clear();
    byOperation = new BoundedMemo(4096);
    pacingKeys.set(caller, byOperation);
  }
  return byOperation.get(operationId, (id) => `${id}\u0000${caller}`);
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

/** The JSON value of a text that opens like an object or an array, whatever its label; else undefined. */
function parsedIfJson(text: string): unknown {
  const first = /\S/.exec(text.length > 64 ? text.slice(0, 64) : text)?.[0];
  return first === "{" || first === "[" ? parsedOrUndefined(text) : undefined;
}

/** Why a body labelled JSON is not JSON (the parser's words, cut short). */
class NotJson {
  readonly message: string;
  constructor(error: unknown) {
    this.message = `is not JSON (${String((error as Error)?.message).slice(0, 160)})`;
  }
}

/** The JSON value of a text labelled JSON, or why it is none. */
function parsedOrWhyNot(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return new NotJson(error);
  }
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
