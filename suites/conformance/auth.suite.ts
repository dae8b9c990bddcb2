/**
 * Authentication, the scope matrix and OAuth, derived from the description:
 * - without a token, with a malformed `Authorization`, with an unknown or an expired token, every operation that
 *   needs a token answers 401 `Invalid Token` with `X-OAuth-Scopes: unknown`;
 * - public operations answer without a token, with `X-Accepted-OAuth-Scopes: *` (facts.md);
 * - the scope matrix over EVERY operation that needs a token: a token holding exactly the scope the description
 *   names gets past authorization, `<area>:read_write` implies `<area>:read_only`, a `read_only` token cannot write,
 *   a token of another area gets 403, `*` does everything; `X-Accepted-OAuth-Scopes` names the needed scope and
 *   `X-OAuth-Scopes` echoes the token's own. Every request is a harmless probe (unknown ids, a body every target
 *   refuses), so a target that wrongly lets a token through still changes nothing;
 * - OAuth: a private client's authorization code flow through the login form (credentials from
 *   `suiteOptions.login`; the embedded target supplies its seeded user), the code exchanged urlencoded and
 *   multipart, `token_type` bearer and `expires_in` 7200, a reused code and a wrong secret refused, refresh giving a
 *   new pair and the used refresh token refused; a public client's implicit flow with the token in the fragment and
 *   no refresh token; every token obtained works on the API within its scope, and only there.
 *
 * Tokens are minted (createPersonalAccessToken) with the run's token and OAuth clients created
 * (createOAuthClient); all are revoked or deleted at the end of the run (the cleanup ledger). Those cases change
 * the account, so they run on the embedded target or with `--allow-writes` and skip otherwise.
 * Options: `suiteOptions.login` {username, password}; `suiteOptions.oauth.redirectUri` (default
 * `https://conform.invalid/callback`: never resolved, the suite only reads the redirect); the hook `loginDriver`
 * (programmatic runs: a function that logs in some other way, e.g. in a browser).
 */
import { randomBytes } from "node:crypto";
import {
  apiFacts,
  apiOperations,
  type CaseContext,
  defineSuite,
  errorReasons,
  expectDocumentedHeader,
  expectStatus,
  guardedOperations,
  type LiveResponse,
  logIn,
  loginCredentials,
  type MintedToken,
  mintOrSkip,
  mintToken,
  type OAuthClient,
  type Operation,
  pathOf,
  pause,
  plainRead,
  redirectUriOf,
  registerOAuthClient,
  requestToken,
  requireWrites,
  sameScopes,
  scopeSet,
  sendProbe,
  tokenName,
} from "../../src/index.ts";

const { invalidTokenReason, unknownScopes, everyScope, accessTokenLifetimeSeconds: lifetime } = apiFacts;
const noLogin =
  "no login credentials: set suiteOptions.login.username and .password in the config (the embedded target supplies its seeded user)";

/** Asserts the 401 the description gives for a missing or bad token (`at`: the operation and how it was called). */
function expectInvalidToken(t: CaseContext, at: string, response: LiveResponse): void {
  const rule = "a request without a valid token answers 401";
  if (!expectStatus(t, rule, response, 401, `${at} answered ${response.status}`)) return;
  const reasons = errorReasons(t, response);
  t.expect(`401 says ${invalidTokenReason}`, reasons.includes(invalidTokenReason), {
    message: `${at}: the 401's reasons do not include "${invalidTokenReason}"`,
    expected: invalidTokenReason,
    actual: reasons,
    response,
  });
  const unknown = (value?: string) => value === unknownScopes;
  const where = { where: at, expected: unknownScopes };
  expectDocumentedHeader(
    t,
    `401 carries X-OAuth-Scopes: ${unknownScopes}`,
    response,
    "X-OAuth-Scopes",
    unknown,
    where,
  );
}

/** Sends the harmless probe of every guarded operation with `token` and expects 401 each time. */
async function everyOperationRefuses(t: CaseContext, what: string, token: string | null): Promise<void> {
  const operations = guardedOperations(t);
  if (operations.length === 0) return t.skip("the spec has no operation that needs a token");
  for (const operation of operations) {
    const response = await sendProbe(t, operation, token);
    if (response) expectInvalidToken(t, `${operation.operationId} ${what}`, response);
  }
}

/** The plain read 401 cases send a bad token to (the profile here); skips without one. */
function guardedRead(t: CaseContext): Operation {
  return plainRead(t) ?? t.skip("the spec has no plain read that needs a token");
}

const areaOf = (scope: string) => scope.split(":")[0] ?? scope;
const levelOf = (scope: string) => scope.split(":")[1] ?? "";

