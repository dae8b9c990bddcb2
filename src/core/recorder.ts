/**
 * The one recorder: what a request and an answer become in an {@link Exchange}, for every path that records one
 * (the runner's transport, `conform proxy`, `conform verify`), through the one redaction policy
 * (`redaction-policy.ts`): secrets learnt on the way and redacted, known ones scrubbed. The target's Content-Type
 * decides nothing for redaction: a body that parses as JSON is redacted by key. It decides what checks judge as
 * JSON (`json`), while `parsed` is the body's JSON whatever its label.
 * @module
 */
import type { RecordedRequest, RecordedResponse, RequestIntent } from "./exchange.ts";
import { isRedactedHeader, maxRecordedDepth, type SecretValues } from "./redact.ts";
import { recordBody, recordHeaders, recordUrl } from "./redaction-policy.ts";

/** A request as it was sent (or observed), before recording. */
export interface RequestParts {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly body?: string | undefined;
  readonly breaks?: string | undefined;
  readonly intent?: RequestIntent | undefined;
}

/**
 * The recorded request. `secretHeaderNames`: headers (lower case) whose values are never recorded, whatever their
 * length (the user's `--header` values secret by their names).
 */
export function recordRequest(
  parts: RequestParts,
  secrets: SecretValues,
  secretHeaderNames?: ReadonlySet<string>,
): RecordedRequest {
  const recorded: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
    method: parts.method,
    url: recordUrl(parts.url, secrets),
    headers: recordHeaders(parts.headers ?? {}, secrets, secretHeaderNames),
    body:
      parts.body === undefined ? undefined : recordBody(parts.body, parsedIfJson(parts.body), secrets).text,
  };
  // Set only on the rare negative request: a spread into the literal would build every record the slow way.
  if (parts.breaks !== undefined) recorded.breaks = parts.breaks;
  if (parts.intent !== undefined) recorded.intent = parts.intent;
  return recorded;
}

/**
 * The live and the recorded headers of an answer as undici gives them: lower-cased names and a string per header
 * (arrays only for repeated ones). Most answers need no joining and no redaction and hold no known secret, and then
 * both are the object undici made. One pass over it decides: every answer pays this.
 */
export function answerHeaders(
  headers: Record<string, string | string[] | undefined>,
  secrets: SecretValues,
): { live: Record<string, string>; recorded: Readonly<Record<string, string>> } {
  // for-in: undici's header objects are in dictionary mode, where Object.keys/values cost more.
  for (const name in headers) {
    const value = headers[name];
    if (typeof value !== "string" || isRedactedHeader(name) || secrets.appearsIn(value)) {
      const live = flatHeaders(headers);
      return { live, recorded: recordHeaders(live, secrets) };
    }
  }
  const clean = headers as Record<string, string>;
  return { live: clean, recorded: clean };
}

/** Header names lower-cased, a repeated header's values joined with `, ` (RFC 9110 §5.3). */
export function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** An answer as it came (its body decoded), before recording. `headers` are already recorded (lower-cased). */
export interface AnswerParts {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body's size as it came. */
  readonly bytes: number;
  /** `text` holds only the body's first part. */
  readonly truncated: boolean;
}

/** A recorded answer, and what its caller reads of the live body. */
export interface ReadAnswer {
  readonly response: RecordedResponse;
  /** The live JSON when the answer is labelled JSON and parses (within `maxRecordedDepth`). */
  readonly json: unknown;
  /** The live JSON whatever the label. */
  readonly parsed: unknown;
  /** Why a complete body labelled JSON has no `json`; else undefined. */
  readonly unreadable: string | undefined;
}

export function recordAnswer(answer: AnswerParts, secrets: SecretValues): ReadAnswer {
  const { text, truncated } = answer;
  // Parsed whatever the label: a mislabelled answer still teaches its secrets and names what it created.
  const labelled = isJson(answer.headers["content-type"]);
  // A body cut short (a proxy's bound) is parsed too: cut JSON does not parse, and one that does is judged.
  let parsed: unknown = text === "" ? undefined : labelled ? parsedOrWhyNot(text) : parsedIfJson(text);
  let unreadable: string | undefined;
  if (parsed instanceof NotJson) {
    unreadable = parsed.message;
    parsed = undefined;
  }
  const recorded = recordBody(text, parsed, secrets);
  if (parsed !== undefined && recorded.json === undefined) {
    // Recorded as text, too deep: a suite walking it (or quoting it in an assertion) would overflow the stack.
    parsed = undefined;
    if (labelled) unreadable = `nests deeper than ${maxRecordedDepth} levels`;
  }
  const response: RecordedResponse = {
    status: answer.status,
    headers: answer.headers,
    json: labelled ? recorded.json : undefined,
    text: recorded.text,
    truncated,
    bytes: answer.bytes,
  };
  return { response, json: labelled ? parsed : undefined, parsed, unreadable };
}

/** A Content-Type that labels its body JSON (`application/json`, a `+json` type). */
export function isJson(contentType: string | undefined): boolean {
  return /^application\/([\w.+-]*\+)?json\b/i.test(contentType ?? "");
}

/** The JSON value of a text that opens like an object or an array, whatever its label; else undefined. */
export function parsedIfJson(text: string): unknown {
  const first = /\S/.exec(text.length > 64 ? text.slice(0, 64) : text)?.[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
