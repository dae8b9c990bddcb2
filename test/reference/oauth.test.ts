/**
 * The reference server's OAuth login server end to end over HTTPS, as a browser and an application would use
 * it: the login form, the login, the code exchange (urlencoded and multipart), refresh, the implicit flow,
 * and the refusals. Every answer is checked against the spec (the 302 and the HTML only for their status).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, FormData, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/reference/clock.ts";
import { launchChromium } from "../helpers/chromium.ts";
import {
  type ApiResponse,
  type ReferenceHarness,
  specMismatches,
  startReference,
} from "../helpers/reference.ts";

let harness: ReferenceHarness;
let dispatcher: Agent;
const clock = new ManualClock();

interface Client {
  id: string;
  secret: string;
  redirect_uri: string;
}

let privateClient: Client;
let publicClient: Client;

beforeAll(async () => {
  harness = await startReference({ clock });
  dispatcher = new Agent({ connect: { ca: harness.server.certificatePem } });
  const create = async (body: Record<string, unknown>) => {
    const response = await harness.call("POST", "/account/oauth-clients", { json: body });
    expect(response.status).toBe(200);
    return response.body as Client;
  };
  privateClient = await create({ label: "Private <App>", redirect_uri: "https://app.example.com/callback" });
  publicClient = await create({
    label: "spa",
    redirect_uri: "http://127.0.0.1:9/cb?kept=a%20b",
    public: true,
  });
});

afterAll(async () => {
  await dispatcher.close();
});

const unescapes: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#96": "`" };
const htmlUnescape = (value: string) =>
  value.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_all, name) => unescapes[name]!);

/** The hidden inputs of the login form, as a browser would submit them. */
function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[htmlUnescape(match[1]!)] = htmlUnescape(match[2]!);
  }
  return fields;
}

function showForm(params: Record<string, string>): Promise<ApiResponse> {
  return harness.callAuth("GET", `/oauth/authorize?${new URLSearchParams(params)}`, { token: null });
}

function submit(fields: Record<string, string>): Promise<ApiResponse> {
  return harness.callAuth("POST", "/oauth/authorize", { form: fields, token: null });
}

const credentials = () => ({
  username: harness.server.user.username,
  password: harness.server.user.password,
});

/** Drives the form like a browser: GET it, fill it in, submit; returns the login answer. */
async function logInThroughForm(params: Record<string, string>, login = credentials()): Promise<ApiResponse> {
  const form = await showForm(params);
  expect(form.status, form.text).toBe(200);
  return submit({ ...hiddenInputs(form.text), ...login });
}

async function codeFor(scope: string, state = "xyz"): Promise<string> {
  const answer = await logInThroughForm({
    client_id: privateClient.id,
    scopes: scope.replaceAll(" ", ","),
    state,
  });
  expect(answer.status, answer.text).toBe(302);
  return new URL(answer.headers.location!).searchParams.get("code")!;
}

function token(fields: Record<string, string>): Promise<ApiResponse> {
  return harness.callAuth("POST", "/oauth/token", { form: fields, token: null });
}

async function multipartToken(fields: Record<string, string>): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const answer = await request(`${harness.server.authUrl}/oauth/token`, {
    method: "POST",
    body: form,
    dispatcher,
  });
  const text = await answer.body.text();
  const headers = Object.fromEntries(
    Object.entries(answer.headers).map(([name, value]) => [name, String(value)]),
  );
  const response: ApiResponse = { status: answer.statusCode, headers, body: JSON.parse(text), text };
  expect(specMismatches(harness.spec, "POST", "/oauth/token", response)).toEqual([]);
  return response;
}

const errorFields = (response: ApiResponse) =>
  response.body.errors.map((error: { field?: string }) => error.field).sort();

