/**
 * Secrets are replaced where an exchange is recorded, before any event or reporter sees it: the Authorization
 * header, access and refresh tokens, client secrets, passwords, private keys, token strings. The target's
 * Content-Type decides nothing: a body that parses as JSON is redacted by key, one shaped like a form by parameter,
 * and any other text by the values it puts next to secret-named keys; every secret found joins the run's known
 * values at once, and those are scrubbed everywhere as the last net. Walks of parsed values use no recursion (a
 * hostile answer nests thousands deep).
 * @module
 */

import { BoundedMemo } from "./bounded-memo.ts";

export const redactedPlaceholder = "[REDACTED]";

/**
 * The API's own redacted form (the description's `ssl_key: "<REDACTED>"`, an OAuth client's later `secret`): no
 * secret, so the recorder keeps it as it is, and a value under a secret key that the recorder did replace was
 * something else.
 */
export const describedRedactedForm = "<REDACTED>";

/** Keys whose values are always secret: in JSON bodies, forms and URL parameters. */
const secretKeys = new Set([
  "authorization",
  "access_token",
  "refresh_token",
  "client_secret",
  "secret",
  "root_pass",
  "password",
  "ssl_key",
  "token",
]);

/**
 * Parameters secret only where OAuth carries them, in forms and URLs: the authorization code of the redirect's
 * query and of the token request's form (RFC 6749 §4.1.2, §4.1.3). In a JSON body `code` is an ordinary field
 * (an error's code, a region's country code) and stays readable.
 */
const secretParameters = new Set([...secretKeys, "code"]);

const secretHeaders = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

/** True for a JSON body's key whose value is secret. */
export function isSecretKey(key: string): boolean {
  return secretKeys.has(key.toLowerCase());
}

/** True for a form field or URL parameter whose value is secret (the JSON keys and OAuth's `code`). */
export function isSecretParameter(key: string): boolean {
  return secretParameters.has(key.toLowerCase());
}

/** Key names seen in bodies, and whether each is secret: a body repeats its names, lower-casing each costs. */
const secretKeyNames = new BoundedMemo<string, boolean>(4096);

/**
 * Which (length, first letter) pairs a secret key can have, case-insensitively: a list page has hundreds of keys
 * and nearly none has a secret key's length and initial, so most are ruled out without a lookup. Index:
 * `length * 32 + (first char code & 31)` (ASCII letters of either case share the low 5 bits).
 */
const maxSecretKeyLength = Math.max(...[...secretKeys].map((key) => key.length));
const secretKeyShapes = new Uint8Array((maxSecretKeyLength + 1) * 32);
for (const key of secretKeys) secretKeyShapes[key.length * 32 + (key.charCodeAt(0) & 31)] = 1;

/** Whether a body's key is secret: most are ruled out by their shape, the rest looked up (remembered). */
function isSecretBodyKey(key: string): boolean {
  const length = key.length;
  if (length > maxSecretKeyLength || secretKeyShapes[length * 32 + (key.charCodeAt(0) & 31)] === 0)
    return false;
  return secretKeyNames.get(key, isSecretKey);
}

/**
 * Answers nested deeper than this are recorded as text, not as parsed JSON: every later walk of a recorded value
 * (reporters serialising it, JSON.stringify among them) recurses, and a few thousand levels overflow the stack.
 * No answer of this API nests beyond a dozen.
 */
export const maxRecordedDepth = 256;

/**
 * What a walk of a parsed JSON value found: a secret key, and nesting deeper than `maxDepth` (the walk stops there:
 * `secretKeys` then says only what it saw, and the caller treats the value as text).
 */
export interface JsonScan {
  readonly secretKeys: boolean;
  readonly tooDeep: boolean;
}

/**
 * Walks a parsed JSON value once, without recursion (a hostile answer nests thousands deep): whether it holds a
 * secret key anywhere and whether it nests deeper than `maxDepth`. It reads the parsed keys, so a key written with
 * escapes (`"\u0074oken"`) counts as what it says. Every recorded body passes here: most hold none.
 */
