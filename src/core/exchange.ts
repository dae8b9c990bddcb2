/**
 * One HTTP request and its response as recorded by the runner's client: transport-neutral, serialisable, and
 * already redacted (secrets never reach events, reporters or report files).
 * @module
 */

export interface RecordedRequest {
  readonly method: string;
  /** Absolute URL (query included). */
  readonly url: string;
  /** Lower-cased names; secrets replaced by placeholders. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent (text), redacted; undefined when none. */
  readonly body: string | undefined;
  /** What a deliberately invalid request breaks, as its suite said; absent for requests meant to be valid. */
  readonly breaks?: string;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON when the body is JSON, else undefined. Redacted. */
  readonly json: unknown;
  /** The body text (redacted); a failing exchange kept for the reports may be cut (`--kept-body-bytes`), `truncated` says so. */
  readonly text: string;
  readonly truncated: boolean;
  readonly bytes: number;
}

export interface Timings {
  /** Epoch ms when the request started. */
  readonly startedAt: number;
  /** Milliseconds until the response headers arrived. */
  readonly headersMs: number;
  /** Milliseconds until the body was read. */
  readonly totalMs: number;
  /** False when nothing was measured (a recording without timings, its durations 0): no latency to tell. */
  readonly measured?: false;
}

export interface Exchange {
  /** Unique within a run. */
  readonly id: number;
  readonly request: RecordedRequest;
  /** Undefined when the request failed at the transport level (see `error`). */
  readonly response: RecordedResponse | undefined;
  readonly error: { readonly code: string; readonly message: string } | undefined;
  readonly timings: Timings;
  /** The spec operation it matched, if any. */
  readonly operationId: string | undefined;
  /** How many 429 answers were retried before this one. */
  readonly retries: number;
}
