/**
 * The login toolkit against scripted answers: the login form read from the reference server's own page, the HTTP
 * driver's form submission and its refusals, the hook that replaces it, and the login server's operations found by
 * operationId (under the bundled description and one whose OAuth paths are renamed).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderLoginPage } from "../../src/reference/login-page.ts";
import type { LiveResponse } from "../../src/runner/http-client.ts";
import type { CaseContext, LoginDriver, RequestOptions, SuiteHooks } from "../../src/runner/suite-api.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/load.ts";
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

function answer(status: number, body: unknown, headers: Record<string, string> = {}): LiveResponse {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const json = typeof body === "string" ? undefined : body;
  return { status, headers, text, json, exchange: {} as LiveResponse["exchange"] };
}

interface Sent {
  readonly client: "api" | "auth";
  readonly method: string;
  readonly path: string;
  readonly options: RequestOptions;
}

interface Setting {
  readonly spec?: ApiSpec;
  /** Answers request number `index` (from 0, over both clients). */
  readonly reply?: (request: Sent, index: number) => LiveResponse;
  readonly options?: Record<string, unknown>;
  readonly hooks?: SuiteHooks;
  readonly authUrl?: string;
}

/** A case context whose two clients answer from `reply`, recording requests, cleanups and secrets. */
function fakeContext(setting: Setting = {}) {
  const seen = { requests: [] as Sent[], cleanups: [] as [string, string][], secrets: [] as string[] };
  const reply = setting.reply ?? (() => answer(200, {}));
  const client = (name: Sent["client"]) => {
    const request = async (method: string, path: string, options: RequestOptions = {}) => {
      const sent = { client: name, method, path, options };
      seen.requests.push(sent);
      return reply(sent, seen.requests.length - 1);
    };
    return { request, get: (path: string, options?: RequestOptions) => request("GET", path, options) };
  };
  const t = {
    api: client("api"),
    auth: client("auth"),
    spec: setting.spec ?? bundled,
    target: { baseUrl: "https://127.0.0.1/v4", authUrl: setting.authUrl ?? "https://127.0.0.1:8443" },
    options: setting.options ?? {},
    hooks: setting.hooks ?? {},
    label: (name: string) => `conform-test-${name}`,
    cleanup: (description: string, path: string) => void seen.cleanups.push([description, path]),
    secret: (value: string) => void seen.secrets.push(value),
    skip: (reason: string): never => {
      throw new Error(`skipped: ${reason}`);
    },
  } as unknown as CaseContext;
  return { t, seen };
}

const bundled = await loadSpec(bundledSpecPath);
const renamedPath = join(mkdtempSync(join(tmpdir(), "conform-login-")), "renamed.yaml");
const renamedText = readFileSync(bundledSpecPath, "utf8")
  .replaceAll("/oauth/", "/login/")
  .replaceAll("/account/oauth-clients", "/apps");
writeFileSync(renamedPath, renamedText);
const renamed = await loadSpec(renamedPath, { validate: false });

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
    const { t, seen } = fakeContext({
      reply: (_sent, index) =>
        index === 0
          ? answer(200, page)
          : answer(302, "", { location: "https://app.test/cb?code=c0de&state=s" }),
    });
    expect(await httpLoginDriver(t)(request)).toBe("https://app.test/cb?code=c0de&state=s");
    expect(seen.requests.map((sent) => [sent.client, sent.method, sent.path])).toEqual([
      ["auth", "GET", request.authorizeUrl],
      ["auth", "POST", "https://login.test/oauth/authorize"],
    ]);
    const form = new URLSearchParams(seen.requests[1]!.options.body);
    expect([...form]).toEqual([
      ["client_id", "abc"],
      ["response_type", "code"],
      ["state", 'x"y&z'],
      ["username", "ada"],
      ["password", "S3cret-pass"],
    ]);
  });

  it.each<[string, LiveResponse[], RegExp]>([
    ["the page is not there", [answer(404, { errors: [] })], /the login page answered 404/],
    ["the page has no form", [answer(200, "<p>use the app</p>")], /no plain form/],
    [
      "the login does not redirect",
      [answer(200, page), answer(200, page)],
      /answered 200 instead of a redirect/,
    ],
    [
      "the redirect has no Location",
      [answer(200, page), answer(302, "")],
      /answered 302 instead of a redirect/,
    ],
  ])("throws LoginFailed, with the answer, when %s", async (_what, replies, message) => {
    const { t } = fakeContext({ reply: (_sent, index) => replies[index]! });
    const failure = await httpLoginDriver(t)(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LoginFailed);
    expect((failure as LoginFailed).message).toMatch(message);
    expect((failure as LoginFailed).response).toBe(replies.at(-1));
  });
});

