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
 *   no refresh token; every token obtained works on the API within its scope, and only there; a client read back
 *   later (by its id and in the list) does not show the secret it was created with.
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
  defineSuite,
  expectDocumentedHeader,
  expectStatus,
  mintToken,
  type OAuthClient,
  pathOf,
  pause,
  requestToken,
  requireWrites,
  sendProbe,
  sharedKey,
} from "../../src/index.ts";
import {
  createClient,
  expectRefused,
  expectSecretWithheld,
  expectTokenResponse,
  expectWorksWithinScope,
  freshCode,
  landing,
  requestedScope,
  type TokenPair,
  tokenForm,
} from "./support/auth-oauth.ts";
import { everyOperationRefuses, expectInvalidToken, guardedRead } from "./support/auth-refusals.ts";
import { judgeScopeMatrix } from "./support/auth-scopes.ts";

const { everyScope, accessTokenLifetimeSeconds: lifetime } = apiFacts;
/** The OAuth clients the oauth-clients case made, and what the first code exchange handed out. */
const privateKey = sharedKey<OAuthClient>("private client", {
  what: "the private OAuth client",
  from: "oauth-clients",
});
const publicKey = sharedKey<OAuthClient>("public client", {
  what: "the public OAuth client",
  from: "oauth-clients",
});
const exchange = "code-exchange-urlencoded";
/** Shared only when the exchange handed out a refresh token: the refresh case needs one. */
const pairKey = sharedKey<TokenPair & { readonly refresh: string }>("pair", {
  what: "a token pair with a refresh token",
  from: exchange,
});
const usedCodeKey = sharedKey<string>("used code", { what: "an exchanged code", from: exchange });

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
      run: judgeScopeMatrix,
    },
    {
      id: "oauth-clients",
      title: "A private and a public OAuth client can be created",
      run: async (t) => {
        const privateClient = await createClient(t, false);
        if (privateClient) t.shared.set(privateKey, privateClient);
        const publicClient = await createClient(t, true);
        if (publicClient) t.shared.set(publicKey, publicClient);
      },
    },
    {
      id: "oauth-client-read-back",
      title: "A private OAuth client read back later, by its id and in the list, does not show its secret",
      run: (t) => expectSecretWithheld(t, t.needs(privateKey)),
    },
    {
      id: "code-exchange-urlencoded",
      title:
        "Private flow: log in through the form, exchange the code (form-urlencoded) for a bearer pair lasting 7200 s",
      run: async (t) => {
        const client = t.needs(privateKey);
        const { scope, read } = requestedScope(t);
        const code = await freshCode(t, client, scope);
        if (!code) return;
        const response = await requestToken(t, tokenForm(client, { code }));
        const pair = expectTokenResponse(t, "the code exchange (urlencoded)", response, scope);
        if (!pair) return;
        if (pair.refresh) t.shared.set(pairKey, { ...pair, refresh: pair.refresh });
        t.shared.set(usedCodeKey, code);
        await expectWorksWithinScope(t, pair.access, pair.scope, read);
      },
    },
    {
      id: "code-reuse-refused",
      title: "A code already exchanged is refused",
      run: async (t) => {
        const client = t.needs(privateKey);
        const code = t.needs(usedCodeKey);
        expectRefused(t, "a reused code is refused", await requestToken(t, tokenForm(client, { code })));
      },
    },
    {
      id: "code-exchange-multipart",
      title: "Private flow: the code exchange also takes multipart/form-data",
      run: async (t) => {
        const client = t.needs(privateKey);
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
        const client = t.needs(privateKey);
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
        const client = t.needs(privateKey);
        const { read } = requestedScope(t);
        const pair = t.needs(pairKey);
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
        const client = t.needs(publicKey);
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
        if (access) await expectWorksWithinScope(t, access, fragment.get("scope") ?? scope, read);
      },
    },
  ],
});
