/**
 * Helpers the protocol suites share (auth, rate-limits, headers, versioning): the spec's API operations, harmless
 * probe requests for any operation (unknown ids, a body every target refuses), header lists, error reasons, and
 * personal access tokens minted for a suite and revoked at the end of the run. Written from the description only.
 * @module
 */
import type { CaseContext, LiveResponse } from "../../../src/index.ts";

export type Operation = ReturnType<CaseContext["spec"]["operations"]["all"]>[number];

/** Operations of the API server (not the login server's), in the spec's order. */
export function apiOperations(t: CaseContext): Operation[] {
  return t.spec.operations.all().filter((operation) => operation.serverUrl === undefined);
}

/** Operations that need a token. */
export function guardedOperations(t: CaseContext): Operation[] {
  return apiOperations(t).filter((operation) => !operation.security.public);
}

/** The first operation that reads without a path parameter and needs a token (GET /profile on this API). */
export function plainRead(t: CaseContext, operations = guardedOperations(t)): Operation | undefined {
  const reads = operations.filter((op) => op.method === "get" && !op.pathTemplate.includes("{"));
  return reads.find((op) => !op.paginated) ?? reads[0];
}

/** A value no target holds for a path parameter of this schema: ids far beyond any in use, a documentation IPv4. */
export function unknownValue(schema: unknown): string {
  const shape = (typeof schema === "object" && schema !== null ? schema : {}) as {
    type?: unknown;
    format?: unknown;
    maximum?: unknown;
  };
  if (shape.type === "integer" || shape.type === "number") {
    const ceiling = typeof shape.maximum === "number" ? shape.maximum : Number.POSITIVE_INFINITY;
    return String(Math.min(987_654_321, ceiling));
  }
  if (shape.format === "ipv4" || shape.format === "ip") return "192.0.2.1"; // RFC 5737 TEST-NET-1
  if (shape.format === "ipv6") return "2001:db8::dead"; // RFC 3849
  return "conform-unknown-0";
}

/** The operation's path with every path parameter set to an unknown value. */
export function unknownPath(operation: Operation): string {
  return operation.pathTemplate.replace(/\{([^}]+)\}/g, (_all, name: string) => {
    const parameter = operation.parameters.find((entry) => entry.in === "path" && entry.name === name);
    return encodeURIComponent(unknownValue(parameter?.schema));
  });
}

/**
 * A request to `operation` that cannot change anything on any target, whatever the token: unknown ids in the
 * path, and for an operation with a body a JSON array where an object is expected (refused as a bad request).
 * Undefined for a write with neither (it could act on something real), none in this API.
 */
export function harmlessProbe(
  operation: Operation,
): { method: string; path: string; json: unknown } | undefined {
  const path = unknownPath(operation);
  const json = operation.requestBody ? [] : undefined;
  const acts = operation.method !== "get" && operation.method !== "head";
  if (acts && path === operation.pathTemplate && json === undefined) return undefined;
  return { method: operation.method.toUpperCase(), path, json };
}

/** Sends the harmless probe of `operation` with `token` (null: none), never retrying a 429. */
export function sendProbe(
  t: CaseContext,
  operation: Operation,
  token: string | null | undefined,
  headers?: Record<string, string>,
): Promise<LiveResponse> | undefined {
  const probe = harmlessProbe(operation);
  if (!probe) return undefined;
  return t.api.request(probe.method, probe.path, {
    token,
    ...(probe.json !== undefined ? { json: probe.json } : {}),
    ...(headers ? { headers } : {}),
  });
}

/** A header's comma-separated list (`Vary`, `Access-Control-Allow-*`), lower-cased and trimmed. */
export function headerList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/** A scope header (`X-OAuth-Scopes`, `X-Accepted-OAuth-Scopes`) as a set: space- or comma-separated. */
export function scopeSet(value: string | undefined): Set<string> {
  return new Set((value ?? "").split(/[\s,]+/).filter(Boolean));
}

export function sameScopes(a: string | undefined, b: string | undefined): boolean {
  const left = scopeSet(a);
  const right = scopeSet(b);
  return left.size === right.size && [...left].every((scope) => right.has(scope));
}

/** The `reason`s of an error body (empty when it is not one). */
export function errorReasons(response: LiveResponse): string[] {
  const errors = (response.json as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .map((error) => (error as { reason?: unknown })?.reason)
    .filter((reason): reason is string => typeof reason === "string");
}

/** True for the API's error envelope: a non-empty `errors` array, each with a non-empty string `reason`. */
export function isErrorBody(response: LiveResponse): boolean {
  const errors = (response.json as { errors?: unknown } | undefined)?.errors;
  return (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((error) => typeof (error as { reason?: unknown })?.reason === "string")
  );
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Waits `ms` (or until the run is interrupted). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export interface MintedToken {
  readonly id: number;
  readonly token: string;
  /** The scopes as the target granted them (its normalised form). */
  readonly scopes: string;
  readonly expiry: string | null;
}

/**
 * Mints a personal access token with the run's token (`POST /profile/tokens`), registers its revocation for the
 * end of the run and marks it secret. Answers the refusal instead when the target refuses.
 */
export async function mintToken(
  t: CaseContext,
  name: string,
  scopes: string,
  expiry?: string,
): Promise<{ ok: true; minted: MintedToken } | { ok: false; response: LiveResponse }> {
  const response = await t.api.post("/profile/tokens", {
    label: t.label(name),
    scopes,
    ...(expiry ? { expiry } : {}),
  });
  const body = response.json as Partial<MintedToken> | undefined;
  if (response.status !== 200 || typeof body?.token !== "string" || typeof body.id !== "number") {
    return { ok: false, response };
  }
  t.secret(body.token);
  t.cleanup(`personal access token ${body.id} (${scopes})`, `/profile/tokens/${body.id}`);
  return {
    ok: true,
    minted: {
      id: body.id,
      token: body.token,
      scopes: typeof body.scopes === "string" ? body.scopes : scopes,
      expiry: typeof body.expiry === "string" ? body.expiry : null,
    },
  };
}

/** Mints or skips the case, saying why. */
export async function mintOrSkip(t: CaseContext, name: string, scopes: string): Promise<MintedToken> {
  if (!t.target.writesAllowed) {
    t.skip(
      "minting a token through /profile/tokens changes the account: run against the embedded target or pass --allow-writes",
    );
  }
  const outcome = await mintToken(t, name, scopes);
  if (!outcome.ok) {
    t.skip(
      `the target refused to mint a token with scopes "${scopes}" (${outcome.response.status}); the run's token may lack account:read_write or those scopes`,
    );
  }
  return outcome.minted;
}