export function scanJson(value: unknown, maxDepth = maxRecordedDepth): JsonScan {
  if (typeof value !== "object" || value === null) return { secretKeys: false, tooDeep: false };
  const values: object[] = [value];
  const depths: number[] = [1];
  let secretKeys = false;
  while (values.length > 0) {
    const item = values.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return { secretKeys, tooDeep: true };
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index += 1) {
        const entry: unknown = item[index];
        if (typeof entry === "object" && entry !== null) {
          values.push(entry);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    const record = item as Record<string, unknown>;
    // for-in: parsed JSON is plain objects, and this walk is on the hot path (Object.entries allocates).
    for (const key in record) {
      if (!secretKeys && isSecretBodyKey(key)) secretKeys = true;
      const entry = record[key];
      if (typeof entry === "object" && entry !== null) {
        values.push(entry);
        depths.push(depth + 1);
      }
    }
  }
  return { secretKeys, tooDeep: false };
}

/** Whether a parsed JSON value holds a secret key anywhere (however deep). */
export function holdsSecretKeys(value: unknown): boolean {
  return scanJson(value, Number.POSITIVE_INFINITY).secretKeys;
}

/**
 * A copy of a JSON-like value, built without recursion: objects and arrays are copied, each leaf is what `map`
 * answers for it (with its key in an object).
 */
function mapJson(value: unknown, map: (entry: unknown, key: string | undefined) => unknown): unknown {
  const copy = (entry: unknown, key: string | undefined, pending: [object, object][]): unknown => {
    if (typeof entry !== "object" || entry === null) return map(entry, key);
    const container: object = Array.isArray(entry) ? [] : {};
    pending.push([entry, container]);
    return container;
  };
  const pending: [object, object][] = [];
  const root = copy(value, undefined, pending);
  while (pending.length > 0) {
    const [source, target] = pending.pop()!;
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (let index = 0; index < source.length; index += 1)
        out[index] = copy(source[index], undefined, pending);
      continue;
    }
    const out = target as Record<string, unknown>;
    for (const [key, entry] of Object.entries(source)) {
      if (key === "__proto__") continue;
      out[key] = copy(entry, key, pending);
    }
  }
  return root;
}

/** Redacts secret values in a parsed JSON value (by key), returning a copy. */
export function redactJson(value: unknown): unknown {
  return mapJson(value, (entry, key) =>
    key !== undefined && typeof entry === "string" && entry !== describedRedactedForm && isSecretKey(key)
      ? redactedPlaceholder
      : entry,
  );
}

/** Header names whose values are redacted or rewritten (lower case). */
const headersToRedact = new Set([...secretHeaders, "location"]);

/** True when a header's value is redacted or rewritten (`name` lower-cased). */
export function isRedactedHeader(name: string): boolean {
  return headersToRedact.has(name);
}

/**
 * Headers with lower-cased names and secret values redacted. The same object back when there is nothing to do
 * (lower-case names, none of them secret): most answers, and recording them is the runner's hot path.
 */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  for (const name in headers) {
    if (headersToRedact.has(name) || /[A-Z]/.test(name)) return redactedCopy(headers);
  }
  return headers as Record<string, string>;
}

/**
 * An Authorization value as recorded: its scheme kept, the credentials replaced. Every request of a run sends one
 * of its few tokens: the answer is remembered by value (bounded; the values are the run's own, never recorded).
 */
const redactedCredentials = new BoundedMemo<string, string>(64);
const redactCredentials = (value: string): string => {
  const scheme = /^(\S+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} ${redactedPlaceholder}` : redactedPlaceholder;
};

function redactedCopy(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  // for-in, not Object.entries: every request's headers come here (its Authorization), and no pair is built.
  for (const name in headers) {
    const value = headers[name] as string;
    const lower = name.toLowerCase();
    if (lower === "authorization" || lower === "proxy-authorization") {
      out[lower] = redactedCredentials.get(value, redactCredentials);
    } else if (lower === "location") {
      // OAuth redirects carry the code or the access token in the query or the fragment.
      out[lower] = redactUrl(value);
    } else out[lower] = secretHeaders.has(lower) ? redactedPlaceholder : value;
  }
  return out;
}

/** Redacts secret parameters of a query string or urlencoded form (`a=1&client_secret=x`). */
export function redactForm(text: string): string {
  const params = new URLSearchParams(text);
  let changed = false;
  for (const key of [...params.keys()]) {
    if (isSecretParameter(key)) {
      params.set(key, redactedPlaceholder);
      changed = true;
    }
  }
  return changed ? params.toString() : text;
}

/** Could a URL carry a secret parameter or userinfo? (False means it surely does not: no secret key name, nothing encoded, no `@`.) */
const mayHoldSecretParameter = new RegExp(`%|@|${[...secretParameters].join("|")}`, "i");

/** A URL as recorded: its userinfo (credentials) and secret parameters replaced. */
export function redactUrl(url: string): string {
  // Every recorded request passes here: most URLs name no secret key, and parsing them would change nothing.
  if (!mayHoldSecretParameter.test(url)) return url;
  const parsed = URL.parse(url);
  const userinfo = parsed !== null && (parsed.username !== "" || parsed.password !== "");
  if (!parsed || (!userinfo && parsed.search === "" && parsed.hash === "")) return url;
  const query = parsed.search ? `?${redactForm(parsed.search.slice(1))}` : "";
  const hash = parsed.hash ? `#${redactForm(parsed.hash.slice(1))}` : "";
  const origin = userinfo ? `${parsed.protocol}//${redactedPlaceholder}@${parsed.host}` : parsed.origin;
  return `${origin}${parsed.pathname}${query}${hash}`;
}

