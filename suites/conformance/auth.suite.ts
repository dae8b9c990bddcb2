/**
 * Authentication, the scope matrix and OAuth, derived from the spec:
 * - without a token, with a malformed `Authorization`, with an unknown or an expired token, every operation that
 *   needs a token answers 401 `Invalid Token` with `X-OAuth-Scopes: unknown`;
 * - public operations answer without a token, with `X-Accepted-OAuth-Scopes: *` (facts.md);
 * - the scope matrix over EVERY operation that needs a token: a token holding exactly the scope the spec names
 *   gets past authorization, `<area>:read_write` implies `<area>:read_only`, a `read_only` token cannot write, a
 *   token of another area gets 403, `*` does everything; `X-Accepted-OAuth-Scopes` names the needed scope and
 *   `X-OAuth-Scopes` echoes the token's own. Every request is a harmless probe (unknown ids, a body every target
 *   refuses), so a target that wrongly lets a token through still changes nothing;
 * - OAuth: a private client's authorization code flow through the login form (credentials from
 *   `suiteOptions.login`; the embedded target supplies its seeded user), the code exchanged urlencoded and
 *   multipart, `token_type` bearer and `expires_in` 7200, a reused code and a wrong secret refused, refresh giving a
 *   new pair and the used refresh token refused; a public client's implicit flow with the token in the fragment and
 *   no refresh token; every token obtained works on the API within its scope, and only there.
 *
 * Tokens are minted through `/profile/tokens` with the run's token and OAuth clients created through
 * `/account/oauth-clients`; all are revoked or deleted at the end of the run (the cleanup ledger). Those cases
 * change the account, so they run on the embedded target or with `--allow-writes` and skip otherwise.
 * Options: `suiteOptions.login` {username, password}; `suiteOptions.oauth.redirectUri` (default
 * `https://conform.invalid/callback`: never resolved, the suite only reads the redirect); `suiteOptions.loginDriver`
 * (programmatic runs: a function that logs in some other way, e.g. in a browser).
 */
import { randomBytes } from "node:crypto";
import { type CaseContext, defineSuite, type LiveResponse } from "../../src/index.ts";
import { loginCredentials, loginDriverFor, multipartBody } from "./support/oauth-login.ts";
import {
  apiOperations,
  errorReasons,
  guardedOperations,
  type MintedToken,
  mintOrSkip,
  mintToken,
  type Operation,
  pause,
  plainRead,
  sameScopes,
  scopeSet,
  sendProbe,
} from "./support/protocol.ts";

const invalidToken = "Invalid Token";
const accessTokenLifetime = 7200;

/** Asserts the 401 the description gives for a missing or bad token. */
function expectInvalidToken(
  t: CaseContext,
  what: string,
  operation: Operation,
  response: LiveResponse,
): void {
  const at = `${operation.operationId} ${what}`;
  t.expect("a request without a valid token answers 401", response.status === 401, {
    message: `${at} answered ${response.status}`,
    expected: 401,
    actual: response.status,
    response,
  });
  if (response.status !== 401) return;
  t.expect("401 says Invalid Token", errorReasons(response).includes(invalidToken), {
    message: `${at}: the 401's reasons do not include "${invalidToken}"`,
    expected: invalidToken,
    actual: errorReasons(response),
    response,
  });
  t.expect("401 carries X-OAuth-Scopes: unknown", response.headers["x-oauth-scopes"] === "unknown", {
    message: `${at}: X-OAuth-Scopes is ${response.headers["x-oauth-scopes"] ?? "missing"}`,
    expected: "unknown",
    actual: response.headers["x-oauth-scopes"],
    response,
  });
}

/** Sends the harmless probe of every guarded operation with `token` and expects 401 each time. */
async function everyOperationRefuses(t: CaseContext, what: string, token: string | null): Promise<void> {
  const operations = guardedOperations(t);
  if (operations.length === 0) return t.skip("the spec has no operation that needs a token");
  for (const operation of operations) {
    const response = await sendProbe(t, operation, token);
    if (response) expectInvalidToken(t, what, operation, response);
  }
}

function areaOf(scope: string): string {
  return scope.split(":")[0] ?? scope;
}

function levelOf(scope: string): string {
  return scope.split(":")[1] ?? "";
}

type Expectation = "allowed" | "forbidden";