describe("the login form", () => {
  it("is a small accessible HTML page carrying the request in hidden inputs", async () => {
    const response = await showForm({
      client_id: privateClient.id,
      scopes: "account:read_only",
      state: "s1",
    });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    const html = response.text;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<form method="post" action="/oauth/authorize"');
    expect(html).toContain('<label for="username">Username</label>');
    expect(html).toContain('<input id="username" name="username"');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<input id="password" name="password" type="password"');
    expect(html).toContain('<button type="submit" id="login">');
    expect(html).toContain("Private &lt;App&gt;");
    expect(hiddenInputs(html)).toEqual({
      client_id: privateClient.id,
      response_type: "code",
      scopes: "account:read_only",
      redirect_uri: privateClient.redirect_uri,
      state: "s1",
    });
    expect(response.headers["content-security-policy"]).toMatch(/^default-src 'none'; style-src 'sha256-/);
  });

  it("defaults response_type to code and scopes to *", async () => {
    const response = await showForm({ client_id: privateClient.id });
    expect(hiddenInputs(response.text)).toMatchObject({ response_type: "code", scopes: "*" });
    expect(hiddenInputs(response.text)).not.toHaveProperty("state");
  });

  it("escapes a hostile state everywhere it appears, and hands it back unchanged", async () => {
    const hostile = `"><script>alert('x')</script><img src=x onerror=alert(1)>&amp;\``;
    const response = await showForm({
      client_id: privateClient.id,
      state: hostile,
      scopes: "account:read_only",
    });
    expect(response.status).toBe(200);
    expect(response.text).not.toContain("<script>");
    expect(response.text).not.toContain("<img");
    expect(response.text).toContain("&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)");
    const fields = hiddenInputs(response.text);
    expect(fields.state).toBe(hostile);
    const answer = await submit({ ...fields, ...credentials() });
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.location!).searchParams.get("state")).toBe(hostile);
  });

  it.each([
    ["a missing client_id", {}, ["client_id"]],
    ["an unknown client_id", { client_id: "ffffffffffffffffffff" }, ["client_id"]],
    ["a bad response_type", { response_type: "id_token" }, ["response_type"]],
    ["response_type token for a private client", { response_type: "token" }, ["response_type"]],
    ["a mismatched redirect_uri", { redirect_uri: "https://evil.example/callback" }, ["redirect_uri"]],
    ["an unknown scope", { scopes: "account:read_only,everything:read_write" }, ["scopes"]],
    ["an empty scope", { scopes: "" }, ["scopes"]],
    [
      "several problems",
      { response_type: "nope", scopes: "x", redirect_uri: "https://e.example" },
      ["redirect_uri", "response_type", "scopes"],
    ],
  ])("refuses %s with 400 naming the field", async (_name, params, fields) => {
    const query = { client_id: privateClient.id, ...params } as Record<string, string>;
    if (_name === "a missing client_id") delete query.client_id;
    const response = await showForm(query);
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(errorFields(response)).toEqual(fields);
  });

  it("a public client must use response_type token", async () => {
    const refused = await showForm({ client_id: publicClient.id });
    expect(refused.status).toBe(400);
    expect(errorFields(refused)).toEqual(["response_type"]);
    expect((await showForm({ client_id: publicClient.id, response_type: "token" })).status).toBe(200);
  });

  it("refuses a parameter given twice", async () => {
    const response = await harness.callAuth(
      "GET",
      `/oauth/authorize?client_id=${privateClient.id}&scopes=*&scopes=account:read_only`,
      { token: null },
    );
    expect(response.status).toBe(400);
    expect(errorFields(response)).toEqual(["scopes"]);
  });
});

describe("logging in", () => {
  it.each([
    ["a wrong password", { password: "wrong-password" }],
    ["a wrong username", { username: "someone-else" }],
  ])("refuses %s with 401 and no redirect", async (_name, change) => {
    const answer = await logInThroughForm({ client_id: privateClient.id }, { ...credentials(), ...change });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ errors: [{ reason: "Invalid username or password" }] });
    expect(answer.headers.location).toBeUndefined();
  });

  it("never redirects a tampered request, even with the right credentials", async () => {
    const form = await showForm({ client_id: privateClient.id });
    const answer = await submit({
      ...hiddenInputs(form.text),
      redirect_uri: "https://evil.example/cb",
      ...credentials(),
    });
    expect(answer.status).toBe(400);
    expect(errorFields(answer)).toEqual(["redirect_uri"]);
    expect(answer.headers.location).toBeUndefined();
  });
});

