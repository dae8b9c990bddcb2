/**
 * Turning an observed request and answer (a proxy's, a recording's) into a recorded {@link Exchange} as the
 * runner's client records its own, by the same policy (`core/redaction-policy.ts`): header names lower-cased,
 * secrets redacted and learnt, every secret learnt so far scrubbed wherever it appears, the operation matched.
 * @module
 */
import { createHash } from "node:crypto";
import type { RecordingGaps } from "../checks/types.ts";
import type { Exchange, RecordedRequest, RecordedResponse, RequestIntent } from "../core/exchange.ts";
import { SecretValues } from "../core/redact.ts";
import { recordBody, recordHeaders, recordUrl } from "../core/redaction-policy.ts";
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

function parsedJson(text: string): unknown {
  const first = /\S/.exec(text.slice(0, 64))?.[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isJsonType = (type: string | undefined) => type !== undefined && /[/+]json\b/i.test(type);

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

/**
 * Who sent a request, as far as its headers tell: a short digest of its credential (never the credential), or
 * undefined when it has none or a recording redacted it.
 */
export function callerOf(headers: Readonly<Record<string, string>>): string | undefined {
  const credential = Object.entries(headers).find(([name]) => name.toLowerCase() === "authorization")?.[1];
  if (!credential || /redacted|\*{3}|^\s*(bearer|basic)?\s*$/i.test(credential)) return undefined;
  return createHash("sha256").update(credential).digest("hex").slice(0, 12);
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
    recordHeaders(observed.requestHeaders, this.secrets);
    recordUrl(observed.url, this.secrets);
    if (observed.requestBody)
      recordBody(observed.requestBody, parsedJson(observed.requestBody), this.secrets);
    if (observed.response) {
      recordHeaders(observed.response.headers, this.secrets);
      recordBody(observed.response.body, parsedJson(observed.response.body), this.secrets);
    }
  }

  record(observed: ObservedExchange): Exchange {
    const requestHeaders = recordHeaders(observed.requestHeaders, this.secrets);
    const request: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
      method: observed.method.toUpperCase(),
      url: recordUrl(observed.url, this.secrets),
      headers: requestHeaders,
      body:
        observed.requestBody === undefined || observed.requestBody === ""
          ? undefined
          : recordBody(observed.requestBody, parsedJson(observed.requestBody), this.secrets).text,
    };
    if (observed.breaks !== undefined) request.breaks = observed.breaks;
    if (observed.intent !== undefined) request.intent = observed.intent;
    let response: RecordedResponse | undefined;
    if (observed.response) {
      const headers = recordHeaders(observed.response.headers, this.secrets);
      const body = recordBody(observed.response.body, parsedJson(observed.response.body), this.secrets);
      response = {
        status: observed.response.status,
        headers,
        json: isJsonType(headers["content-type"]) ? body.json : undefined,
        text: body.text,
        truncated: observed.response.bytes !== undefined,
        bytes: observed.response.bytes ?? Buffer.byteLength(observed.response.body),
      };
    }
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
}