/** One row of the matrix: an operation called with one token, and what must happen. */
function judgeRow(
  t: CaseContext,
  operation: Operation,
  token: MintedToken,
  expectation: Expectation,
  rule: string,
  response: LiveResponse,
): void {
  const needed = operation.security.scopes;
  const at = `${operation.operationId} with a "${token.scopes}" token`;
  const authorized = response.status !== 401 && response.status !== 403;
  if (expectation === "allowed") {
    t.expect(rule, authorized, {
      message: `${at} was refused (${response.status}); it needs ${needed.join(" or ")}`,
      expected: "not 401 or 403",
      actual: response.status,
      response,
    });
  } else {
    t.expect(rule, response.status === 403, {
      message: `${at} answered ${response.status}; it needs ${needed.join(" or ")}`,
      expected: 403,
      actual: response.status,
      response,
    });
  }
  if (response.status === 401) return;
  const accepted = scopeSet(response.headers["x-accepted-oauth-scopes"]);
  t.expect(
    "X-Accepted-OAuth-Scopes names the needed scope",
    accepted.size > 0 && needed.some((scope) => accepted.has(scope)),
    {
      message: `${at}: X-Accepted-OAuth-Scopes is ${response.headers["x-accepted-oauth-scopes"] ?? "missing"}`,
      expected: needed.join(" or "),
      actual: response.headers["x-accepted-oauth-scopes"],
      response,
    },
  );
  t.expect(
    "X-OAuth-Scopes echoes the token's scopes",
    sameScopes(response.headers["x-oauth-scopes"], token.scopes),
    {
      message: `${at}: X-OAuth-Scopes is ${response.headers["x-oauth-scopes"] ?? "missing"}`,
      expected: token.scopes,
      actual: response.headers["x-oauth-scopes"],
      response,
    },
  );
}

interface OAuthClient {
  readonly id: string;
  readonly secret: string;
  readonly redirectUri: string;
}

const defaultRedirectUri = "https://conform.invalid/callback";

function redirectUriOf(t: CaseContext): string {
  const oauth = t.options.oauth as { redirectUri?: unknown } | undefined;
  return typeof oauth?.redirectUri === "string" ? oauth.redirectUri : defaultRedirectUri;
}

/** The scope the OAuth cases ask for: read_only of the area of the API's plain read (account on this API). */
function requestedScope(t: CaseContext): { scope: string; read: Operation } {
  const read = plainRead(t);
  const scope = read?.security.scopes.find((entry) => levelOf(entry) === "read_only");
  if (!read || !scope) return t.skip("the spec has no read operation with a read_only scope to ask for");
  return { scope, read };
}

function clientFrom(t: CaseContext, key: string): OAuthClient {
  const client = t.shared.get(key) as OAuthClient | undefined;
  if (!client) return t.skip(`no ${key}: the case that creates it did not run or the target refused it`);
  return client;
}

function credentialsOrSkip(t: CaseContext) {
  const login = loginCredentials(t);
  if (!login) {
    t.skip(
      "no login credentials: set suiteOptions.login.username and .password in the config (the embedded target supplies its seeded user)",
    );
  }
  return login;
}

/** Logs the user in for `client`; answers the URL the login server sent the user to, with the state sent. */
async function logIn(
  t: CaseContext,
  client: OAuthClient,
  responseType: "code" | "token",
  scope: string,
): Promise<{ url: URL; state: string } | undefined> {
  const login = credentialsOrSkip(t);
  const state = randomBytes(6).toString("hex");
  const query = new URLSearchParams({ client_id: client.id, response_type: responseType, scope, state });
  const authorizeUrl = `${t.target.authUrl}/oauth/authorize?${query}`;
  let landed: string;
  try {
    landed = await loginDriverFor(t)({ authorizeUrl, redirectUri: client.redirectUri, ...login });
  } catch (error) {
    const response = (error as { response?: LiveResponse }).response;
    t.expect("the login form logs the user in", false, {
      message: `could not log in through the login form: ${(error as Error)?.message ?? error}`,
      ...(response ? { response } : {}),
    });
    return undefined;
  }
  const url = new URL(landed);
  t.expect("the login redirects to the client's redirect URI", landed.startsWith(client.redirectUri), {
    expected: client.redirectUri,
    actual: `${url.origin}${url.pathname}`,
  });
  return { url, state };
}

