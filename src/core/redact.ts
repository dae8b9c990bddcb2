/**
 * Secrets are replaced where an exchange is recorded, before any event or reporter sees it: the Authorization
 * header, access and refresh tokens, client secrets, passwords, private keys, token strings. Redaction is by key
 * name (JSON bodies, form bodies, headers, URL query) and, as a last net, by the exact secret values the run knows.
 * @module
 */

import { BoundedMemo } from "./bounded-memo.ts";

export const redactedPlaceholder = "[REDACTED]";

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
 * Whether a parsed JSON value holds a secret key anywhere. It reads the parsed keys, so a key written with
 * escapes (`"\u0074oken"`) counts as what it says. Every recorded body passes here: most hold none.
 */
export function holdsSecretKeys(value: unknown): boolean {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      if (typeof item === "object" && item !== null && holdsSecretKeys(item)) return true;
    }
    return false;
  }
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  // for-in: parsed JSON is plain objects, and this walk is on the hot path (Object.entries allocates).
  for (const key in record) {
    if (secretKeyNames.get(key, isSecretKey)) return true;
    const entry = record[key];
    if (typeof entry === "object" && entry !== null && holdsSecretKeys(entry)) return true;
  }
  return false;
}

/** Redacts secret values in a parsed JSON value (by key), returning a copy. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === "__proto__") continue;
    out[key] =
      isSecretKey(key) && typeof entry === "string" && entry !== "<REDACTED>"
        ? redactedPlaceholder
        : redactJson(entry);
  }
  return out;
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
  for (const name of Object.keys(headers)) {
    if (headersToRedact.has(name) || /[A-Z]/.test(name)) return redactedCopy(headers);
  }
  return headers as Record<string, string>;
}

function redactedCopy(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === "authorization" || lower === "proxy-authorization") {
      const scheme = /^(\S+)\s/.exec(value)?.[1];
      out[lower] = scheme ? `${scheme} ${redactedPlaceholder}` : redactedPlaceholder;
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

/** Could a URL carry a secret parameter? (False means it surely does not: no secret key name, nothing encoded.) */
const mayHoldSecretParameter = new RegExp(`%|${[...secretParameters].join("|")}`, "i");

export function redactUrl(url: string): string {
  // Every recorded request passes here: most URLs name no secret key, and parsing them would change nothing.
  if (!mayHoldSecretParameter.test(url)) return url;
  const parsed = URL.parse(url);
  if (!parsed || (parsed.search === "" && parsed.hash === "")) return url;
  const query = parsed.search ? `?${redactForm(parsed.search.slice(1))}` : "";
  const hash = parsed.hash ? `#${redactForm(parsed.hash.slice(1))}` : "";
  return `${parsed.origin}${parsed.pathname}${query}${hash}`;
}

/** Adds the values of secret keys found in a parsed JSON value to the run's known secrets. */
export function collectSecrets(value: unknown, into: SecretValues): void {
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, into);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, entry] of Object.entries(value)) {
    if (isSecretKey(key) && typeof entry === "string") into.add(entry);
    else collectSecrets(entry, into);
  }
}

/** Adds the values of a form's secret parameters (`code` included) to the run's known secrets. */
export function collectFormSecrets(text: string, into: SecretValues): void {
  for (const [key, value] of new URLSearchParams(text)) if (isSecretParameter(key)) into.add(value);
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
    if (!value || value.length < 8 || value === "<REDACTED>") return;
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

  /** Scrubs every string inside a JSON-like value (header maps, parsed bodies), returning a copy. */
  scrubDeep<T>(value: T): T {
    if (this.#values.size === 0) return value;
    if (typeof value === "string") return this.scrub(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.scrubDeep(item)) as T;
    if (typeof value !== "object" || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) out[key] = this.scrubDeep(entry);
    return out as T;
  }

  get size(): number {
    return this.#values.size;
  }
}
