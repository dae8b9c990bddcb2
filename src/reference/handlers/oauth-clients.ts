/**
 * OAuth clients (`/account/oauth-clients`).
 *
 * - `id` (the client_id) is 20 random hex characters; `secret` 64 random hex characters, shown only in the
 *   create response and `<REDACTED>` in every later read, lists included.
 * - `redirect_uri` must be an absolute `http:` or `https:` URL without a fragment (RFC 6749 §3.1.2: the login
 *   server appends the implicit flow's token as the fragment); anything else is refused on field `redirect_uri`.
 * - `public` (default false) is fixed at creation: an update that sends a different value is refused on field
 *   `public` (sending the current value is accepted, it changes nothing).
 * - Deleting a client revokes every access token, code and refresh token issued to it.
 * @module
 */
import { randomHex, revokeClientGrants } from "../auth/issue-tokens.ts";
import type { HandlerContext, HandlerMap } from "../context.ts";
import { notFound } from "../errors.ts";
import { type ApiErrorItem, badRequest, fieldError, ok, type Reply } from "../http/reply.ts";
import type { OAuthClientRecord } from "../state.ts";
import { bodyOf, has, listReply, stringParam } from "./shared.ts";

export const redactedSecret = "<REDACTED>";

export function presentOAuthClient(record: OAuthClientRecord, reveal = false): Record<string, unknown> {
  return {
    id: record.id,
    label: record.label,
    redirect_uri: record.redirect_uri,
    public: record.public,
    secret: reveal ? record.secret : redactedSecret,
    status: record.status,
    thumbnail_url: record.thumbnail_url,
  };
}

function clientEntity(record: OAuthClientRecord) {
  return {
    id: record.id,
    label: record.label,
    type: "oauth_client",
    url: `/v4/account/oauth-clients/${record.id}`,
  };
}

/** The reason a redirect URI is refused, or undefined when it is usable. */
export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "redirect_uri must be an absolute http or https URL";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "redirect_uri must be an absolute http or https URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return "redirect_uri must be an absolute http or https URL";
  }
  if (value.includes("#")) return "redirect_uri must not contain a fragment (#)";
  return undefined;
}

function readLabel(body: Readonly<Record<string, unknown>>, errors: ApiErrorItem[]): string | undefined {
  const label = body.label;
  const length = typeof label === "string" ? [...label].length : 0;
  if (typeof label !== "string" || length < 1 || length > 512) {
    errors.push(fieldError("label", "label must be 1 to 512 characters"));
    return undefined;
  }
  return label;
}

function readRedirectUri(
  body: Readonly<Record<string, unknown>>,
  errors: ApiErrorItem[],
): string | undefined {
  const problem = redirectUriProblem(body.redirect_uri);
  if (problem) errors.push(fieldError("redirect_uri", problem));
  return problem ? undefined : (body.redirect_uri as string);
}

function findClient(context: HandlerContext): OAuthClientRecord | undefined {
  return context.state.oauthClients.get(stringParam(context, "clientId"));
}

function createClient(context: HandlerContext): Reply {
  const body = bodyOf(context);
  const errors: ApiErrorItem[] = [];
  const label = readLabel(body, errors);
  const redirectUri = readRedirectUri(body, errors);
  const isPublic = has(body, "public") ? body.public : false;
  if (typeof isPublic !== "boolean") errors.push(fieldError("public", "public must be true or false"));
  if (errors.length > 0 || label === undefined || redirectUri === undefined) return badRequest(errors);

  const { state } = context;
  let id = randomHex(10);
  while (state.oauthClients.has(id)) id = randomHex(10);
  const record: OAuthClientRecord = {
    id,
    label,
    redirect_uri: redirectUri,
    public: isPublic === true,
    secret: randomHex(32),
    status: "active",
    thumbnail_url: null,
  };
  state.oauthClients.set(id, record);
  context.events.record("oauth_client_create", clientEntity(record));
  return ok(presentOAuthClient(record, true));
}

function updateClient(context: HandlerContext): Reply {
  const record = findClient(context);
  if (!record) return notFound();
  const body = bodyOf(context);
  const errors: ApiErrorItem[] = [];
  const label = has(body, "label") ? readLabel(body, errors) : undefined;
  const redirectUri = has(body, "redirect_uri") ? readRedirectUri(body, errors) : undefined;
  if (has(body, "public") && body.public !== record.public) {
    errors.push(fieldError("public", "public cannot be changed after the client is created"));
  }
  if (errors.length > 0) return badRequest(errors);
  if (label !== undefined) record.label = label;
  if (redirectUri !== undefined) record.redirect_uri = redirectUri;
  context.events.record("oauth_client_update", clientEntity(record));
  return ok(presentOAuthClient(record));
}

function deleteClient(context: HandlerContext): Reply {
  const record = findClient(context);
  if (!record) return notFound();
  context.state.oauthClients.delete(record.id);
  revokeClientGrants(context.state, record.id);
  context.events.record("oauth_client_delete", clientEntity(record));
  return ok({});
}

export const oauthClientHandlers: HandlerMap = {
  getOAuthClients: (context) =>
    listReply(
      context,
      [...context.state.oauthClients.values()].map((record) => presentOAuthClient(record)),
    ),
  createOAuthClient: createClient,
  getOAuthClient: (context) => {
    const record = findClient(context);
    return record ? ok(presentOAuthClient(record)) : notFound();
  },
  updateOAuthClient: updateClient,
  deleteOAuthClient: deleteClient,
};