/** A fresh authorization code for the private client (or undefined, the failure already recorded). */
async function freshCode(t: CaseContext, client: OAuthClient, scope: string): Promise<string | undefined> {
  const landed = await logIn(t, client, "code", scope);
  if (!landed) return undefined;
  const code = landed.url.searchParams.get("code");
  t.expect("the redirect carries a code", typeof code === "string" && code !== "", {
    actual: landed.url.search ? "a query without code" : "no query",
  });
  t.expect(
    "the redirect passes state back unchanged",
    landed.url.searchParams.get("state") === landed.state,
    {
      expected: landed.state,
      actual: landed.url.searchParams.get("state"),
    },
  );
  if (code) t.secret(code);
  return code ?? undefined;
}

function tokenForm(client: OAuthClient, fields: Record<string, string>): Record<string, string> {
  return { client_id: client.id, client_secret: client.secret, ...fields };
}

function postToken(t: CaseContext, fields: Record<string, string>): Promise<LiveResponse> {
  return t.auth.request("POST", "/oauth/token", { form: fields, token: null, retry: false });
}

function postTokenMultipart(t: CaseContext, fields: Record<string, string>): Promise<LiveResponse> {
  const { body, contentType } = multipartBody(fields);
  return t.auth.request("POST", "/oauth/token", {
    body,
    headers: { "content-type": contentType },
    token: null,
    retry: false,
  });
}

interface TokenPair {
  readonly access: string;
  readonly refresh: string | undefined;
  readonly scope: string;
}

/** Judges a token endpoint answer that must hand out a pair; answers the pair. */
function expectTokenResponse(
  t: CaseContext,
  what: string,
  response: LiveResponse,
  scope: string,
): TokenPair | undefined {
  const ok = t.expect(`${what} answers 200 with tokens`, response.status === 200, {
    expected: 200,
    actual: response.status,
    response,
  });
  const body = response.json as Record<string, unknown> | undefined;
  if (!ok || !body || typeof body.access_token !== "string") return undefined;
  t.expect("token_type is bearer", String(body.token_type).toLowerCase() === "bearer", {
    expected: "bearer",
    actual: body.token_type,
    response,
  });
  t.expect(`expires_in is ${accessTokenLifetime}`, body.expires_in === accessTokenLifetime, {
    expected: accessTokenLifetime,
    actual: body.expires_in,
    response,
  });
  t.expect("the granted scope is the one asked for", sameScopes(String(body.scope), scope), {
    expected: scope,
    actual: body.scope,
    response,
  });
  t.expect(
    `${what} hands out a refresh token`,
    typeof body.refresh_token === "string" && body.refresh_token !== "",
    {
      actual: body.refresh_token === undefined ? "none" : typeof body.refresh_token,
      response,
    },
  );
  return {
    access: body.access_token,
    refresh: typeof body.refresh_token === "string" ? body.refresh_token : undefined,
    scope: typeof body.scope === "string" ? body.scope : scope,
  };
}

function expectRefused(t: CaseContext, name: string, response: LiveResponse): void {
  t.expect(name, response.status === 400 || response.status === 401, {
    message: `${name}: answered ${response.status}`,
    expected: "400 or 401",
    actual: response.status,
    response,
  });
}

/** The token works on the API within its scope: a read it grants answers 200, an operation beyond it 403. */
async function expectWorksWithinScope(
  t: CaseContext,
  access: string,
  scope: string,
  read: Operation,
): Promise<void> {
  const allowed = await t.api.get(read.pathTemplate, { token: access });
  t.expect("an OAuth token works on the API", allowed.status === 200, {
    message: `${read.operationId} with the OAuth token answered ${allowed.status}`,
    expected: 200,
    actual: allowed.status,
    response: allowed,
  });
  t.expect(
    "X-OAuth-Scopes echoes the OAuth token's scope",
    sameScopes(allowed.headers["x-oauth-scopes"], scope),
    {
      expected: scope,
      actual: allowed.headers["x-oauth-scopes"],
      response: allowed,
    },
  );
  const granted = scopeSet(scope);
  const beyond = guardedOperations(t).find(
    (operation) =>
      operation.security.scopes.length > 0 &&
      operation.security.scopes.every(
        (needed) => !granted.has(needed) && !granted.has(`${areaOf(needed)}:read_write`) && !granted.has("*"),
      ),
  );
  if (!beyond) return;
  const refused = await sendProbe(t, beyond, access);
  if (!refused) return;
  t.expect("an OAuth token is refused beyond its scope", refused.status === 403, {
    message: `${beyond.operationId} (needs ${beyond.security.scopes.join(" or ")}) with a "${scope}" OAuth token answered ${refused.status}`,
    expected: 403,
    actual: refused.status,
    response: refused,
  });
}

