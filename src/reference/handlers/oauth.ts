/**
 * The OAuth login server at the root of the server's origin (`{auth_url}`): the login form, the login, and the
 * token endpoint. Public operations (no bearer token); the pipeline has parsed and spec-checked form bodies.
 *
 * - GET /oauth/authorize answers the HTML login form (login-page.ts) for a valid authorization request
 *   (auth/authorize-request.ts); an invalid one gets the API's 400 error body naming the field, never a redirect.
 * - POST /oauth/authorize checks the same request, then the user's credentials: wrong ones get 401
 *   `Invalid username or password` as a JSON error body (the spec's 401 is `application/json` only, so the
 *   form is not re-rendered). Success is a 302 to the client's redirect URI: `?code=&state=` for private clients
 *   (code: 40 hex characters, single use, 600 s on the server's clock), `#access_token=&token_type=bearer&
 *   expires_in=7200&scope=&state=` for public ones (a `TokenRecord` of kind `oauth`, no refresh token).
 *   Parameters are added to a redirect URI's own query without re-encoding it.
 * - POST /oauth/token: an unknown client_id or a wrong client_secret gets 401 `Invalid client credentials`
 *   (RFC 6749 §5.2 invalid_client); a public client gets 400 on field client_id. A code exchange (grant_type
 *   absent or `authorization_code`) or a refresh answers a new access token (7200 s) and refresh token; the code
 *   or refresh token used stops working. Unknown, expired, reused, or another client's codes and refresh
 *   tokens get 400 on field `code` / `refresh_token` with a reason that says which. Access tokens issued before
 *   a refresh stay valid until they expire. Token responses carry `Cache-Control: no-store` (RFC 6749 §5.1).
 * @module
 */
import type { AuthorizeRequest } from "../auth/authorize-request.ts";
import { hiddenFields, readAuthorizeRequest } from "../auth/authorize-request.ts";
import {
  accessTokenLifetimeSeconds,
  issueAccessToken,
  issueCode,
  issueRefreshToken,
  markSpent,
  sameSecret,
  wasSpent,
} from "../auth/issue-tokens.ts";
import type { HandlerContext, HandlerMap } from "../context.ts";
import { badRequest, errorReply, fieldError, ok, type Reply } from "../http/reply.ts";
import { loginPageHeaders, renderLoginPage } from "../login-page.ts";
import type { OAuthClientRecord } from "../state.ts";
import { bodyOf } from "./shared.ts";

export const oauthReasons = Object.freeze({
  invalidLogin: "Invalid username or password",
  invalidClient: "Invalid client credentials",
  publicClient: "A public client cannot use the token endpoint: it receives its token from /oauth/authorize",
  invalidCode: "Invalid code",
  expiredCode: "This code has expired; log in again",
  usedCode: "This code has already been used",
  invalidRefresh: "Invalid refresh token",
  usedRefresh: "This refresh token has already been used",
});

const noStore = Object.freeze({ "Cache-Control": "no-store", Pragma: "no-cache" });

/** The form fields of a parsed body as the authorization request reader wants them. */
function formSource(body: Readonly<Record<string, unknown>>) {
  return (name: string): string[] => {
    const value = Object.hasOwn(body, name) ? body[name] : undefined;
    return typeof value === "string" ? [value] : [];
  };
}

function field(body: Readonly<Record<string, unknown>>, name: string): string {
  const value = Object.hasOwn(body, name) ? body[name] : undefined;
  return typeof value === "string" ? value : "";
}

function withQuery(uri: string, params: URLSearchParams): string {
  const separator = !uri.includes("?") ? "?" : uri.endsWith("?") || uri.endsWith("&") ? "" : "&";
  return `${uri}${separator}${params}`;
}

function redirect(location: string): Reply {
  return {
    status: 302,
    body: undefined,
    raw: "",
    headers: { Location: location, "Content-Type": "text/plain; charset=utf-8", ...noStore },
  };
}

