/**
 * The auth suite's OAuth flows: the scope asked for, the login through the form to the client's redirect URI, a
 * fresh authorization code, the token endpoint's answer (bearer, `expires_in`, the scope, a refresh token), and
 * whether a token obtained works on the API within its scope and only there.
 * @module
 */
import {
  apiFacts,
  type CaseContext,
  call,
  expectDocumentedHeader,
  expectStatus,
  guardedOperations,
  type LiveResponse,
  logIn,
  loginCredentials,
  type OAuthClient,
  type Operation,
  pathOf,
  plainRead,
  redirectUriOf,
  registerOAuthClient,
  requireOperation,
  requireWrites,
  sameScopes,
  scopeSet,
  sendProbe,
  walk,
} from "../../../src/index.ts";
import { areaOf, levelOf } from "./auth-scopes.ts";

const { everyScope, accessTokenLifetimeSeconds: lifetime } = apiFacts;
const noLogin =
  "no login credentials: set suiteOptions.login.username and .password in the config (the embedded target supplies its seeded user)";

/** The scope the OAuth cases ask for: read_only of the area of the API's plain read (account on this API). */
export function requestedScope(t: CaseContext): { scope: string; read: Operation } {
  // A read that names a read_only scope (the profile takes any token, so it cannot tell scopes apart).
  const scoped = guardedOperations(t).filter((operation) =>
    operation.security.scopes.some((entry) => levelOf(entry) === "read_only"),
  );
  const read = plainRead(t, scoped);
  const scope = read?.security.scopes.find((entry) => levelOf(entry) === "read_only");
  if (!read || !scope) return t.skip("the spec has no read operation with a read_only scope to ask for");
  return { scope, read };
}

/** Logs the user in for `client`; answers the URL the login server sent the user to, with the state sent. */
export async function landing(
  t: CaseContext,
  client: OAuthClient,
  responseType: "code" | "token",
  scope: string,
) {
  const credentials = loginCredentials(t) ?? t.skip(noLogin);
  const outcome = await logIn(t, client, { responseType, scope }, credentials);
  if (!outcome.ok) {
    t.expect("the login form logs the user in", false, {
      message: `could not log in through the login form: ${outcome.reason}`,
      ...(outcome.response ? { response: outcome.response } : {}),
    });
    return undefined;
  }
  const url = new URL(outcome.landed);
  const redirected = "the login redirects to the client's redirect URI";
  const actual = `${url.origin}${url.pathname}`;
  t.expect(redirected, outcome.landed.startsWith(client.redirectUri), {
    expected: client.redirectUri,
    actual,
  });
  return { url, state: outcome.state };
}

/** A fresh authorization code for the private client (or undefined, the failure already recorded). */
export async function freshCode(
  t: CaseContext,
  client: OAuthClient,
  scope: string,
): Promise<string | undefined> {
  const landed = await landing(t, client, "code", scope);
  if (!landed) return undefined;
  const code = landed.url.searchParams.get("code");
  t.expect("the redirect carries a code", typeof code === "string" && code !== "", {
    actual: landed.url.search ? "a query without code" : "no query",
  });
  const state = landed.url.searchParams.get("state");
  t.expect("the redirect passes state back unchanged", state === landed.state, {
    expected: landed.state,
    actual: state,
  });
  if (code) t.secret(code);
  return code ?? undefined;
}

export function tokenForm(client: OAuthClient, fields: Record<string, string>) {
  return { client_id: client.id, client_secret: client.secret, ...fields };
}

export type TokenPair = {
  readonly access: string;
  readonly refresh: string | undefined;
  readonly scope: string;
};

/** Judges a token endpoint answer that must hand out a pair; answers the pair. */
export function expectTokenResponse(t: CaseContext, what: string, response: LiveResponse, scope: string) {
  const ok = expectStatus(t, `${what} answers 200 with tokens`, response, 200);
  const body = response.json as Record<string, unknown> | undefined;
  if (!ok || !body || typeof body.access_token !== "string") return undefined;
  const fields: [string, boolean, unknown, unknown][] = [
    ["token_type is bearer", String(body.token_type).toLowerCase() === "bearer", "bearer", body.token_type],
    [`expires_in is ${lifetime}`, body.expires_in === lifetime, lifetime, body.expires_in],
    ["the granted scope is the one asked for", sameScopes(String(body.scope), scope), scope, body.scope],
  ];
  for (const [name, held, expected, actual] of fields) t.expect(name, held, { expected, actual, response });
  const refresh = typeof body.refresh_token === "string" ? body.refresh_token : undefined;
  t.expect(`${what} hands out a refresh token`, refresh !== undefined && refresh !== "", {
    actual: body.refresh_token === undefined ? "none" : typeof body.refresh_token,
    response,
  });
  return { access: body.access_token, refresh, scope: typeof body.scope === "string" ? body.scope : scope };
}