async function createClient(t: CaseContext, key: string, isPublic: boolean): Promise<void> {
  if (!t.target.writesAllowed) {
    t.skip(
      "creating an OAuth client changes the account: run against the embedded target or pass --allow-writes",
    );
  }
  const redirectUri = redirectUriOf(t);
  const response = await t.api.post("/account/oauth-clients", {
    label: t.label(isPublic ? "oauth-public" : "oauth-private"),
    redirect_uri: redirectUri,
    public: isPublic,
  });
  const body = response.json as { id?: unknown; secret?: unknown } | undefined;
  if (
    !t.expect("an OAuth client can be created", response.status === 200 && typeof body?.id === "string", {
      expected: 200,
      actual: response.status,
      response,
    })
  )
    return;
  const id = body!.id as string;
  t.cleanup(`OAuth client ${id}`, `/account/oauth-clients/${encodeURIComponent(id)}`);
  const secret = typeof body?.secret === "string" ? body.secret : "";
  t.secret(secret);
  t.shared.set(key, { id, secret, redirectUri } satisfies OAuthClient);
}

export default defineSuite({
  id: "auth",
  title: "Authentication, scopes and OAuth",
  description:
    "401s for missing, malformed, unknown and expired tokens; the scope matrix over every operation; the OAuth " +
    "private and public flows through the login form. Token and client creation run on the embedded target or " +
    "with --allow-writes.",
  tags: ["protocol"],
  cases: [
    {
      id: "no-token",
      title: "Every operation that needs a token answers 401 Invalid Token without one",
      run: (t) => everyOperationRefuses(t, "without a token", null),
    },
    {
      id: "unknown-token",
      title: "Every operation that needs a token answers 401 Invalid Token to an unknown token",
      run: (t) => everyOperationRefuses(t, "with an unknown token", randomBytes(32).toString("hex")),
    },
    {
      id: "malformed-authorization",
      title: "A malformed Authorization header answers 401 Invalid Token",
      run: async (t) => {
        const operation = plainRead(t);
        if (!operation) return t.skip("the spec has no plain read that needs a token");
        const malformed = [
          "Bearer",
          "Bearer ",
          `Basic ${Buffer.from("user:password").toString("base64")}`,
          `Token ${randomBytes(32).toString("hex")}`,
          `Bearer ${randomBytes(32).toString("hex")} extra`,
          randomBytes(32).toString("hex"),
        ];
        for (const value of malformed) {
          const response = await t.api.get(operation.pathTemplate, {
            token: null,
            headers: { authorization: value },
          });
          expectInvalidToken(t, `with Authorization "${value.split(" ")[0]}..."`, operation, response);
        }
      },
    },
    {
      id: "expired-token",
      title: "A token past its expiry answers 401 Invalid Token",
      run: async (t) => {
        const operation = plainRead(t);
        if (!operation) return t.skip("the spec has no plain read that needs a token");
        if (!t.target.writesAllowed) {
          t.skip(
            "minting a token through /profile/tokens changes the account: run against the embedded target or pass --allow-writes",
          );
        }
        const lifetimeMs = 1500;
        const expiresAt = Date.now() + lifetimeMs;
        const scope = operation.security.scopes[0] ?? "*";
        const outcome = await mintToken(t, "expiring", scope, new Date(expiresAt).toISOString());
        if (!outcome.ok) {
          return t.skip(
            `the target refused a token expiring in ${lifetimeMs / 1000} s (${outcome.response.status}): it may need a later expiry`,
          );
        }
        const before = await t.api.get(operation.pathTemplate, { token: outcome.minted.token });
        if (before.status === 401)
          t.skip("the token had expired before its first use (a slow target?): nothing to compare");
        t.expect("the expiring token works before its expiry", before.status === 200, {
          expected: 200,
          actual: before.status,
          response: before,
        });
        // The target's clock may differ from ours: wait past the expiry with a margin (small on loopback).
        await pause(expiresAt - Date.now() + (t.target.embedded ? 300 : 2000), t.signal);
        const after = await t.api.get(operation.pathTemplate, { token: outcome.minted.token });
        t.expect("an expired token is refused", after.status === 401, {
          message: `${operation.operationId} with a token that expired at ${new Date(expiresAt).toISOString()} answered ${after.status}`,
          expected: 401,
          actual: after.status,
          response: after,
        });
        if (after.status === 401) expectInvalidToken(t, "with an expired token", operation, after);
      },
    },
    {
      id: "public-operations",
      title: "Public operations answer without a token and accept any scope (X-Accepted-OAuth-Scopes: *)",
      run: async (t) => {
        const open = apiOperations(t).filter((operation) => operation.security.public);
        if (open.length === 0) return t.skip("the spec has no public operation");
        for (const operation of open) {
          const response = await sendProbe(t, operation, null);
          if (!response) continue;
          t.expect("a public operation needs no token", response.status !== 401 && response.status !== 403, {
            message: `${operation.operationId} without a token answered ${response.status}`,
            expected: "not 401 or 403",
            actual: response.status,
            response,
          });
          t.expect(
            "a public operation accepts any scope",
            response.headers["x-accepted-oauth-scopes"] === "*",
            {
              message: `${operation.operationId}: X-Accepted-OAuth-Scopes is ${response.headers["x-accepted-oauth-scopes"] ?? "missing"}`,
              expected: "*",
              actual: response.headers["x-accepted-oauth-scopes"],
              response,
            },
          );
        }
      },
    },
    {
      id: "scope-matrix",
      title:
        "Every operation: exactly its scope suffices, read_write implies read_only, read_only cannot write, other areas get 403, * does all",
      run: async (t) => {
        const operations = guardedOperations(t).filter((operation) => operation.security.scopes.length > 0);
        if (operations.length === 0) return t.skip("no operation of the spec names a scope");
        const scopes = new Set(operations.flatMap((operation) => operation.security.scopes));
        const areas = [...new Set([...scopes].map(areaOf))];
        // One token per scope level of each area the spec uses, and one with *.
        const tokens = new Map<string, MintedToken>();
        for (const area of areas) {
          for (const level of ["read_only", "read_write"]) {
            const scope = `${area}:${level}`;
            tokens.set(scope, await mintOrSkip(t, `scope-${area}-${level}`, scope));
          }
        }
        const star = await mintOrSkip(t, "scope-all", "*");
        let rows = 0;
        for (const operation of operations) {
          const probe = (token: MintedToken) => sendProbe(t, operation, token.token);
          const row = async (token: MintedToken | undefined, expectation: Expectation, rule: string) => {
            if (!token) return;
            const response = await probe(token);
            if (!response) return;
            rows += 1;
            judgeRow(t, operation, token, expectation, rule, response);
          };
          const needed = operation.security.scopes[0]!;
          const area = areaOf(needed);
          await row(tokens.get(needed), "allowed", "a token with exactly the needed scope is let through");
          if (levelOf(needed) === "read_only") {
            await row(tokens.get(`${area}:read_write`), "allowed", "read_write implies read_only");
          } else if (
            levelOf(needed) === "read_write" &&
            !operation.security.scopes.some((s) => levelOf(s) === "read_only")
          ) {
            await row(tokens.get(`${area}:read_only`), "forbidden", "a read_only token cannot write");
          }
          const otherArea = areas.find(
            (candidate) => !operation.security.scopes.some((s) => areaOf(s) === candidate),
          );
          if (otherArea) {
            await row(tokens.get(`${otherArea}:read_write`), "forbidden", "a token of another area gets 403");
          }
          await row(star, "allowed", "a * token does everything");
        }
        t.log(`scope matrix: ${operations.length} operations, ${rows} requests, ${tokens.size + 1} tokens`);
      },
    },
    {
      id: "oauth-clients",
      title: "A private and a public OAuth client can be created",
      run: async (t) => {
        await createClient(t, "private client", false);
        await createClient(t, "public client", true);
      },
    },
    {
      id: "code-exchange-urlencoded",
      title:
        "Private flow: log in through the form, exchange the code (form-urlencoded) for a bearer pair lasting 7200 s",
      run: async (t) => {
        const client = clientFrom(t, "private client");
        const { scope, read } = requestedScope(t);
        const code = await freshCode(t, client, scope);
        if (!code) return;
        const response = await postToken(t, tokenForm(client, { code }));
        const pair = expectTokenResponse(t, "the code exchange (urlencoded)", response, scope);
        if (!pair) return;
        t.shared.set("pair", pair);
        t.shared.set("used code", code);
        await expectWorksWithinScope(t, pair.access, pair.scope, read);
      },
    },
    {
      id: "code-reuse-refused",
      title: "A code already exchanged is refused",
      run: async (t) => {
        const client = clientFrom(t, "private client");
        const code = t.shared.get("used code") as string | undefined;
        if (!code) return t.skip("no exchanged code: the exchange case did not succeed");
        expectRefused(t, "a reused code is refused", await postToken(t, tokenForm(client, { code })));
      },
    },
    {
      id: "code-exchange-multipart",
      title: "Private flow: the code exchange also takes multipart/form-data",
      run: async (t) => {
        const client = clientFrom(t, "private client");
        const { scope, read } = requestedScope(t);
        const code = await freshCode(t, client, scope);
        if (!code) return;
        const response = await postTokenMultipart(t, tokenForm(client, { code }));
        const pair = expectTokenResponse(t, "the code exchange (multipart)", response, scope);
        if (pair) await expectWorksWithinScope(t, pair.access, pair.scope, read);
      },
    },
    {
      id: "wrong-secret-refused",
      title: "A code exchange with a wrong client_secret is refused",
      run: async (t) => {
        const client = clientFrom(t, "private client");
        const { scope } = requestedScope(t);
        const code = await freshCode(t, client, scope);
        if (!code) return;
        const wrong = {
          ...client,
          secret: `${client.secret.slice(0, -1)}${client.secret.endsWith("0") ? "1" : "0"}`,
        };
        expectRefused(t, "a wrong client_secret is refused", await postToken(t, tokenForm(wrong, { code })));
      },
    },
    {
      id: "refresh",
      title: "Refresh gives a new pair; the used refresh token is then refused; the new one works again",
      run: async (t) => {
        const client = clientFrom(t, "private client");
        const { read } = requestedScope(t);
        const pair = t.shared.get("pair") as TokenPair | undefined;
        if (!pair?.refresh) return t.skip("no refresh token: the code exchange case did not hand one out");
        const refresh = (token: string) =>
          postToken(t, tokenForm(client, { grant_type: "refresh_token", refresh_token: token }));
        const renewed = expectTokenResponse(t, "a refresh", await refresh(pair.refresh), pair.scope);
        if (!renewed) return;
        t.expect("a refresh gives a new access token", renewed.access !== pair.access);
        t.expect("a refresh gives a new refresh token", renewed.refresh !== pair.refresh);
        await expectWorksWithinScope(t, renewed.access, renewed.scope, read);
        expectRefused(t, "a used refresh token is refused", await refresh(pair.refresh));
        if (renewed.refresh) {
          expectTokenResponse(t, "a second refresh", await refresh(renewed.refresh), pair.scope);
        }
      },
    },
    {
      id: "public-flow",
      title: "Public flow: the token arrives in the fragment, bearer, 7200 s, no refresh token, and works",
      run: async (t) => {
        const client = clientFrom(t, "public client");
        const { scope, read } = requestedScope(t);
        const landed = await logIn(t, client, "token", scope);
        if (!landed) return;
        t.expect(
          "the public flow puts nothing in the query",
          !landed.url.searchParams.has("access_token") && !landed.url.searchParams.has("code"),
          {
            actual: landed.url.search,
          },
        );
        const fragment = new URLSearchParams(landed.url.hash.slice(1));
        const access = fragment.get("access_token");
        if (access) t.secret(access);
        if (!t.expect("the fragment carries access_token", typeof access === "string" && access !== ""))
          return;
        t.expect(
          "the fragment's token_type is bearer",
          fragment.get("token_type")?.toLowerCase() === "bearer",
          {
            expected: "bearer",
            actual: fragment.get("token_type"),
          },
        );
        t.expect(
          `the fragment's expires_in is ${accessTokenLifetime}`,
          fragment.get("expires_in") === String(accessTokenLifetime),
          {
            expected: String(accessTokenLifetime),
            actual: fragment.get("expires_in"),
          },
        );
        t.expect("the fragment passes state back unchanged", fragment.get("state") === landed.state, {
          expected: landed.state,
          actual: fragment.get("state"),
        });
        t.expect("a public client gets no refresh token", !fragment.has("refresh_token"), {
          expected: "no refresh_token",
          actual: fragment.has("refresh_token") ? "refresh_token in the fragment" : undefined,
        });
        await expectWorksWithinScope(t, access!, fragment.get("scope") ?? scope, read);
      },
    },
  ],
});