function showLoginForm(context: HandlerContext): Reply {
  const read = readAuthorizeRequest(context.state, (name) => context.query.getAll(name));
  if (!read.ok) return badRequest(read.errors);
  const page = renderLoginPage({
    clientLabel: read.request.client.label,
    hidden: hiddenFields(read.request),
    scopes: read.request.scopes,
    // The form posts back to where it was read (the description's path of the authorize operations).
    action: context.operation.pathTemplate,
  });
  return { status: 200, body: undefined, raw: page, headers: { ...loginPageHeaders } };
}

function authorize(context: HandlerContext, request: AuthorizeRequest): Reply {
  const { state, clock } = context;
  const { client, scopes } = request;
  if (request.responseType === "code") {
    const params = new URLSearchParams({ code: issueCode(state, clock, client, scopes) });
    if (request.state !== undefined) params.set("state", request.state);
    return redirect(withQuery(request.redirectUri, params));
  }
  const token = issueAccessToken(state, clock, client, scopes);
  const params = new URLSearchParams({
    access_token: token.token,
    token_type: "bearer",
    expires_in: String(accessTokenLifetimeSeconds),
    scope: scopes,
  });
  if (request.state !== undefined) params.set("state", request.state);
  return redirect(`${request.redirectUri}#${params}`);
}

function logIn(context: HandlerContext): Reply {
  const body = bodyOf(context);
  const read = readAuthorizeRequest(context.state, formSource(body));
  if (!read.ok) return badRequest(read.errors);
  const { user } = context.state;
  // Both comparisons always run: the answer's timing does not tell which one failed.
  const usernameOk = sameSecret(field(body, "username"), user.username);
  const passwordOk = sameSecret(field(body, "password"), user.password);
  if (!usernameOk || !passwordOk) return errorReply(401, [{ reason: oauthReasons.invalidLogin }]);
  return authorize(context, read.request);
}

function tokenResponse(context: HandlerContext, client: OAuthClientRecord, scopes: string): Reply {
  const access = issueAccessToken(context.state, context.clock, client, scopes);
  return ok(
    {
      scope: scopes,
      access_token: access.token,
      refresh_token: issueRefreshToken(context.state, client, scopes),
      token_type: "bearer",
      expires_in: accessTokenLifetimeSeconds,
    },
    { ...noStore },
  );
}

function exchangeCode(context: HandlerContext, client: OAuthClientRecord, code: string): Reply {
  const { state, clock } = context;
  const record = state.authCodes.get(code);
  if (!record || record.clientId !== client.id) {
    const reason = wasSpent(state, code, "code") ? oauthReasons.usedCode : oauthReasons.invalidCode;
    return badRequest([fieldError("code", reason)]);
  }
  state.authCodes.delete(code);
  if (record.expiresAt <= clock.now()) return badRequest([fieldError("code", oauthReasons.expiredCode)]);
  markSpent(state, code, "code");
  return tokenResponse(context, client, record.scopes);
}

function refresh(context: HandlerContext, client: OAuthClientRecord, token: string): Reply {
  const { state } = context;
  const record = state.refreshTokens.get(token);
  if (!record || record.clientId !== client.id) {
    const spent = wasSpent(state, token, "refresh_token");
    return badRequest([
      fieldError("refresh_token", spent ? oauthReasons.usedRefresh : oauthReasons.invalidRefresh),
    ]);
  }
  state.refreshTokens.delete(token);
  markSpent(state, token, "refresh_token");
  return tokenResponse(context, client, record.scopes);
}

function createToken(context: HandlerContext): Reply {
  const body = bodyOf(context);
  const client = context.state.oauthClients.get(field(body, "client_id"));
  // The secret is compared even for an unknown client, so timing does not reveal which client ids exist.
  const secretOk = sameSecret(field(body, "client_secret"), client?.secret ?? "");
  if (!client || !secretOk || client.status !== "active") {
    return errorReply(401, [{ reason: oauthReasons.invalidClient }]);
  }
  if (client.public) return badRequest([fieldError("client_id", oauthReasons.publicClient)]);
  if (field(body, "grant_type") === "refresh_token")
    return refresh(context, client, field(body, "refresh_token"));
  return exchangeCode(context, client, field(body, "code"));
}

export const oauthHandlers: HandlerMap = {
  getOAuthAuthorize: showLoginForm,
  postOAuthAuthorize: logIn,
  createOAuthToken: createToken,
};
