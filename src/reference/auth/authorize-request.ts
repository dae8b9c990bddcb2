/**
 * The authorization request of `/oauth/authorize` (query of the GET, form fields of the POST), read and checked
 * the same way for both: `client_id` must name a client; `response_type` is `code` (default) or `token`, and
 * must fit the client (public clients use `token`, private ones `code`); `scope` (default `*`) must list known
 * scopes; `redirect_uri`, when given, must equal the client's registered one; `state` travels unchanged.
 * Every problem found is reported, each on its field; a parameter given twice is refused (RFC 6749 §3.1).
 * Nothing here redirects: an authorization request that fails these checks never reaches the redirect URI.
 * @module
 */
import { type ApiErrorItem, fieldError } from "../http/reply.ts";
import type { OAuthClientRecord, ReferenceState } from "../state.ts";
import { readScopeList } from "./scope-list.ts";

export interface AuthorizeRequest {
  readonly client: OAuthClientRecord;
  readonly responseType: "code" | "token";
  /** Normalised scope list. */
  readonly scopes: string;
  /** The client's registered redirect URI. */
  readonly redirectUri: string;
  readonly state: string | undefined;
}

export type AuthorizeRequestRead =
  | { readonly ok: true; readonly request: AuthorizeRequest }
  | { readonly ok: false; readonly errors: readonly ApiErrorItem[] };

/** Values of one parameter as sent (a form field appears at most once; a query may repeat one). */
export type ParameterSource = (name: string) => readonly string[];

export const authorizeParameters = ["client_id", "response_type", "scopes", "redirect_uri", "state"] as const;

export function readAuthorizeRequest(state: ReferenceState, source: ParameterSource): AuthorizeRequestRead {
  const errors: ApiErrorItem[] = [];
  const value = (name: (typeof authorizeParameters)[number]): string | undefined => {
    const values = source(name);
    if (values.length > 1) errors.push(fieldError(name, `${name} must be given only once`));
    return values[0];
  };
  const clientId = value("client_id");
  const responseTypeValue = value("response_type") ?? "code";
  const scopeValue = value("scopes") ?? "*";
  const redirectUriValue = value("redirect_uri");
  const stateValue = value("state");

  const client = clientId ? state.oauthClients.get(clientId) : undefined;
  if (!clientId) errors.push(fieldError("client_id", "client_id is required"));
  else if (!client) errors.push(fieldError("client_id", "Unknown client_id"));
  else if (client.status !== "active")
    errors.push(fieldError("client_id", `This client is ${client.status}`));

  const responseType =
    responseTypeValue === "code" || responseTypeValue === "token" ? responseTypeValue : undefined;
  if (!responseType) {
    errors.push(fieldError("response_type", "response_type must be code or token"));
  } else if (client?.public && responseType === "code") {
    errors.push(fieldError("response_type", "A public client must use response_type token (implicit flow)"));
  } else if (client && !client.public && responseType === "token") {
    errors.push(
      fieldError("response_type", "A private client must use response_type code (authorization code flow)"),
    );
  }

  // The URL separates scopes by commas (facts.md, "OAuth authorization URL"); the token's list by spaces.
  const scopes = readScopeList(scopeValue.replaceAll(",", " "));
  if (!scopes.ok) errors.push(fieldError("scopes", scopes.reason));

  if (redirectUriValue !== undefined && client && redirectUriValue !== client.redirect_uri) {
    errors.push(
      fieldError("redirect_uri", "redirect_uri does not match the client's registered redirect_uri"),
    );
  }

  if (errors.length > 0 || !client || !responseType || !scopes.ok) return { ok: false, errors };
  return {
    ok: true,
    request: {
      client,
      responseType,
      scopes: scopes.scopes,
      redirectUri: client.redirect_uri,
      state: stateValue,
    },
  };
}

/** The hidden fields of the login form that carry this request into the POST. */
export function hiddenFields(request: AuthorizeRequest): [string, string][] {
  const fields: [string, string][] = [
    ["client_id", request.client.id],
    ["response_type", request.responseType],
    ["scopes", request.scopes.replaceAll(" ", ",")],
    ["redirect_uri", request.redirectUri],
  ];
  if (request.state !== undefined) fields.push(["state", request.state]);
  return fields;
}
