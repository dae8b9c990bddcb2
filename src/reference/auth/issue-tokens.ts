/**
 * Secrets the login server hands out and takes back: authorization codes (single use, 10 minutes), OAuth
 * access tokens (`TokenRecord` kind `oauth`, 7200 s on the server's clock) and refresh tokens (single use,
 * no expiry). Every secret is random hex from `node:crypto`; comparisons of client-supplied secrets run in
 * constant time. Codes and refresh tokens once used are remembered (per server, the latest 10 000) so a
 * second use gets a reason that says so instead of a bare "invalid".
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "../clock.ts";
import { isoSeconds } from "../events.ts";
import type { OAuthClientRecord, ReferenceState, TokenRecord } from "../state.ts";

export const accessTokenLifetimeSeconds = 7200;
export const codeLifetimeSeconds = 600;

/** `bytes` random bytes as lower-case hex (twice as many characters). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/** Constant-time equality of two secrets of any length (compares their digests). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const spentLimit = 10_000;
const spentByState = new WeakMap<ReferenceState, Map<string, "code" | "refresh_token">>();

function spentOf(state: ReferenceState): Map<string, "code" | "refresh_token"> {
  let spent = spentByState.get(state);
  if (!spent) {
    spent = new Map();
    spentByState.set(state, spent);
  }
  return spent;
}

/** Remembers that a code or refresh token was used (so a reuse is told apart from a made-up value). */
export function markSpent(state: ReferenceState, secret: string, kind: "code" | "refresh_token"): void {
  const spent = spentOf(state);
  spent.set(secret, kind);
  if (spent.size > spentLimit) spent.delete(spent.keys().next().value!);
}

export function wasSpent(state: ReferenceState, secret: string, kind: "code" | "refresh_token"): boolean {
  return spentOf(state).get(secret) === kind;
}

/** A fresh code for the authorization code flow; expired codes are dropped on the way. */
export function issueCode(
  state: ReferenceState,
  clock: Clock,
  client: OAuthClientRecord,
  scopes: string,
): string {
  const now = clock.now();
  for (const [code, record] of state.authCodes) if (record.expiresAt <= now) state.authCodes.delete(code);
  const code = randomHex(20);
  state.authCodes.set(code, {
    code,
    clientId: client.id,
    scopes,
    redirectUri: client.redirect_uri,
    expiresAt: now + codeLifetimeSeconds * 1000,
  });
  return code;
}

/** A fresh OAuth access token for `client`, valid 7200 s; the API's pipeline reads its scopes. */
export function issueAccessToken(
  state: ReferenceState,
  clock: Clock,
  client: OAuthClientRecord,
  scopes: string,
): TokenRecord {
  const now = clock.now();
  const record: TokenRecord = {
    id: state.nextId("token"),
    label: client.label,
    scopes,
    token: randomHex(32),
    created: isoSeconds(now),
    expiresAt: now + accessTokenLifetimeSeconds * 1000,
    kind: "oauth",
    clientId: client.id,
  };
  state.tokens.set(record.token, record);
  return record;
}

export function issueRefreshToken(state: ReferenceState, client: OAuthClientRecord, scopes: string): string {
  const token = randomHex(32);
  state.refreshTokens.set(token, { token, clientId: client.id, scopes });
  return token;
}

/** Revokes every access token, code and refresh token issued to a client (the client is being deleted). */
export function revokeClientGrants(state: ReferenceState, clientId: string): void {
  for (const [token, record] of state.tokens) if (record.clientId === clientId) state.tokens.delete(token);
  for (const [code, record] of state.authCodes)
    if (record.clientId === clientId) state.authCodes.delete(code);
  for (const [token, record] of state.refreshTokens) {
    if (record.clientId === clientId) state.refreshTokens.delete(token);
  }
}
