/**
 * The profile and personal access tokens (`/profile`, `/profile/tokens`).
 *
 * - The profile is the seeded user's; `timezone` starts as `UTC`, `restricted` false, `uid` 1. `updateProfile`
 *   changes the timezone (an IANA zone name, as `Intl` knows them; another is refused on field `timezone`). Times
 *   stay UTC whatever it is (cloud-api-v4.md "General facts").
 * - A token string is 64 random hex characters. Only the create response shows it in full; the list shows
 *   `token` as its first 16 characters followed by `...` (so a leaked list cannot be replayed).
 * - The list holds personal tokens only (kind `personal`, expired ones included, with their `expiry`); tokens
 *   issued by the OAuth login server are not personal and are neither listed nor revocable here.
 * - `scopes` defaults to `*`; a new token cannot hold a scope that the token creating it lacks (`*` needs
 *   every area's read_write). The spec's `ScopeList` pattern refuses unknown scopes before the handler; the
 *   handler reads the list again (the same rule) and normalises it (see auth/scope-list.ts).
 * - `label` is optional in the spec: an omitted label becomes `token<id>` (as load balancers get `balancer<id>`).
 * - `expiry` null or omitted never expires; one not in the future is refused (field `expiry`).
 * @module
 */
import { randomHex } from "../auth/issue-tokens.ts";
import { readScopeList, scopesBeyond } from "../auth/scope-list.ts";
import type { HandlerContext, HandlerMap } from "../context.ts";
import { notFound } from "../errors.ts";
import { isoSeconds } from "../events.ts";
import { type ApiErrorItem, badRequest, fieldError, ok, type Reply } from "../http/reply.ts";
import type { TokenRecord } from "../state.ts";
import { bodyOf, has, intParam, listReply, timestamp } from "./shared.ts";

/** How many characters of a token string later reads show (followed by `...`). */
export const shownTokenPrefix = 16;

export function presentToken(record: TokenRecord, reveal = false): Record<string, unknown> {
  return {
    id: record.id,
    label: record.label,
    scopes: record.scopes,
    created: record.created,
    expiry: record.expiresAt === null ? null : isoSeconds(record.expiresAt),
    token: reveal ? record.token : `${record.token.slice(0, shownTokenPrefix)}...`,
  };
}

function tokenEntity(record: TokenRecord) {
  return { id: record.id, label: record.label, type: "token", url: `/v4/profile/tokens/${record.id}` };
}

function readScopes(context: HandlerContext, value: unknown, errors: ApiErrorItem[]): string | undefined {
  if (value === undefined || value === null) return readScopes(context, "*", errors);
  if (typeof value !== "string") {
    errors.push(fieldError("scopes", "scopes must be * or a space-separated list of scopes"));
    return undefined;
  }
  const read = readScopeList(value);
  if (!read.ok) {
    errors.push(fieldError("scopes", read.reason));
    return undefined;
  }
  const creator = context.caller.token?.scopes ?? "";
  const beyond = scopesBeyond(creator, read.scopes);
  if (beyond.length > 0) {
    errors.push(
      fieldError(
        "scopes",
        `A token cannot grant scopes its creator's token lacks: ${beyond.join(" ")} (the creating token has ${creator || "no scopes"})`,
      ),
    );
    return undefined;
  }
  return read.scopes;
}

function readExpiry(context: HandlerContext, value: unknown, errors: ApiErrorItem[]): number | null {
  if (value === undefined || value === null) return null;
  const at = typeof value === "string" ? Date.parse(value.toUpperCase()) : Number.NaN;
  if (Number.isNaN(at)) {
    errors.push(fieldError("expiry", "expiry must be an RFC 3339 date-time with a zone offset"));
    return null;
  }
  if (at <= context.clock.now()) {
    errors.push(fieldError("expiry", "expiry must be in the future"));
    return null;
  }
  return at;
}

function createToken(context: HandlerContext): Reply {
  const body = bodyOf(context);
  const errors: ApiErrorItem[] = [];
  const label = has(body, "label") ? body.label : undefined;
  if (
    label !== undefined &&
    (typeof label !== "string" || [...label].length < 1 || [...label].length > 100)
  ) {
    errors.push(fieldError("label", "label must be 1 to 100 characters"));
  }
  const scopes = readScopes(context, body.scopes, errors);
  const expiresAt = readExpiry(context, body.expiry, errors);
  if (errors.length > 0 || scopes === undefined) return badRequest(errors);

  const { state } = context;
  const id = state.nextId("token");
  let token = randomHex(32);
  while (state.tokens.has(token)) token = randomHex(32);
  const record: TokenRecord = {
    id,
    label: typeof label === "string" ? label : `token${id}`,
    scopes,
    token,
    created: timestamp(context),
    expiresAt,
    kind: "personal",
  };
  state.tokens.set(token, record);
  context.events.record("token_create", tokenEntity(record));
  return ok(presentToken(record, true));
}

function deleteToken(context: HandlerContext): Reply {
  const id = intParam(context, "tokenId");
  for (const record of context.state.tokens.values()) {
    if (record.id === id && record.kind === "personal") {
      context.state.tokens.delete(record.token);
      context.events.record("token_delete", tokenEntity(record));
      return ok({});
    }
  }
  return notFound();
}

/** Is `name` a time zone `Intl` knows (an IANA name or alias, such as `UTC` or `America/New_York`)? */
export function isKnownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function presentProfile(context: HandlerContext): Reply {
  const { user, profile } = context.state;
  return ok({
    uid: 1,
    username: user.username,
    email: user.email,
    timezone: profile.timezone,
    restricted: false,
    two_factor_auth: false,
    email_notifications: true,
    ip_whitelist_enabled: false,
    lish_auth_method: "password_keys",
    authentication_type: "password",
    authorized_keys: [],
    verified_phone_number: null,
  });
}

function updateProfile(context: HandlerContext): Reply {
  const body = bodyOf(context);
  if (has(body, "timezone")) {
    const timezone = body.timezone;
    if (typeof timezone !== "string" || !isKnownTimeZone(timezone)) {
      return badRequest([fieldError("timezone", "timezone must be a known IANA time zone name")]);
    }
    context.state.profile.timezone = timezone;
  }
  return presentProfile(context);
}

export const profileHandlers: HandlerMap = {
  getProfile: presentProfile,
  updateProfile,
  getPersonalAccessTokens: (context) =>
    listReply(
      context,
      [...context.state.tokens.values()]
        .filter((record) => record.kind === "personal")
        .map((record) => presentToken(record)),
    ),
  createPersonalAccessToken: createToken,
  deletePersonalAccessToken: deleteToken,
};
