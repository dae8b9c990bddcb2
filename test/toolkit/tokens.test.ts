/**
 * Minting tokens through the description's operations: under the bundled description and one whose paths are
 * renamed, the request goes to createPersonalAccessToken's path and the revocation to deletePersonalAccessToken's;
 * a refusal is answered, not thrown; nothing is minted where writes are not allowed or the token could not be
 * revoked.
 */
import { describe, expect, it } from "vitest";
import type { ApiSpec } from "../../src/spec/types.ts";
import {
  type MintedToken,
  mintOrSkip,
  mintToken,
  requireWrites,
  runTokenScopes,
  tokenName,
} from "../../src/toolkit/tokens.ts";
import { type Answer, fakeCase, liveResponse, sentJson, specWith } from "../helpers/fake-case.ts";

/** `spec` without the operation `operationId`. */
function without(spec: ApiSpec, operationId: string): ApiSpec {
  return {
    ...spec,
    operations: {
      all: () => spec.operations.all().filter((operation) => operation.operationId !== operationId),
      byId: (id) => (id === operationId ? undefined : spec.operations.byId(id)),
      match: (method, path) => spec.operations.match(method, path),
    },
  };
}

const bundled = await specWith();
const renamed = await specWith(["/profile/", "/me/"]);
const minted: Answer = {
  status: 200,
  json: { id: 42, token: "a".repeat(64), scopes: "account:read_only", expiry: null },
};

describe("mintToken", () => {
  it.each<[string, ApiSpec, string]>([
    ["the bundled description", bundled, "/profile/tokens"],
    ["a description with renamed paths", renamed, "/me/tokens"],
  ])(
    "under %s posts to createPersonalAccessToken's path and revokes at deletePersonalAccessToken's",
    async (_what, spec, tokens) => {
      const fake = fakeCase(spec, minted);
      const outcome = await mintToken(fake.t, "reader", "account:read_only", "2030-01-01T00:00:00Z");
      expect(outcome).toEqual({
        ok: true,
        minted: {
          id: 42,
          token: "a".repeat(64),
          scopes: "account:read_only",
          requested: "account:read_only",
          expiry: null,
        },
        response: liveResponse(minted),
      });
      expect(sentJson(fake)).toEqual([
        {
          method: "POST",
          path: tokens,
          json: {
            label: "conform-test-reader-1",
            scopes: "account:read_only",
            expiry: "2030-01-01T00:00:00Z",
          },
        },
      ]);
      expect(fake.cleanups).toEqual([
        { description: "personal access token 42 (account:read_only)", path: `${tokens}/42` },
      ]);
      expect(fake.secrets).toEqual(["a".repeat(64)]);
    },
  );

  it("takes the scopes asked for when the answer does not echo them", async () => {
    const { t } = fakeCase(bundled, { status: 200, json: { id: 1, token: "b".repeat(64) } });
    const outcome = await mintToken(t, "x", "*");
    expect(outcome.ok && outcome.minted).toEqual({
      id: 1,
      token: "b".repeat(64),
      scopes: "*",
      requested: "*",
      expiry: null,
    });
  });

  it.each<[string, Answer, { description: string; path: string }[], string[]]>([
    ["a 400", { status: 400, json: { errors: [{ reason: "scopes is invalid", field: "scopes" }] } }, [], []],
    // A 200 made a token even when its answer is malformed: it is revoked at the end, and what it shows is secret.
    [
      "a 200 without the token string",
      { status: 200, json: { id: 7, scopes: "*" } },
      [{ description: "personal access token 7 (*)", path: "/profile/tokens/7" }],
      [],
    ],
    [
      "a 200 with a string id",
      { status: 200, json: { id: "7", token: "c".repeat(64) } },
      [{ description: "personal access token 7 (*)", path: "/profile/tokens/7" }],
      ["c".repeat(64)],
    ],
  ])("answers the refusal for %s, registering what it made", async (_what, reply, cleanups, secrets) => {
    const fake = fakeCase(bundled, reply);
    expect(await mintToken(fake.t, "x", "*")).toEqual({ ok: false, response: liveResponse(reply) });
    expect(fake.cleanups).toEqual(cleanups);
    expect(fake.secrets).toEqual(secrets);
  });

  it("registers and marks secret a token whose JSON answer is labelled text/plain", async () => {
    const token = "d".repeat(64);
    const reply: Answer = {
      status: 200,
      text: JSON.stringify({ id: 9, token }),
      parsed: { id: 9, token },
      headers: { "content-type": "text/plain" },
    };
    const fake = fakeCase(bundled, reply);
    const outcome = await mintToken(fake.t, "x", "*");
    expect(outcome.ok).toBe(true);
    expect(fake.cleanups).toEqual([
      { description: "personal access token 9 (*)", path: "/profile/tokens/9" },
    ]);
    expect(fake.secrets).toEqual([token]);
  });

  it("lists by its label a token a 200 made without naming it", async () => {
    const fake = fakeCase(bundled, { status: 200, text: "ok", headers: { "content-type": "text/plain" } });
    expect((await mintToken(fake.t, "x", "*")).ok).toBe(false);
    expect(fake.cleanups).toEqual([]);
    expect(fake.unidentified).toEqual([
      { description: "personal access token (*)", label: "conform-test-x-1" },
    ]);
  });

  it.each(["deletePersonalAccessToken", "createPersonalAccessToken"])(
    "skips, sending nothing, when the description has no %s",
    async (operationId) => {
      const fake = fakeCase(without(bundled, operationId), minted);
      await expect(mintToken(fake.t, "x", "*")).rejects.toThrow(
        `the description has no operation ${operationId}`,
      );
      expect(fake.sent).toEqual([]);
    },
  );
});

