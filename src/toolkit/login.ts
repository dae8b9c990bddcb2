/**
 * The OAuth login server as suites use it: logging a user in, the token endpoint and OAuth clients, each found by
 * operationId (getOAuthAuthorize on the login server, createOAuthToken, createOAuthClient / deleteOAuthClient).
 *
 * A {@link LoginDriver} takes the authorization URL and the user's credentials and answers the URL the login
 * server sent the user back to (the client's redirect URI with a code in the query, or a token in the fragment).
 * The default driver, {@link httpLoginDriver}, works over plain HTTP through the run's recorded client (so every
 * exchange is judged by the checks): GET the authorization URL, read the HTML form (its action, hidden inputs, the
 * username and password inputs), submit it urlencoded and read the redirect's `Location`. A program running
 * conform can hand another driver to the suites as the hook `loginDriver` (`hooks` of the run's options), e.g. a
 * real browser filling in the page (test/suites/auth-browser.test.ts drives headless Chromium this way).
 * @module
 */
import { randomBytes } from "node:crypto";
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext, LoginDriver } from "../runner/suite-api.ts";
import { call, pathFor, pathOf, requireOperation } from "./operations.ts";
import { registerMade } from "./resources.ts";

/** Why a login could not be driven, with the answer that showed it. */
export class LoginFailed extends Error {
  readonly response: LiveResponse | undefined;
  constructor(message: string, response?: LiveResponse) {
    super(message);
    this.response = response;
  }
}

export interface LoginForm {
  readonly action: string;
  readonly method: string;
  /** Every named input with its value, in order (hidden ones included). */
  readonly fields: readonly [string, string][];
  /** The names of the username and password inputs. */
  readonly usernameField: string | undefined;
  readonly passwordField: string | undefined;
}

