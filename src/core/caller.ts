/**
 * Who sent a request, as far as its headers tell: a short digest of its credential, never the credential itself.
 * The runner's pacer counts a target's windows per caller with it; the observed judgements of `proxy` and `verify`
 * tell tokens apart with it. One function, one digest format.
 * @module
 */
import { createHash } from "node:crypto";

/** Digests by credential: a run uses a handful of tokens; the bound only guards against thousands. */
const digests = new Map<string, string | undefined>();
const maxDigests = 256;

/**
 * The caller of a request with these headers: a 16-character digest of its Authorization value, or undefined when it
 * has none, or one with no credential after its scheme, or one a recording redacted (all such look alike, and would
 * lump their senders together).
 */
export function callerOf(headers: Readonly<Record<string, string>> | undefined): string | undefined {
  if (headers === undefined) return undefined;
  // Lower case first: the runner's own requests and proxied ones have lower-cased names.
  const credential = headers.authorization ?? headers.Authorization ?? anyCaseAuthorization(headers);
  if (!credential) return undefined;
  if (digests.has(credential)) return digests.get(credential);
  if (digests.size >= maxDigests) digests.clear();
  const digest = /redacted|\*{3}|^\s*(bearer|basic)?\s*$/i.test(credential)
    ? undefined
    : createHash("sha256").update(credential).digest("base64url").slice(0, 16);
  digests.set(credential, digest);
  return digest;
}

function anyCaseAuthorization(headers: Readonly<Record<string, string>>): string | undefined {
  for (const name in headers) if (name.toLowerCase() === "authorization") return headers[name];
  return undefined;
}
