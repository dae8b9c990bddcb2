/**
 * Turning an observed request and answer (a proxy's, a recording's) into a recorded {@link Exchange} through the
 * one recorder the runner's transport records its own with (`core/recorder.ts`, by the one redaction policy):
 * header names lower-cased, secrets redacted and learnt, every secret learnt so far scrubbed wherever it appears,
 * the operation matched.
 * @module
 */
import type { RecordingGaps } from "../checks/types.ts";
import type { Exchange, RequestIntent } from "../core/exchange.ts";
import { recordAnswer, recordRequest } from "../core/recorder.ts";
import { SecretValues } from "../core/redact.ts";
import { recordHeaders } from "../core/redaction-policy.ts";
import { operationMatchOf } from "../runner/operation-matcher.ts";
import type { ApiSpec } from "../spec/types.ts";

export interface ObservedExchange {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody: string | undefined;
  /** Undefined when no answer came. */
  readonly response:
    | {
        readonly status: number;
        readonly headers: Readonly<Record<string, string>>;
        readonly body: string;
        /** The body's size as it came, when `body` holds only its first part (a proxy's bound). */
        readonly bytes?: number;
      }
    | undefined;
  readonly error?: { readonly code: string; readonly message: string };
  readonly startedAt: number;
  readonly headersMs: number;
  readonly totalMs: number;
  /** False when the recording holds no timings (a cassette without durations): its 0 ms are not a latency. */
  readonly measured?: false;
  /** Set when the recording said so (a HAR of conform's own run). */
  readonly breaks?: string;
  /** The generic layer's intent, when the recording kept it (a HAR of conform's own run). */
  readonly intent?: RequestIntent;
  /** What the recording it comes from may lack (shared by the exchanges of one file). */
  readonly recording?: RecordingGaps;
}

/**
 * Which operation a URL hits when the API's base URL is not known: the path after its version segment (`/v4`),
 * else the path as it is; login-server operations by their path as it is.
 */
export function trafficMatcher(
  spec: ApiSpec,
  baseUrl?: string,
): (method: string, url: string) => string | undefined {
  const fixed = baseUrl
    ? operationMatchOf(spec, { baseUrl, authUrl: baseUrl, embedded: false, writesAllowed: false })
    : undefined;
  return (method, url) => {
    if (fixed) return fixed(method, url)?.operation.operationId;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    const verb = method.toUpperCase() === "HEAD" ? "GET" : method;
    const path = parsed.pathname;
    const version = /^(.*?\/v\d+[a-z]*)(\/.*)?$/.exec(path);
    const api = version ? spec.operations.match(verb, version[2] ?? "/") : undefined;
    if (api && api.operation.serverUrl === undefined) return api.operation.operationId;
    const direct = spec.operations.match(verb, path);
    return direct?.operation.operationId;
  };
}

export class ExchangeRecorder {
  readonly secrets = new SecretValues();
  readonly #match: (method: string, url: string) => string | undefined;
  #nextId = 1;

  constructor(spec: ApiSpec, baseUrl?: string) {
    this.#match = trafficMatcher(spec, baseUrl);
  }

  /** Learns the credentials of headers that are not recorded (a proxy's hop-by-hop ones). */
  learnHeaders(headers: Readonly<Record<string, string>>): void {
    recordHeaders(headers, this.secrets);
  }

  /** Learns what an exchange teaches without recording it (a recording read whole: its later secrets too). */
  learn(observed: ObservedExchange): void {
    this.#recorded(observed);
  }

  /**
   * An exchange recorded elsewhere (the proxy's own requests, through the runner's client) under this recorder's
   * next id: ids stay unique in the session.
   */
  adopt(exchange: Exchange): Exchange {
    return { ...exchange, id: this.#nextId++ };
  }

  record(observed: ObservedExchange): Exchange {
    const { request, response } = this.#recorded(observed);
    return {
      id: this.#nextId++,
      request,
      response,
      error: response
        ? undefined
        : (observed.error ?? { code: "NO_RESPONSE", message: "no response recorded" }),
      timings: {
        startedAt: observed.startedAt,
        headersMs: observed.headersMs,
        totalMs: observed.totalMs,
        ...(observed.measured === false ? { measured: false as const } : {}),
      },
      operationId: this.#match(observed.method, observed.url),
      retries: 0,
    };
  }

  /** The request and the answer as the one recorder records them (`core/recorder.ts`), as the runner's own. */
  #recorded(observed: ObservedExchange): Pick<Exchange, "request" | "response"> {
    const body = observed.requestBody === "" ? undefined : observed.requestBody;
    const request = recordRequest(
      {
        method: observed.method.toUpperCase(),
        url: observed.url,
        headers: observed.requestHeaders,
        body,
        breaks: observed.breaks,
        intent: observed.intent,
      },
      this.secrets,
    );
    const answer = observed.response;
    if (!answer) return { request, response: undefined };
    const { response } = recordAnswer(
      {
        status: answer.status,
        headers: recordHeaders(answer.headers, this.secrets),
        text: answer.body,
        bytes: answer.bytes ?? Buffer.byteLength(answer.body),
        truncated: answer.bytes !== undefined,
      },
      this.secrets,
    );
    return { request, response };
  }
}
