/**
 * The login toolkit against scripted answers: the login form read from the reference server's own page, the HTTP
 * driver's form submission and its refusals, the hook that replaces it, and the login server's operations found by
 * operationId (under the bundled description and one whose OAuth paths are renamed).
 */
import { describe, expect, it } from "vitest";
import { renderLoginPage } from "../../src/reference/login-page.ts";
import type { LoginDriver } from "../../src/runner/suite-api.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import {
  authorizeUrl,
  httpLoginDriver,
  LoginFailed,
  type LoginForm,
  logIn,
  loginCredentials,
  loginDriverFor,
  multipartBody,
  parseLoginForm,
  redirectUriOf,
  registerOAuthClient,
  requestToken,
} from "../../src/toolkit/login.ts";
import { type Answer, fakeCase, liveResponse, specWith } from "../helpers/fake-case.ts";

const bundled = await specWith();
const renamed = await specWith(["/oauth/", "/login/"], ["/account/oauth-clients", "/apps"]);

const page = renderLoginPage({
  clientLabel: "Dashboard & <Co>",
  hidden: [
    ["client_id", "abc"],
    ["response_type", "code"],
    ["state", 'x"y&z'],
  ],
  scopes: "account:read_only",
  action: "/oauth/authorize",
});
const credentials = { username: "ada", password: "S3cret-pass" };
/** The login page, then a redirect to `location`. */
const pageThenRedirect =
  (location: string) =>
  (_sent: unknown, index: number): Answer =>
    index === 0 ? { status: 200, text: page } : { status: 302, headers: { location } };

describe("parseLoginForm", () => {
  it("reads the reference server's page: action, method, hidden fields unescaped, the two inputs", () => {
    expect(parseLoginForm(page)).toEqual({
      action: "/oauth/authorize",
      method: "post",
      fields: [
        ["client_id", "abc"],
        ["response_type", "code"],
        ["state", 'x"y&z'],
        ["username", ""],
        ["password", ""],
      ],
      usernameField: "username",
      passwordField: "password",
    });
  });

  it.each<[string, string, Partial<LoginForm>]>([
    [
      "a GET form without an action",
      "<form><input name=email><input type=password name=pw></form>",
      {
        action: "",
        method: "get",
        usernameField: "email",
        passwordField: "pw",
      },
    ],
    [
      "single quotes and entities",
      "<FORM METHOD='POST' ACTION='/a?b=1&amp;c=2'><input name='login'></FORM>",
      {
        action: "/a?b=1&c=2",
        method: "post",
        usernameField: "login",
        passwordField: undefined,
      },
    ],
    [
      "buttons and nameless inputs left out",
      "<form><input type=submit name=go value=Go><input value=x><input name=user_name type=text></form>",
      {
        fields: [["user_name", ""]],
        usernameField: "user_name",
      },
    ],
  ])("%s", (_what, html, expected) => {
    expect(parseLoginForm(html)).toMatchObject(expected);
  });

  it("finds no form on a page without one", () => {
    expect(parseLoginForm("<main><script>render()</script></main>")).toBeUndefined();
  });
});

describe("httpLoginDriver", () => {
  const request = {
    authorizeUrl: "https://login.test/oauth/authorize?client_id=abc",
    redirectUri: "https://app.test/cb",
    ...credentials,
  };

  it("submits the form with the user's credentials and answers where the redirect points", async () => {
    const fake = fakeCase(bundled, pageThenRedirect("https://app.test/cb?code=c0de&state=s"));
    expect(await httpLoginDriver(fake.t)(request)).toBe("https://app.test/cb?code=c0de&state=s");
    expect(fake.sent.map((sent) => [sent.client, sent.method, sent.path])).toEqual([
      ["auth", "GET", request.authorizeUrl],
      ["auth", "POST", "https://login.test/oauth/authorize"],
    ]);
    const form = new URLSearchParams(fake.sent[1]!.options.body);
    expect([...form]).toEqual([
      ["client_id", "abc"],
      ["response_type", "code"],
      ["state", 'x"y&z'],
      ["username", "ada"],
      ["password", "S3cret-pass"],
    ]);
  });

  it.each<[string, Answer[], RegExp]>([
    ["the page is not there", [{ status: 404, json: { errors: [] } }], /the login page answered 404/],
    ["the page has no form", [{ status: 200, text: "<p>use the app</p>" }], /no plain form/],
    [
      "the login does not redirect",
      [
        { status: 200, text: page },
        { status: 200, text: page },
      ],
      /answered 200 instead of a redirect/,
    ],
    [
      "the redirect has no Location",
      [{ status: 200, text: page }, { status: 302 }],
      /answered 302 instead of a redirect/,
    ],
  ])("throws LoginFailed, with the answer, when %s", async (_what, replies, message) => {
    const fake = fakeCase(bundled, (_sent, index) => replies[index]!);
    const failure = await httpLoginDriver(fake.t)(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LoginFailed);
    expect((failure as LoginFailed).message).toMatch(message);
    expect(fake.responses).toEqual(replies.map(liveResponse));
    expect((failure as LoginFailed).response).toBe(fake.responses.at(-1));
  });
});

