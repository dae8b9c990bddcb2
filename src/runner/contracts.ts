/**
 * The runner's contract types: what a request asks of the transport, what its caller gets back, how a run paces
 * itself. Types only, no implementation: the client, the pacer, the config and the suite API all import them
 * from here, so none of them imports another for a type (that made an import cycle).
 * @module
 */
import type { Exchange, RequestIntent } from "../core/exchange.ts";

/** `--rate-limit`: learn the target's windows (`auto`) or send at most N requests per second. */
export type RatePolicy = { readonly kind: "auto" } | { readonly kind: "fixed"; readonly perSecond: number };

/** The pacer's and the retries' clock: real time, or a fake one in tests. */
export interface PacerClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Told of a wait worth saying (a second or more): the pacing key, how long, and why. */
export type WaitListener = (key: string, waitMs: number, reason: "window" | "budget") => void;

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
  /** What a generated request means to be (recorded with it). */
  readonly intent?: RequestIntent;
}

/** What the caller gets: the live (unredacted) response, and the redacted record of it. */
export interface LiveResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** Parsed JSON when the body is labelled JSON and complete; undefined otherwise. */
  readonly json: unknown;
  /**
   * The body parsed as JSON whatever its Content-Type says (undefined when it is cut or does not parse): what a
   * create made is identified from it even when the target mislabels its answer. Judging uses `json`.
   */
  readonly parsed: unknown;
  /**
   * Why `json` is undefined though the answer is labelled JSON and has a complete body: it does not parse (the
   * parser's words), or it nests deeper than `maxRecordedDepth` (no walk of it could be bounded). Else undefined.
   */
  readonly unreadable?: string | undefined;
  readonly exchange: Exchange;
}
