/**
 * The curl command line that reproduces a recorded request. The recorded request is already redacted; its
 * Authorization header becomes `$CONFORM_TOKEN`, a shell variable the user sets, so the line works as pasted and
 * never carries a token. Every other value is shell-quoted: URLs, headers and bodies may hold anything.
 * @internal
 */
import type { RecordedRequest } from "../../core/exchange.ts";
import { shellQuote } from "../../core/shell-quote.ts";

export { shellQuote };

/** The shell variable that stands for the bearer token in a reproduction line. */
export const tokenVariable = "CONFORM_TOKEN";

/** Headers curl sets itself, or that describe one connection rather than the request. */
const omittedHeaders = new Set(["host", "content-length", "connection", "transfer-encoding", "keep-alive"]);

export interface CurlOptions {
  /** Adds `--insecure` to an https URL (the embedded reference server's certificate is self-signed). */
  readonly insecure?: boolean;
}

function authorizationArgument(value: string): string {
  const scheme = /^(\S+)\s/.exec(value)?.[1] ?? "Bearer";
  // Double quotes so the shell expands the variable; the scheme is a bare token, quoted anyway if odd.
  return /^[A-Za-z][A-Za-z0-9_-]*$/.test(scheme)
    ? `"Authorization: ${scheme} $${tokenVariable}"`
    : `"Authorization: Bearer $${tokenVariable}"`;
}

export function curlLine(request: RecordedRequest, options: CurlOptions = {}): string {
  const parts = ["curl"];
  const method = request.method.toUpperCase();
  if (method === "HEAD") parts.push("--head");
  else if (method !== "GET" || request.body !== undefined) parts.push("-X", shellQuote(method));
  // A plain-HTTP URL has no certificate to trust: the flag would only mislead whoever pastes the line.
  if (options.insecure && /^https:/i.test(request.url)) parts.push("--insecure");
  // X-Filter and pagination URLs may hold brackets and braces that curl would otherwise glob.
  if (/[[\]{}]/.test(request.url)) parts.push("--globoff");
  parts.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (omittedHeaders.has(lower)) continue;
    if (lower === "authorization") parts.push("-H", authorizationArgument(value));
    else parts.push("-H", shellQuote(`${lower}: ${value}`));
  }
  if (request.body !== undefined) parts.push("--data-raw", shellQuote(request.body));
  return parts.join(" ");
}