const entities: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : all;
    }
    return entities[name.toLowerCase()] ?? all;
  });
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(
    /([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g,
  )) {
    const name = match[1]!.toLowerCase();
    if (name in found) continue;
    found[name] = unescapeHtml(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return found;
}

/** Reads the first form of a login page (a plain HTML form; script-driven pages are out of reach). */
export function parseLoginForm(html: string): LoginForm | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const formAttributes = attributes(form[1]!);
  const fields: [string, string][] = [];
  let usernameField: string | undefined;
  let passwordField: string | undefined;
  for (const input of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const attrs = attributes(input[1]!);
    const name = attrs.name;
    if (!name) continue;
    const type = (attrs.type ?? "text").toLowerCase();
    if (type === "submit" || type === "button" || type === "image" || type === "reset") continue;
    if (type === "password") passwordField ??= name;
    else if (type !== "hidden" && /user|login|email/i.test(`${name} ${attrs.autocomplete ?? ""}`)) {
      usernameField ??= name;
    }
    fields.push([name, attrs.value ?? ""]);
  }
  return {
    action: formAttributes.action ?? "",
    method: (formAttributes.method ?? "get").toLowerCase(),
    fields,
    usernameField,
    passwordField,
  };
}

/** The default driver: the login page's form submitted over HTTP by the run's client. */
export function httpLoginDriver(t: CaseContext): LoginDriver {
  return async ({ authorizeUrl, username, password }) => {
    const page = await t.auth.get(authorizeUrl, { headers: { accept: "text/html" } });
    if (page.status !== 200) throw new LoginFailed(`the login page answered ${page.status}`, page);
    const form = parseLoginForm(page.text);
    if (!form?.usernameField || !form.passwordField) {
      throw new LoginFailed("the login page has no plain form with a username and a password input", page);
    }
    const filled = new URLSearchParams();
    for (const [name, value] of form.fields) {
      if (name === form.usernameField) filled.append(name, username);
      else if (name === form.passwordField) filled.append(name, password);
      else filled.append(name, value);
    }
    const action = new URL(form.action || authorizeUrl, authorizeUrl).toString();
    const answer =
      form.method === "post"
        ? await t.auth.request("POST", action, {
            body: filled.toString(),
            headers: { "content-type": "application/x-www-form-urlencoded" },
          })
        : await t.auth.get(`${action.split("?")[0]}?${filled}`);
    const location = answer.headers.location;
    if (answer.status < 300 || answer.status >= 400 || !location) {
      throw new LoginFailed(`the login answered ${answer.status} instead of a redirect`, answer);
    }
    return new URL(location, action).toString();
  };
}

/** The driver a run uses: the hook `loginDriver` when the program running conform gave one, else the HTTP one. */
export function loginDriverFor(t: CaseContext): LoginDriver {
  return t.hooks.loginDriver ?? httpLoginDriver(t);
}

/** The login page's URL with `query`: getOAuthAuthorize's path on the login server (`t.target.authUrl`). */
export function authorizeUrl(t: CaseContext, query: Readonly<Record<string, string>>): string {
  const path = pathFor(t, "getOAuthAuthorize");
  return `${t.target.authUrl.replace(/\/$/, "")}${path}?${new URLSearchParams(query)}`;
}

/** Posts `fields` to the token endpoint (createOAuthToken), urlencoded or multipart, with no token, never retried. */
export function requestToken(
  t: CaseContext,
  fields: Readonly<Record<string, string>>,
  encoding: "urlencoded" | "multipart" = "urlencoded",
): Promise<LiveResponse> {
  if (encoding === "urlencoded")
    return call(t, "createOAuthToken", { form: fields, token: null, retry: false });
  const { body, contentType } = multipartBody(fields);
  return call(t, "createOAuthToken", {
    body,
    headers: { "content-type": contentType },
    token: null,
    retry: false,
  });
}

export interface OAuthClient {
  /** The client_id. */
  readonly id: string;
  /** Empty for a public client. */
  readonly secret: string;
  readonly redirectUri: string;
}

export type OAuthClientOutcome =
  | { readonly ok: true; readonly client: OAuthClient; readonly response: LiveResponse }
  | { readonly ok: false; readonly response: LiveResponse };

/**
 * Creates an OAuth client (createOAuthClient) with the run's token, registers its deletion (deleteOAuthClient) and
 * marks its secret secret. Answers the refusal instead when the target refuses.
 */
export async function registerOAuthClient(
  t: CaseContext,
  name: string,
  options: { readonly redirectUri: string; readonly public: boolean },
): Promise<OAuthClientOutcome> {
  const remove = requireOperation(t, "deleteOAuthClient");
  const label = t.label(name);
  const response = await call(t, "createOAuthClient", {
    json: { label, redirect_uri: options.redirectUri, public: options.public },
  });
  // Registered before it is judged, from whatever the answer reveals (its JSON whatever the label, else by label).
  registerMade(t, response, { what: "OAuth client", label, deletePath: (id) => pathOf(remove, id) });
  const body = response.parsed as { id?: unknown; secret?: unknown } | undefined;
  const secret = typeof body?.secret === "string" ? body.secret : "";
  t.secret(secret);
  if (response.status !== 200 || typeof body?.id !== "string") return { ok: false, response };
  return { ok: true, client: { id: body.id, secret, redirectUri: options.redirectUri }, response };
}

export type LoginOutcome =
  | { readonly ok: true; readonly landed: string; readonly state: string }
  | { readonly ok: false; readonly reason: string; readonly response?: LiveResponse };

/**
 * Logs `credentials` in for `client` with the run's driver, asking for `responseType` and `scope` with a fresh
 * `state`; answers where the user landed and the state sent, or why the login could not be driven.
 */
export async function logIn(
  t: CaseContext,
  client: OAuthClient,
  request: { readonly responseType: "code" | "token"; readonly scope: string },
  credentials: { readonly username: string; readonly password: string },
): Promise<LoginOutcome> {
  const state = randomBytes(6).toString("hex");
  // The authorization URL takes `scopes`, comma-separated (facts.md); a token's list is space-separated.
  const scopes = request.scope.split(/\s+/).filter(Boolean).join(",");
  const query = { client_id: client.id, response_type: request.responseType, scopes, state };
  const url = authorizeUrl(t, query);
  try {
    const landed = await loginDriverFor(t)({
      authorizeUrl: url,
      redirectUri: client.redirectUri,
      ...credentials,
    });
    return { ok: true, landed, state };
  } catch (error) {
    const response = (error as { response?: LiveResponse }).response;
    return {
      ok: false,
      reason: String((error as Error)?.message ?? error),
      ...(response ? { response } : {}),
    };
  }
}

/** Where a suite's clients send the user back: `suiteOptions.oauth.redirectUri`, or a URI never resolved. */
export function redirectUriOf(t: CaseContext): string {
  const oauth = t.options.oauth as { redirectUri?: unknown } | undefined;
  return typeof oauth?.redirectUri === "string" ? oauth.redirectUri : "https://conform.invalid/callback";
}

/** The user's credentials: `suiteOptions.login` (the embedded target supplies its seeded user). */
export function loginCredentials(t: CaseContext): { username: string; password: string } | undefined {
  const login = t.options.login as { username?: unknown; password?: unknown } | undefined;
  if (typeof login?.username !== "string" || typeof login.password !== "string") return undefined;
  t.secret(login.password);
  return { username: login.username, password: login.password };
}

/** A `multipart/form-data` body (RFC 7578) of plain text fields, with its content type. */
export function multipartBody(fields: Readonly<Record<string, string>>): {
  body: string;
  contentType: string;
} {
  const boundary = `conform-${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    body: `${parts.join("")}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