describe("the login driver a run uses", () => {
  it("is the hook loginDriver when the program gave one, and it is what logIn calls", async () => {
    const calls: Parameters<LoginDriver>[0][] = [];
    const loginDriver: LoginDriver = async (request) => {
      calls.push(request);
      return `${request.redirectUri}#access_token=t0k&state=${new URL(request.authorizeUrl).searchParams.get("state")}`;
    };
    const { t, sent } = fakeCase(bundled, undefined, { hooks: { loginDriver } });
    expect(loginDriverFor(t)).toBe(loginDriver);
    const client = { id: "abc", secret: "", redirectUri: "https://app.test/cb" };
    const outcome = await logIn(
      t,
      client,
      { responseType: "token", scope: "account:read_only events:read_only" },
      credentials,
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.landed).toBe(`https://app.test/cb#access_token=t0k&state=${outcome.state}`);
    expect(calls).toHaveLength(1);
    const asked = new URL(calls[0]!.authorizeUrl);
    expect(`${asked.origin}${asked.pathname}`).toBe("https://127.0.0.1:1/oauth/authorize");
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      client_id: "abc",
      response_type: "token",
      // The URL's list is comma-separated, under `scopes` (facts.md, "OAuth authorization URL").
      scopes: "account:read_only,events:read_only",
      state: outcome.state,
    });
    expect(calls[0]).toMatchObject({ redirectUri: client.redirectUri, ...credentials });
    expect(sent).toEqual([]);
  });

  it("is the HTTP driver otherwise: the form goes through the run's login-server client", async () => {
    const { t, sent } = fakeCase(bundled, pageThenRedirect("/cb?code=c"));
    const landed = await loginDriverFor(t)({
      authorizeUrl: "https://login.test/oauth/authorize",
      redirectUri: "https://login.test/cb",
      ...credentials,
    });
    expect(landed).toBe("https://login.test/cb?code=c");
    expect(sent.map((entry) => `${entry.client} ${entry.method}`)).toEqual(["auth GET", "auth POST"]);
  });

  it("logIn answers why, with the answer, when the driver fails", async () => {
    const refused = liveResponse({ status: 401, text: "<p>wrong password</p>" });
    const loginDriver: LoginDriver = async () => {
      throw new LoginFailed("the login answered 401 instead of a redirect", refused);
    };
    const { t } = fakeCase(bundled, undefined, { hooks: { loginDriver } });
    const client = { id: "abc", secret: "s", redirectUri: "https://app.test/cb" };
    expect(await logIn(t, client, { responseType: "code", scope: "*" }, credentials)).toEqual({
      ok: false,
      reason: "the login answered 401 instead of a redirect",
      response: refused,
    });
  });
});