/** Adds the values of secret keys found in a parsed JSON value to the run's known secrets (no recursion). */
export function collectSecrets(value: unknown, into: SecretValues): void {
  const values: unknown[] = [value];
  while (values.length > 0) {
    const item = values.pop();
    if (typeof item !== "object" || item === null) continue;
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index += 1) values.push(item[index]);
      continue;
    }
    for (const [key, entry] of Object.entries(item)) {
      if (isSecretKey(key) && typeof entry === "string") into.add(entry);
      else values.push(entry);
    }
  }
}

/** Adds the values of a form's secret parameters (`code` included) to the run's known secrets. */
export function collectFormSecrets(text: string, into: SecretValues): void {
  for (const [key, value] of new URLSearchParams(text)) if (isSecretParameter(key)) into.add(value);
}

/**
 * A secret-named key followed by a value, in any text: JSON (`"token": "…"`, cut or not), forms and queries
 * (`token=…`), YAML or headers (`token: …`, `Authorization: Bearer …`). The value is what follows up to a quote,
 * white space or a separator. OAuth's `code` is left out: in free text it is as often an error's code.
 */
const secretInText = new RegExp(
  `(?:^|[^A-Za-z0-9_])["']?(?:${[...secretKeys].join("|")})["']?\\s*[:=]\\s*["']?(?:Bearer\\s+)?([^\\s"'&,;<>{}\\[\\]\\\\]+)`,
  "gi",
);

/** A secret-named XML element's text (`<password>…</password>`): XML answers name their fields as elements. */
const secretInXml = new RegExp(`<(?:${[...secretKeys].join("|")})\\s*>\\s*([^<\\s]+)\\s*<`, "gi");

/** The values next to secret-named keys in a text of any kind (see {@link secretInText}), or in their elements. */
export function secretsInText(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(secretInText)) if (match[1] !== undefined) found.push(match[1]);
  for (const match of text.matchAll(secretInXml)) if (match[1] !== undefined) found.push(match[1]);
  return found;
}

/** A body with no white space, made of `name=value` pairs joined by `&`: a form, whatever its label. */
const formShaped = /^[^\s=&]+=[^\s&]*(?:&[^\s=&]+=[^\s&]*)*$/;

/**
 * The recorded text of a body that is not JSON, whatever its Content-Type says: a form's secret parameters are
 * redacted, every value next to a secret-named key joins the run's known secrets at once, and known secrets are
 * scrubbed. The target's label decides nothing: a token in a `text/plain` answer is a token.
 */
export function redactText(text: string, secrets: SecretValues): string {
  let out = text;
  if (formShaped.test(text)) {
    collectFormSecrets(text, secrets);
    out = redactForm(text);
  }
  // Most bodies name no secret key at all: the scan below is skipped for them.
  if (mayHoldSecretParameter.test(out)) for (const value of secretsInText(out)) secrets.add(value);
  return secrets.scrub(out);
}

/**
 * The last net: replaces every occurrence of known secret values (the run's tokens, passwords) in a text.
 * Values shorter than 8 characters are ignored (they would blank out ordinary words).
 */
export class SecretValues {
  readonly #values = new Set<string>();
  /** The length of the shortest known value: a shorter text holds none (most header values, most URLs). */
  #shortest = Number.POSITIVE_INFINITY;

  add(value: string | undefined): void {
    // A placeholder (ours, the reference's `<REDACTED>`, or ours form-encoded) is no secret.
    if (!value || value.length < 8 || value.includes("REDACTED")) return;
    this.#values.add(value);
    this.#shortest = Math.min(this.#shortest, value.length);
  }

  scrub(text: string): string {
    if (text.length < this.#shortest) return text;
    let out = text;
    for (const value of this.#values)
      if (out.includes(value)) out = out.split(value).join(redactedPlaceholder);
    return out;
  }

  /** Scrubs a flat map of strings (headers); the same object back when nothing in it is secret (the common case). */
  scrubRecord(record: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    for (const value of Object.values(record)) if (this.appearsIn(value)) return this.scrubDeep(record);
    return record;
  }

  /** True when a known secret value occurs in the text. */
  appearsIn(text: string): boolean {
    // The length tests first: a search for a long value sets up a table each time, and most texts (header
    // values) are shorter than any secret; checking the shortest spares iterating the set for them.
    if (text.length < this.#shortest) return false;
    for (const value of this.#values) if (text.length >= value.length && text.includes(value)) return true;
    return false;
  }

  /** Scrubs every string inside a JSON-like value (header maps, parsed bodies), returning a copy (no recursion). */
  scrubDeep<T>(value: T): T {
    if (this.#values.size === 0) return value;
    return mapJson(value, (entry) => (typeof entry === "string" ? this.scrub(entry) : entry)) as T;
  }

  get size(): number {
    return this.#values.size;
  }
}