describe("mintOrSkip", () => {
  it("answers the minted token", async () => {
    const { t } = fakeCase(bundled, minted);
    expect((await mintOrSkip(t, "x", "account:read_only")).id).toBe(42);
  });

  it("skips without a request where writes are not allowed", async () => {
    const fake = fakeCase(bundled, minted, { writesAllowed: false });
    await expect(mintOrSkip(fake.t, "x", "*")).rejects.toThrow(/changes the account: .*--allow-writes/);
    expect(fake.sent).toEqual([]);
  });

  it("skips, naming the status and scopes, when the target refuses", async () => {
    const { t } = fakeCase(bundled, { status: 403, json: { errors: [{ reason: "Unauthorized" }] } });
    await expect(mintOrSkip(t, "x", "ips:read_write")).rejects.toThrow(
      /refused to mint a token with scopes "ips:read_write" \(403\)/,
    );
  });
});

describe("requireWrites", () => {
  it.each<[boolean, boolean]>([
    [true, false],
    [false, true],
  ])("writes allowed %s: skips %s", (allowed, skips) => {
    const { t } = fakeCase(bundled, minted, { writesAllowed: allowed });
    const run = () => requireWrites(t, "creating a client changes the account");
    if (skips) expect(run).toThrow("creating a client changes the account: run against the embedded target");
    else expect(run).not.toThrow();
  });
});

describe("tokenName", () => {
  const token = (requested: string, scopes: string): MintedToken => ({
    id: 1,
    token: "t".repeat(64),
    scopes,
    requested,
    expiry: null,
  });
  it.each([
    ["granted as asked", token("account:read_only", "account:read_only"), 'a "account:read_only" token'],
    [
      "granted in another order",
      token("a:read_only b:read_only", "b:read_only a:read_only"),
      'a "a:read_only b:read_only" token',
    ],
    [
      "granted more than asked",
      token("account:read_only", "*"),
      'a token asked for "account:read_only" (granted "*")',
    ],
  ])("%s: named by the scopes asked for", (_name, minted, name) => {
    expect(tokenName(minted)).toBe(name);
  });
});

describe("runTokenScopes (issue 31: a mock's garbage X-OAuth-Scopes fails the case, never errors it)", () => {
  it.each<[string, string | undefined, string | undefined, boolean[]]>([
    [
      "a scope list",
      "computes:read_only account:read_write",
      "computes:read_only account:read_write",
      [true],
    ],
    ["*", "*", "*", [true]],
    ["garbage from a mock", "string", undefined, [false]],
    ["no header", undefined, undefined, []],
  ])("%s", async (_name, header, scopes, asserted) => {
    const spec = await specWith();
    const fake = fakeCase(spec);
    const response = liveResponse({
      status: 200,
      json: {},
      ...(header ? { headers: { "x-oauth-scopes": header } } : {}),
    });
    expect(runTokenScopes(fake.t, response)).toBe(scopes);
    expect(fake.expectations.map((entry) => entry.ok)).toEqual(asserted);
  });
});