/**
 * Answers a probe (unknown ids, a body of the wrong shape) may get before the target looks at the token's scope:
 * the description does not order the checks, so a refusal for the request itself says nothing of the scope.
 */
const judgedBeforeScope = new Set([400, 404, 405, 422]);

/**
 * One row of the matrix: an operation called with one token, and whether it must be let through. Answers false
 * when a row that must be refused could not be judged (the target refused the probe itself first).
 */
export function judgeRow(
  t: CaseContext,
  operation: Operation,
  token: MintedToken,
  allowed: boolean,
  rule: string,
  response: LiveResponse,
  scopeFirst: boolean,
): boolean {
  const needed = operation.security.scopes;
  const at = `${operation.operationId} with ${tokenName(token)}`;
  if (!allowed && !scopeFirst && judgedBeforeScope.has(response.status)) return false;
  const held = allowed ? response.status !== 401 && response.status !== 403 : response.status === 403;
  const verdict = allowed ? `was refused (${response.status})` : `answered ${response.status}`;
  t.expect(rule, held, {
    message: `${at} ${verdict}; it needs ${needed.join(" or ") || "any valid token"}`,
    expected: allowed ? "not 401 or 403" : 403,
    actual: response.status,
    response,
  });
  if (response.status === 401) return true;
  // An operation naming no scope (getProfile) takes any valid token and says so with `*`.
  const names = (value?: string) =>
    needed.length === 0
      ? value === apiFacts.publicAcceptedScopes
      : needed.some((scope) => scopeSet(value).has(scope));
  const needs = { where: at, expected: needed.join(" or ") || apiFacts.publicAcceptedScopes };
  expectDocumentedHeader(
    t,
    "X-Accepted-OAuth-Scopes names the needed scope",
    response,
    "X-Accepted-OAuth-Scopes",
    names,
    needs,
  );
  const echoes = (value?: string) => sameScopes(value, token.scopes);
  const own = { where: at, expected: token.scopes };
  expectDocumentedHeader(
    t,
    "X-OAuth-Scopes echoes the token's scopes",
    response,
    "X-OAuth-Scopes",
    echoes,
    own,
  );
  return true;
}

interface RowPlan {
  readonly token: MintedToken | undefined;
  readonly allowed: boolean;
  readonly rule: string;
}

/** The matrix's rows for an operation naming scopes: its own, read_write over read_only, read_only, another area, *. */
function scopeRows(
  operation: Operation,
  areas: readonly string[],
  tokens: ReadonlyMap<string, MintedToken>,
  star: MintedToken,
): RowPlan[] {
  const { scopes } = operation.security;
  const needed = scopes[0]!;
  const area = areaOf(needed);
  const plan: RowPlan[] = [
    {
      token: tokens.get(needed),
      allowed: true,
      rule: "a token with exactly the needed scope is let through",
    },
  ];
  if (levelOf(needed) === "read_only") {
    plan.push({
      token: tokens.get(`${area}:read_write`),
      allowed: true,
      rule: "read_write implies read_only",
    });
  } else if (levelOf(needed) === "read_write" && !scopes.some((s) => levelOf(s) === "read_only")) {
    plan.push({
      token: tokens.get(`${area}:read_only`),
      allowed: false,
      rule: "a read_only token cannot write",
    });
  }
  const otherArea = areas.find((candidate) => !scopes.some((s) => areaOf(s) === candidate));
  if (otherArea)
    plan.push({
      token: tokens.get(`${otherArea}:read_write`),
      allowed: false,
      rule: "a token of another area gets 403",
    });
  plan.push({ token: star, allowed: true, rule: "a * token does everything" });
  return plan;
}

/** The scope the OAuth cases ask for: read_only of the area of the API's plain read (account on this API). */
function requestedScope(t: CaseContext): { scope: string; read: Operation } {
  // A read that names a read_only scope (the profile takes any token, so it cannot tell scopes apart).
  const scoped = guardedOperations(t).filter((operation) =>
    operation.security.scopes.some((entry) => levelOf(entry) === "read_only"),
  );
  const read = plainRead(t, scoped);
  const scope = read?.security.scopes.find((entry) => levelOf(entry) === "read_only");
  if (!read || !scope) return t.skip("the spec has no read operation with a read_only scope to ask for");
  return { scope, read };
}

function clientFrom(t: CaseContext, key: string): OAuthClient {
  const client = t.shared.get(key) as OAuthClient | undefined;
  return client ?? t.skip(`no ${key}: the case that creates it did not run or the target refused it`);
}