describe("the authorization code flow (private client)", () => {
  it("logs in, exchanges the code, uses and refreshes the token", async () => {
    const login = await logInThroughForm({
      client_id: privateClient.id,
      scopes: "account:read_only,computes:read_only",
      state: "af0ifjsldkj",
      redirect_uri: privateClient.redirect_uri,
    });
    expect(login.status).toBe(302);
    const location = new URL(login.headers.location!);
    expect(`${location.origin}${location.pathname}`).toBe(privateClient.redirect_uri);
    expect(location.searchParams.get("state")).toBe("af0ifjsldkj");
    const code = location.searchParams.get("code")!;
    expect(code).toMatch(/^[0-9a-f]{32,}$/);

    const exchange = { client_id: privateClient.id, client_secret: privateClient.secret, code };
    const tokens = await token(exchange);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body).toEqual({
      scope: "account:read_only computes:read_only",
      access_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      token_type: "bearer",
      expires_in: 7200,
    });
    expect(tokens.headers["cache-control"]).toBe("no-store");

    const profile = await harness.call("GET", "/profile", { token: tokens.body.access_token });
    expect(profile.status).toBe(200);
    expect(profile.headers["x-oauth-scopes"]).toBe("account:read_only computes:read_only");
    const write = await harness.call("POST", "/profile/tokens", {
      token: tokens.body.access_token,
      json: {},
    });
    expect(write.status).toBe(403);
    expect(write.headers["x-accepted-oauth-scopes"]).toBe("account:read_write");

    const reused = await token(exchange);
    expect(reused.status).toBe(400);
    expect(reused.body.errors).toEqual([{ field: "code", reason: "This code has already been used" }]);

    const refreshRequest = {
      grant_type: "refresh_token",
      client_id: privateClient.id,
      client_secret: privateClient.secret,
      refresh_token: tokens.body.refresh_token,
    };
    const refreshed = await token(refreshRequest);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.scope).toBe("account:read_only computes:read_only");
    expect(refreshed.body.access_token).not.toBe(tokens.body.access_token);
    expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
    expect((await harness.call("GET", "/profile", { token: refreshed.body.access_token })).status).toBe(200);

    const again = await token(refreshRequest);
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([
      { field: "refresh_token", reason: "This refresh token has already been used" },
    ]);

    const chained = await token({ ...refreshRequest, refresh_token: refreshed.body.refresh_token });
    expect(chained.status).toBe(200);
  });

  it("exchanges a code sent as multipart/form-data, with grant_type authorization_code", async () => {
    const code = await codeFor("account:read_only");
    const tokens = await multipartToken({
      grant_type: "authorization_code",
      client_id: privateClient.id,
      client_secret: privateClient.secret,
      code,
    });
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.scope).toBe("account:read_only");
    expect((await harness.call("GET", "/profile", { token: tokens.body.access_token })).status).toBe(200);
  });

  it("refreshes with a multipart body too", async () => {
    const code = await codeFor("account:read_only");
    const first = await token({ client_id: privateClient.id, client_secret: privateClient.secret, code });
    const refreshed = await multipartToken({
      grant_type: "refresh_token",
      client_id: privateClient.id,
      client_secret: privateClient.secret,
      refresh_token: first.body.refresh_token,
    });
    expect(refreshed.status).toBe(200);
  });

  it("keeps the redirect URI's own query and adds the code to it", async () => {
    const client = (
      await harness.call("POST", "/account/oauth-clients", {
        json: { label: "q", redirect_uri: "https://q.example/cb?tenant=a%20b" },
      })
    ).body as Client;
    const answer = await logInThroughForm({ client_id: client.id });
    expect(answer.headers.location).toMatch(/^https:\/\/q\.example\/cb\?tenant=a%20b&code=[0-9a-f]+$/);
  });

  it("refuses a wrong client_secret (401) and leaves the code usable", async () => {
    const code = await codeFor("account:read_only");
    const wrong = await token({ client_id: privateClient.id, client_secret: "0".repeat(64), code });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ errors: [{ reason: "Invalid client credentials" }] });
    const unknown = await token({
      client_id: "ffffffffffffffffffff",
      client_secret: privateClient.secret,
      code,
    });
    expect(unknown.status).toBe(401);
    expect(
      (await token({ client_id: privateClient.id, client_secret: privateClient.secret, code })).status,
    ).toBe(200);
  });

  it("refuses an unknown code and an unknown refresh token (400)", async () => {
    const base = { client_id: privateClient.id, client_secret: privateClient.secret };
    const code = await token({ ...base, code: "not-a-code" });
    expect(code.status).toBe(400);
    expect(code.body.errors).toEqual([{ field: "code", reason: "Invalid code" }]);
    const refresh = await token({ ...base, grant_type: "refresh_token", refresh_token: "f".repeat(64) });
    expect(refresh.status).toBe(400);
    expect(refresh.body.errors).toEqual([{ field: "refresh_token", reason: "Invalid refresh token" }]);
  });

  it("refuses a code after 600 seconds", async () => {
    const fresh = await codeFor("account:read_only");
    clock.advance(599_000);
    const ok = await token({ client_id: privateClient.id, client_secret: privateClient.secret, code: fresh });
    expect(ok.status).toBe(200);

    const stale = await codeFor("account:read_only");
    clock.advance(600_000);
    const expired = await token({
      client_id: privateClient.id,
      client_secret: privateClient.secret,
      code: stale,
    });
    expect(expired.status).toBe(400);
    expect(expired.body.errors).toEqual([{ field: "code", reason: "This code has expired; log in again" }]);
  });

  it("issues access tokens that stop working after 7200 seconds", async () => {
    const code = await codeFor("account:read_only");
    const tokens = await token({ client_id: privateClient.id, client_secret: privateClient.secret, code });
    clock.advance(7_199_000);
    expect((await harness.call("GET", "/profile", { token: tokens.body.access_token })).status).toBe(200);
    clock.advance(1_000);
    const expired = await harness.call("GET", "/profile", { token: tokens.body.access_token });
    expect(expired.status).toBe(401);
    expect(expired.headers["x-oauth-scopes"]).toBe("unknown");
  });

  it("does not list OAuth access tokens among personal access tokens", async () => {
    const code = await codeFor("account:read_only");
    const tokens = await token({ client_id: privateClient.id, client_secret: privateClient.secret, code });
    const list = await harness.call("GET", "/profile/tokens");
    expect(list.text).not.toContain(tokens.body.access_token.slice(0, 16));
  });
});