export function expectRefused(t: CaseContext, name: string, response: LiveResponse): void {
  t.expect(name, response.status === 400 || response.status === 401, {
    message: `${name}: answered ${response.status}`,
    expected: "400 or 401",
    actual: response.status,
    response,
  });
}

/** The token works on the API within its scope: a read it grants answers 200, an operation beyond it 403. */
export async function expectWorksWithinScope(t: CaseContext, access: string, scope: string, read: Operation) {
  const allowed = await t.api.get(pathOf(read), { token: access });
  const works = `${read.operationId} with the OAuth token answered ${allowed.status}`;
  expectStatus(t, "an OAuth token works on the API", allowed, 200, works);
  const echoes = (value?: string) => sameScopes(value, scope);
  const where = { where: read.operationId, expected: scope };
  expectDocumentedHeader(
    t,
    "X-OAuth-Scopes echoes the OAuth token's scope",
    allowed,
    "X-OAuth-Scopes",
    echoes,
    where,
  );
  const granted = scopeSet(scope);
  const beyond = guardedOperations(t).find(
    (operation) =>
      operation.security.scopes.length > 0 &&
      operation.security.scopes.every(
        (needed) =>
          !granted.has(needed) && !granted.has(`${areaOf(needed)}:read_write`) && !granted.has(everyScope),
      ),
  );
  const refused = beyond && (await sendProbe(t, beyond, access));
  if (!beyond || !refused) return;
  const needs = `${beyond.operationId} (needs ${beyond.security.scopes.join(" or ")})`;
  const message = `${needs} with a "${scope}" OAuth token answered ${refused.status}`;
  expectStatus(t, "an OAuth token is refused beyond its scope", refused, 403, message);
}

/** Creates a private or a public OAuth client, asserting it is; answers it, or undefined. */
export async function createClient(t: CaseContext, isPublic: boolean): Promise<OAuthClient | undefined> {
  requireWrites(t, "creating an OAuth client changes the account");
  const outcome = await registerOAuthClient(t, isPublic ? "oauth-public" : "oauth-private", {
    redirectUri: redirectUriOf(t),
    public: isPublic,
  });
  const { ok, response } = outcome;
  t.expect("an OAuth client can be created", ok, { expected: 200, actual: response.status, response });
  return outcome.ok ? outcome.client : undefined;
}

/**
 * The secret shown at creation is not shown again: not by a read of the client, not in the list (facts.md: later
 * reads say `<REDACTED>`). Judged on the whole answer, so a secret under another field name is caught too.
 */
export async function expectSecretWithheld(t: CaseContext, client: OAuthClient): Promise<void> {
  if (client.secret === "") return t.skip("the client was created without a secret: nothing to hide later");
  const read = await call(t, "getOAuthClient", { params: [client.id] });
  if (expectStatus(t, "the OAuth client reads back by its id", read, 200))
    expectNoSecret(t, "the OAuth client read by its id", read, client.secret);
  const list = requireOperation(t, "getOAuthClients");
  const walked = await walk(t, { operation: list, path: pathOf(list), token: undefined });
  if (walked.status === "refused")
    return void expectStatus(t, "the OAuth clients list", walked.response, 200);
  const listed = walked.items.some((item) => item.id === client.id);
  if (!listed && !walked.complete)
    return t.log(`the client is not on the first ${walked.pages} pages of the list: its entry is not judged`);
  const shown = { expected: `a client with id ${client.id}`, actual: "none" };
  if (!t.expect("the OAuth client is listed", listed, shown)) return;
  for (const { read: page } of walked.answers)
    expectNoSecret(t, "the OAuth clients list", page.response, client.secret);
}

function expectNoSecret(t: CaseContext, where: string, response: LiveResponse, secret: string): void {
  const shown = response.text.includes(secret);
  // Said by its kind, never quoted: a secret shown in full is no one's to read in a report.
  t.expect(`${where} does not show its secret`, !shown, {
    expected: "the secret not shown (the service says <REDACTED>)",
    actual: shown ? "the secret in full (withheld here)" : "not shown",
    response,
  });
}