/** Logs the user in for `client`; answers the URL the login server sent the user to, with the state sent. */
async function landing(t: CaseContext, client: OAuthClient, responseType: "code" | "token", scope: string) {
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
async function freshCode(t: CaseContext, client: OAuthClient, scope: string): Promise<string | undefined> {
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

function tokenForm(client: OAuthClient, fields: Record<string, string>) {
  return { client_id: client.id, client_secret: client.secret, ...fields };
}

type TokenPair = { readonly access: string; readonly refresh: string | undefined; readonly scope: string };

/** Judges a token endpoint answer that must hand out a pair; answers the pair. */
function expectTokenResponse(t: CaseContext, what: string, response: LiveResponse, scope: string) {
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

function expectRefused(t: CaseContext, name: string, response: LiveResponse): void {
  t.expect(name, response.status === 400 || response.status === 401, {
    message: `${name}: answered ${response.status}`,
    expected: "400 or 401",
    actual: response.status,
    response,
  });
}

/** The token works on the API within its scope: a read it grants answers 200, an operation beyond it 403. */
async function expectWorksWithinScope(t: CaseContext, access: string, scope: string, read: Operation) {
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

async function createClient(t: CaseContext, key: string, isPublic: boolean): Promise<void> {
  requireWrites(t, "creating an OAuth client changes the account");
  const outcome = await registerOAuthClient(t, isPublic ? "oauth-public" : "oauth-private", {
    redirectUri: redirectUriOf(t),
    public: isPublic,
  });
  const { ok, response } = outcome;
  t.expect("an OAuth client can be created", ok, { expected: 200, actual: response.status, response });
  if (outcome.ok) t.shared.set(key, outcome.client);
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
        const operation = guardedRead(t);
        const malformed = [
          "Bearer",
          "Bearer ",
          `Basic ${Buffer.from("user:password").toString("base64")}`,
          `Token ${randomBytes(32).toString("hex")}`,
          `Bearer ${randomBytes(32).toString("hex")} extra`,
          randomBytes(32).toString("hex"),
        ];
        for (const value of malformed) {
          const response = await t.api.get(pathOf(operation), {
            token: null,
            headers: { authorization: value },
          });
          const how = `with Authorization "${value.split(" ")[0]}..."`;
          expectInvalidToken(t, `${operation.operationId} ${how}`, response);
        }
      },
    },
    {
      id: "expired-token",
      title: "A token past its expiry answers 401 Invalid Token",
      run: async (t) => {
        const operation = guardedRead(t);
        requireWrites(t, "minting a token changes the account");
        const lifetimeMs = 1500;
        const expiresAt = Date.now() + lifetimeMs;
        const scope = operation.security.scopes[0] ?? everyScope;
        const outcome = await mintToken(t, "expiring", scope, new Date(expiresAt).toISOString());
        if (!outcome.ok) {
          return t.skip(
            `the target refused a token expiring in ${lifetimeMs / 1000} s (${outcome.response.status}): it may need a later expiry`,
          );
        }
        const token = outcome.minted.token;
        const before = await t.api.get(pathOf(operation), { token });
        if (before.status === 401)
          t.skip("the token had expired before its first use (a slow target?): nothing to compare");
        expectStatus(t, "the expiring token works before its expiry", before, 200);
        // The target's clock may differ from ours: wait past the expiry with a margin (small on loopback).
        await pause(expiresAt - Date.now() + (t.target.embedded ? 300 : 2000), t.signal);
        const after = await t.api.get(pathOf(operation), { token });
        const expired = `${operation.operationId} with a token that expired at ${new Date(expiresAt).toISOString()}`;
        expectStatus(t, "an expired token is refused", after, 401, `${expired} answered ${after.status}`);
        if (after.status === 401)
          expectInvalidToken(t, `${operation.operationId} with an expired token`, after);
      },
    },
    {
      id: "public-operations",
      title: "Public operations answer without a token and accept any scope (X-Accepted-OAuth-Scopes: *)",
      run: async (t) => {
        const open = apiOperations(t).filter((operation) => operation.security.public);
        if (open.length === 0) return t.skip("the spec has no public operation");
        const [any, accepted] = [apiFacts.publicAcceptedScopes, "X-Accepted-OAuth-Scopes"];
        for (const operation of open) {
          const response = await sendProbe(t, operation, null);
          if (!response) continue;
          t.expect("a public operation needs no token", response.status !== 401 && response.status !== 403, {
            message: `${operation.operationId} without a token answered ${response.status}`,
            expected: "not 401 or 403",
            actual: response.status,
            response,
          });
          const where = { where: operation.operationId, expected: any };
          const star = (value?: string) => value === any;
          expectDocumentedHeader(t, "a public operation accepts any scope", response, accepted, star, where);
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
        const areas = [...new Set(operations.flatMap((operation) => operation.security.scopes.map(areaOf)))];
        // One token per scope level of each area the description uses, and one with *.
        const tokens = new Map<string, MintedToken>();
        for (const area of areas) {
          for (const level of ["read_only", "read_write"]) {
            tokens.set(`${area}:${level}`, await mintOrSkip(t, `scope-${area}-${level}`, `${area}:${level}`));
          }
        }
        const star = await mintOrSkip(t, "scope-all", everyScope);
        let rows = 0;
        const unjudged: string[] = [];
        // Operations that name no scope take any valid token (getProfile on the real service).
        const anyToken = guardedOperations(t).filter((operation) => operation.security.scopes.length === 0);
        const plans: [Operation, RowPlan[]][] = [
          ...anyToken.map((operation): [Operation, RowPlan[]] => [
            operation,
            [
              {
                token: tokens.get(`${areas[0]}:read_only`),
                allowed: true,
                rule: "an operation naming no scope lets any valid token through",
              },
            ],
          ]),
          ...operations.map((operation): [Operation, RowPlan[]] => [
            operation,
            scopeRows(operation, areas, tokens, star),
          ]),
        ];
        for (const [operation, plan] of plans) {
          const sent: [RowPlan & { token: MintedToken }, LiveResponse][] = [];
          for (const entry of plan) {
            const response = entry.token && (await sendProbe(t, operation, entry.token.token));
            if (entry.token && response) sent.push([{ ...entry, token: entry.token }, response]);
          }
          rows += sent.length;
          // A 403 to one refused row shows this operation judges the scope before the request itself.
          const scopeFirst = sent.some(([entry, response]) => !entry.allowed && response.status === 403);
          for (const [entry, response] of sent) {
            if (!judgeRow(t, operation, entry.token, entry.allowed, entry.rule, response, scopeFirst))
              unjudged.push(`${operation.operationId} with ${tokenName(entry.token)} (${response.status})`);
          }
        }
        t.log(
          `scope matrix: ${operations.length + anyToken.length} operations, ${rows} requests, ${tokens.size + 1} tokens`,
        );
        if (unjudged.length > 0)
          t.log(
            `scope matrix: ${unjudged.length} refusals not judged: the target refused the probe itself before its scope (${unjudged.slice(0, 3).join(", ")}${unjudged.length > 3 ? ", ..." : ""})`,
          );
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
        const response = await requestToken(t, tokenForm(client, { code }));
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
        expectRefused(t, "a reused code is refused", await requestToken(t, tokenForm(client, { code })));
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
        const response = await requestToken(t, tokenForm(client, { code }), "multipart");
        const pair = expectTokenResponse(t, "the code exchange (multipart)", response, scope);
        if (pair) await expectWorksWithinScope(t, pair.access, pair.scope, read);
      },
    },
    {
      id: "wrong-secret-refused",
      title: "A code exchange with a wrong client_secret is refused",
      run: async (t) => {
        const client = clientFrom(t, "private client");
        const code = await freshCode(t, client, requestedScope(t).scope);
        if (!code) return;
        const secret = `${client.secret.slice(0, -1)}${client.secret.endsWith("0") ? "1" : "0"}`;
        const response = await requestToken(t, tokenForm({ ...client, secret }, { code }));
        expectRefused(t, "a wrong client_secret is refused", response);
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
          requestToken(t, tokenForm(client, { grant_type: "refresh_token", refresh_token: token }));
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
        const landed = await landing(t, client, "token", scope);
        if (!landed) return;
        const { searchParams, search, hash } = landed.url;
        t.expect(
          "the public flow puts nothing in the query",
          !searchParams.has("access_token") && !searchParams.has("code"),
          { actual: search },
        );
        const fragment = new URLSearchParams(hash.slice(1));
        const access = fragment.get("access_token");
        if (access) t.secret(access);
        if (!t.expect("the fragment carries access_token", typeof access === "string" && access !== ""))
          return;
        const [type, expires, state] = ["token_type", "expires_in", "state"].map((key) => fragment.get(key));
        const fields: [string, boolean, string, string | null | undefined][] = [
          ["the fragment's token_type is bearer", type?.toLowerCase() === "bearer", "bearer", type],
          [`the fragment's expires_in is ${lifetime}`, expires === `${lifetime}`, `${lifetime}`, expires],
          ["the fragment passes state back unchanged", state === landed.state, landed.state, state],
        ];
        for (const [name, held, expected, actual] of fields) t.expect(name, held, { expected, actual });
        t.expect("a public client gets no refresh token", !fragment.has("refresh_token"), {
          expected: "no refresh_token",
          actual: fragment.has("refresh_token") ? "refresh_token in the fragment" : undefined,
        });
        await expectWorksWithinScope(t, access!, fragment.get("scope") ?? scope, read);
      },
    },
  ],
});