describe("the implicit flow (public client)", () => {
  it("puts the token in the fragment, with no refresh token, and it works on the API", async () => {
    const answer = await logInThroughForm({
      client_id: publicClient.id,
      response_type: "token",
      scopes: "account:read_only",
      state: "st ate",
    });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.location!);
    expect(`${location.origin}${location.pathname}${location.search}`).toBe(publicClient.redirect_uri);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(Object.fromEntries(fragment)).toEqual({
      access_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      token_type: "bearer",
      expires_in: "7200",
      scope: "account:read_only",
      state: "st ate",
    });
    expect(fragment.has("refresh_token")).toBe(false);
    expect(location.searchParams.has("access_token")).toBe(false);

    const accessToken = fragment.get("access_token")!;
    const profile = await harness.call("GET", "/profile", { token: accessToken });
    expect(profile.status).toBe(200);
    expect(profile.headers["x-oauth-scopes"]).toBe("account:read_only");
    const record = harness.server.state.tokens.get(accessToken)!;
    expect(record).toMatchObject({
      kind: "oauth",
      clientId: publicClient.id,
      expiresAt: clock.now() + 7_200_000,
    });
    expect([...harness.server.state.refreshTokens.values()].some((r) => r.clientId === publicClient.id)).toBe(
      false,
    );
  });

  it("a public client may not use the token endpoint", async () => {
    const response = await token({
      client_id: publicClient.id,
      client_secret: publicClient.secret,
      code: "abc",
    });
    expect(response.status).toBe(400);
    expect(errorFields(response)).toEqual(["client_id"]);
  });
});

describe("a headless browser drives the login form", () => {
  // The application's callback: a loopback server, so the browser never leaves 127.0.0.1.
  let callback: Server;
  let callbackOrigin: string;
  beforeAll(async () => {
    callback = createServer((_request, response) => response.end("landed"));
    await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
    callbackOrigin = `http://127.0.0.1:${(callback.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    callback.closeAllConnections();
    await new Promise((resolve) => callback.close(resolve));
  });

  it.each([
    ["code", false, "account:read_only"],
    ["token", true, "account:read_only computes:read_only"],
  ])(
    "response_type %s: fills the form, clicks #login, lands on the redirect URI",
    async (type, isPublic, scope) => {
      const created = await harness.call("POST", "/account/oauth-clients", {
        json: { label: `browser ${type}`, redirect_uri: `${callbackOrigin}/cb`, public: isPublic },
      });
      const client = created.body as Client;
      const browser = await launchChromium();
      try {
        const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
        const query = new URLSearchParams({
          client_id: client.id,
          response_type: type,
          scopes: scope,
          state: "b&r",
        });
        await page.goto(`${harness.server.authUrl}/oauth/authorize?${query}`);
        await page.getByLabel("Username").fill(harness.server.user.username);
        await page.getByLabel("Password").fill(harness.server.user.password);
        await Promise.all([page.waitForURL(`${callbackOrigin}/**`), page.click("#login")]);
        expect(await page.textContent("body")).toBe("landed");
        const url = new URL(page.url());
        expect(`${url.origin}${url.pathname}`).toBe(client.redirect_uri);
        if (type === "code") {
          expect(url.searchParams.get("code")).toMatch(/^[0-9a-f]{40}$/);
          expect(url.searchParams.get("state")).toBe("b&r");
        } else {
          const fragment = new URLSearchParams(url.hash.slice(1));
          expect(fragment.get("scope")).toBe(scope);
          expect(fragment.get("state")).toBe("b&r");
          const profile = await harness.call("GET", "/profile", { token: fragment.get("access_token") });
          expect(profile.status).toBe(200);
        }
      } finally {
        await browser.close();
      }
    },
    30_000,
  );
});