describe("the login server's operations, by operationId", () => {
  it.each<[string, ApiSpec, string, string]>([
    [
      "the bundled description",
      bundled,
      "https://login.test",
      "https://login.test/oauth/authorize?a=1&b=x+y",
    ],
    [
      "a trailing slash on authUrl",
      bundled,
      "https://login.test/",
      "https://login.test/oauth/authorize?a=1&b=x+y",
    ],
    ["renamed paths", renamed, "https://login.test", "https://login.test/login/authorize?a=1&b=x+y"],
  ])("authorizeUrl under %s", (_what, spec, authUrl, expected) => {
    const { t } = fakeCase(spec, undefined, { authUrl });
    expect(authorizeUrl(t, { a: "1", b: "x y" })).toBe(expected);
  });

  it.each<[string, ApiSpec, string]>([
    ["the bundled description", bundled, "/oauth/token"],
    ["renamed paths", renamed, "/login/token"],
  ])(
    "requestToken posts to createOAuthToken's path on the login server under %s",
    async (_what, spec, path) => {
      const { t, sent } = fakeCase(spec);
      await requestToken(t, { code: "c0de" });
      await requestToken(t, { code: "c0de" }, "multipart");
      expect(sent.map((entry) => [entry.client, entry.method, entry.path])).toEqual([
        ["auth", "POST", path],
        ["auth", "POST", path],
      ]);
      expect(sent[0]!.options).toEqual({ form: { code: "c0de" }, token: null, retry: false });
      const multipart = sent[1]!.options;
      expect(multipart).toMatchObject({ token: null, retry: false });
      const parsed = await new Response(multipart.body, { headers: multipart.headers }).formData();
      expect(Object.fromEntries(parsed)).toEqual({ code: "c0de" });
    },
  );

  it.each<[string, ApiSpec, string]>([
    ["the bundled description", bundled, "/account/oauth-clients"],
    ["renamed paths", renamed, "/apps"],
  ])("registerOAuthClient creates and registers the deletion under %s", async (_what, spec, clients) => {
    const created: Answer = { status: 200, json: { id: "a b", secret: "5ecret", public: false } };
    const fake = fakeCase(spec, created);
    const outcome = await registerOAuthClient(fake.t, "oauth-private", {
      redirectUri: "https://app.test/cb",
      public: false,
    });
    expect(outcome).toEqual({
      ok: true,
      client: { id: "a b", secret: "5ecret", redirectUri: "https://app.test/cb" },
      response: liveResponse(created),
    });
    expect(fake.sent[0]).toMatchObject({
      client: "api",
      method: "POST",
      path: clients,
      options: {
        json: { label: "conform-test-oauth-private-1", redirect_uri: "https://app.test/cb", public: false },
      },
    });
    expect(fake.cleanups).toEqual([{ description: "OAuth client a b", path: `${clients}/a%20b` }]);
    expect(fake.secrets).toEqual(["5ecret"]);
  });

  it.each<[string, Answer]>([
    [
      "a 400",
      { status: 400, json: { errors: [{ reason: "redirect_uri is invalid", field: "redirect_uri" }] } },
    ],
    ["a 200 with a numeric id", { status: 200, json: { id: 7, secret: "s" } }],
  ])("registerOAuthClient answers the refusal for %s", async (_what, reply) => {
    const fake = fakeCase(bundled, reply);
    const outcome = await registerOAuthClient(fake.t, "x", {
      redirectUri: "https://app.test/cb",
      public: true,
    });
    expect(outcome).toEqual({ ok: false, response: liveResponse(reply) });
    // A 200 made a client even when its answer is malformed: it is deleted at the end.
    expect(fake.cleanups).toEqual(
      reply.status === 200 ? [{ description: "OAuth client 7", path: "/account/oauth-clients/7" }] : [],
    );
  });
});

describe("settings", () => {
  it.each<[string, unknown, { username: string; password: string } | undefined]>([
    ["a username and a password", credentials, credentials],
    ["no login", undefined, undefined],
    ["a username that is not a string", { username: 7, password: "x" }, undefined],
    ["no password", { username: "ada" }, undefined],
  ])("loginCredentials with %s", (_what, login, expected) => {
    const { t, secrets } = fakeCase(bundled, undefined, { options: login === undefined ? {} : { login } });
    expect(loginCredentials(t)).toEqual(expected);
    expect(secrets).toEqual(expected ? [expected.password] : []);
  });

  it.each<[string, unknown, string]>([
    ["the default, never resolved", undefined, "https://conform.invalid/callback"],
    ["suiteOptions.oauth.redirectUri", { redirectUri: "http://127.0.0.1:9/cb" }, "http://127.0.0.1:9/cb"],
    ["a redirectUri that is not a string", { redirectUri: 9 }, "https://conform.invalid/callback"],
  ])("redirectUriOf: %s", (_what, oauth, expected) => {
    const { t } = fakeCase(bundled, undefined, { options: oauth === undefined ? {} : { oauth } });
    expect(redirectUriOf(t)).toBe(expected);
  });

  it("multipartBody makes a body a multipart parser reads back", async () => {
    const { body, contentType } = multipartBody({ a: "1", b: "two words" });
    const parsed = await new Response(body, { headers: { "content-type": contentType } }).formData();
    expect(Object.fromEntries(parsed)).toEqual({ a: "1", b: "two words" });
  });
});