describe("the login driver a run uses", () => {
  it("is the hook loginDriver when the program gave one, and it is what logIn calls", async () => {
    const calls: Parameters<LoginDriver>[0][] = [];
    const loginDriver: LoginDriver = async (request) => {
      calls.push(request);
      return `${request.redirectUri}#access_token=t0k&state=${new URL(request.authorizeUrl).searchParams.get("state")}`;
    };
    const { t, seen } = fakeContext({ hooks: { loginDriver } });
    expect(loginDriverFor(t)).toBe(loginDriver);
    const client = { id: "abc", secret: "", redirectUri: "https://app.test/cb" };
    const outcome = await logIn(
      t,
      client,
      { responseType: "token", scope: "account:read_only" },
      credentials,
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.landed).toBe(`https://app.test/cb#access_token=t0k&state=${outcome.state}`);
    expect(calls).toHaveLength(1);
    const sent = new URL(calls[0]!.authorizeUrl);
    expect(`${sent.origin}${sent.pathname}`).toBe("https://127.0.0.1:8443/oauth/authorize");
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      client_id: "abc",
      response_type: "token",
      scope: "account:read_only",
      state: outcome.state,
    });
    expect(calls[0]).toMatchObject({ redirectUri: client.redirectUri, ...credentials });
    expect(seen.requests).toEqual([]);
  });

  it("is the HTTP driver otherwise: the form goes through the run's login-server client", async () => {
    const { t, seen } = fakeContext({
      reply: (_sent, index) =>
        index === 0 ? answer(200, page) : answer(302, "", { location: "/cb?code=c" }),
    });
    const landed = await loginDriverFor(t)({
      authorizeUrl: "https://login.test/oauth/authorize",
      redirectUri: "https://login.test/cb",
      ...credentials,
    });
    expect(landed).toBe("https://login.test/cb?code=c");
    expect(seen.requests.map((sent) => `${sent.client} ${sent.method}`)).toEqual(["auth GET", "auth POST"]);
  });

  it("logIn answers why, with the answer, when the driver fails", async () => {
    const refused = answer(401, "<p>wrong password</p>");
    const loginDriver: LoginDriver = async () => {
      throw new LoginFailed("the login answered 401 instead of a redirect", refused);
    };
    const { t } = fakeContext({ hooks: { loginDriver } });
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
    const { t } = fakeContext({ spec, authUrl });
    expect(authorizeUrl(t, { a: "1", b: "x y" })).toBe(expected);
  });

  it.each<[string, ApiSpec, string]>([
    ["the bundled description", bundled, "/oauth/token"],
    ["renamed paths", renamed, "/login/token"],
  ])(
    "requestToken posts to createOAuthToken's path on the login server under %s",
    async (_what, spec, path) => {
      const { t, seen } = fakeContext({ spec });
      await requestToken(t, { code: "c0de" });
      await requestToken(t, { code: "c0de" }, "multipart");
      expect(seen.requests.map((sent) => [sent.client, sent.method, sent.path])).toEqual([
        ["auth", "POST", path],
        ["auth", "POST", path],
      ]);
      expect(seen.requests[0]!.options).toEqual({ form: { code: "c0de" }, token: null, retry: false });
      const multipart = seen.requests[1]!.options;
      expect(multipart).toMatchObject({ token: null, retry: false });
      const parsed = await new Response(multipart.body, { headers: multipart.headers }).formData();
      expect(Object.fromEntries(parsed)).toEqual({ code: "c0de" });
    },
  );

  it.each<[string, ApiSpec, string]>([
    ["the bundled description", bundled, "/account/oauth-clients"],
    ["renamed paths", renamed, "/apps"],
  ])("registerOAuthClient creates and registers the deletion under %s", async (_what, spec, clients) => {
    const created = answer(200, { id: "a b", secret: "5ecret", public: false });
    const { t, seen } = fakeContext({ spec, reply: () => created });
    const outcome = await registerOAuthClient(t, "oauth-private", {
      redirectUri: "https://app.test/cb",
      public: false,
    });
    expect(outcome).toEqual({
      ok: true,
      client: { id: "a b", secret: "5ecret", redirectUri: "https://app.test/cb" },
      response: created,
    });
    expect(seen.requests[0]).toMatchObject({
      client: "api",
      method: "POST",
      path: clients,
      options: {
        json: { label: "conform-test-oauth-private", redirect_uri: "https://app.test/cb", public: false },
      },
    });
    expect(seen.cleanups).toEqual([["OAuth client a b", `${clients}/a%20b`]]);
    expect(seen.secrets).toEqual(["5ecret"]);
  });

  it.each<[string, LiveResponse]>([
    ["a 400", answer(400, { errors: [{ reason: "redirect_uri is invalid", field: "redirect_uri" }] })],
    ["a 200 with a numeric id", answer(200, { id: 7, secret: "s" })],
  ])("registerOAuthClient answers the refusal for %s, registering nothing", async (_what, reply) => {
    const { t, seen } = fakeContext({ reply: () => reply });
    const outcome = await registerOAuthClient(t, "x", { redirectUri: "https://app.test/cb", public: true });
    expect(outcome).toEqual({ ok: false, response: reply });
    expect(seen.cleanups).toEqual([]);
  });
});

describe("settings", () => {
  it.each<[string, unknown, { username: string; password: string } | undefined]>([
    ["a username and a password", credentials, credentials],
    ["no login", undefined, undefined],
    ["a username that is not a string", { username: 7, password: "x" }, undefined],
    ["no password", { username: "ada" }, undefined],
  ])("loginCredentials with %s", (_what, login, expected) => {
    const { t, seen } = fakeContext({ options: login === undefined ? {} : { login } });
    expect(loginCredentials(t)).toEqual(expected);
    expect(seen.secrets).toEqual(expected ? [expected.password] : []);
  });

  it.each<[string, unknown, string]>([
    ["the default, never resolved", undefined, "https://conform.invalid/callback"],
    ["suiteOptions.oauth.redirectUri", { redirectUri: "http://127.0.0.1:9/cb" }, "http://127.0.0.1:9/cb"],
    ["a redirectUri that is not a string", { redirectUri: 9 }, "https://conform.invalid/callback"],
  ])("redirectUriOf: %s", (_what, oauth, expected) => {
    const { t } = fakeContext({ options: oauth === undefined ? {} : { oauth } });
    expect(redirectUriOf(t)).toBe(expected);
  });

  it("multipartBody makes a body a multipart parser reads back", async () => {
    const { body, contentType } = multipartBody({ a: "1", b: "two words" });
    const parsed = await new Response(body, { headers: { "content-type": contentType } }).formData();
    expect(Object.fromEntries(parsed)).toEqual({ a: "1", b: "two words" });
  });
});
