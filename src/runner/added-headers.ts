/**
 * Headers a user adds to every request of a run (`-H "X-Tenant: acme"`): a tenant, a gateway key. A request that
 * sets the header itself keeps its own (a suite testing a header means what it sends). Authorization is refused:
 * the token has its own options, redacted and checked as the token.
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import { looksSecretHeaderName } from "../core/redaction-policy.ts";

/** RFC 9110 §5.1: a header name is a token. */
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers the run's token options own, or that the client computes: giving them by hand would be wrong. */
const refused: Readonly<Record<string, string>> = {
  authorization: "give the token with --token-env (or --token): it is redacted and checked as the token",
  "proxy-authorization": "conform does not go through proxies",
  host: "the host is the base URL's",
  "content-length": "the client computes it for each body",
  "transfer-encoding": "the client computes it for each body",
};

/** `"Name: value"` → `["name", "value"]` (the name lower-cased), or a ConfigError naming what is wrong. */
export function parseHeaderOption(text: string): [string, string] {
  const colon = text.indexOf(":");
  const name = (colon < 0 ? text : text.slice(0, colon)).trim();
  const shown = JSON.stringify(name.slice(0, 60));
  if (colon < 0 || !headerName.test(name))
    throw new ConfigError(
      `--header ${shown}: give "Name: value", the name a header token (letters, digits, -)`,
    );
  const value = text.slice(colon + 1).trim();
  // A line break would end the header and start another: a request smuggled into every request.
  if (/[\r\n\0]/.test(value)) throw new ConfigError(`--header ${shown}: the value holds a line break`);
  const lower = name.toLowerCase();
  const reason = refused[lower];
  if (reason !== undefined) throw new ConfigError(`--header ${shown} is refused: ${reason}`);
  return [lower, value];
}

/** The headers of every `--header` given (a later one of the same name wins), names lower-cased. */
export function addedHeadersOf(texts: readonly string[]): Readonly<Record<string, string>> {
  return Object.fromEntries(texts.map(parseHeaderOption));
}

/** The names among added headers whose values are secret by their name (never recorded). */
export function secretHeaderNames(added: Readonly<Record<string, string>>): ReadonlySet<string> {
  return new Set(Object.keys(added).filter(looksSecretHeaderName));
}

/** A request's headers with the added ones it does not set itself (by name, whatever its case). */
export function withAddedHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  added: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  if (headers === undefined) return added;
  const own = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const out: Record<string, string> = {};
  for (const name in added) if (!own.has(name)) out[name] = added[name] as string;
  return { ...out, ...headers };
}
