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
  /** What a generated request means to be (valid or breaking named rules) and for which operation; see {@link RequestIntent}. */
  readonly intent?: RequestIntent;
}

/** Where a rule of a request was broken: a body pointer, a query parameter's name, a path parameter's name. */
export interface BrokenRule {
  readonly in: "body" | "query" | "path" | "header" | "cookie";
  /** The body's JSON pointer (`""`: the whole body), or the parameter's name. */
  readonly at: string;
  /** The rule broken, kebab-case (`violate-bound`, `change-type`). */
  readonly rule: string;
  /** What was put there instead. */
  readonly detail?: string;
}

/**
 * The intent of a request generated from the description alone (the generic layer): the two generic checks judge
 * its answer by it, and a coverage table can count it per operation. Absent on requests written by hand.
 */
export interface RequestIntent {
  readonly operationId: string;
  /** `positive`: the description allows it, so it must not be refused; `negative`: it breaks `broken`. */
  readonly mode: "positive" | "negative";
  /** Named scenario, kebab-case (`minimal-valid`, `body-violate-bound`, `several-rules`). */
  readonly scenario: string;
  /** The rules broken; non-empty exactly when `mode` is `negative`. */
  readonly broken?: readonly BrokenRule[];
  /**
   * Path parameters whose values were drawn from their schema rather than found in the target's answers: the
   * resource may really be absent, so a 404 says nothing of the request's validity.
   */
  readonly drawnPath?: readonly string[];
  /**
   * Request fields (the API's error style: `label`, `nodes[0].address`) whose values the description does not pin
   * down (drawn from a schema that allows any text, or naming another resource: `compute_id`): a refusal naming
   * only these may follow a rule the description states in prose at best (a referenced resource that exists, a
   * unique label, a strong password), so it is not judged.
   */
  readonly unpinned?: readonly string[];
  /** Why the description cannot tell whether this request is valid: the judgement is skipped with it. */
  readonly undecidable?: string;
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
