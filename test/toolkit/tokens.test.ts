/**
 * Minting tokens through the description's operations: under the bundled description and one whose paths are
 * renamed, the request goes to createPersonalAccessToken's path and the revocation to deletePersonalAccessToken's;
 * a refusal is answered, not thrown; nothing is minted where writes are not allowed or the token could not be
 * revoked.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LiveResponse } from "../../src/runner/http-client.ts";
import type { CaseContext, RequestOptions } from "../../src/runner/suite-api.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import { mintOrSkip, mintToken, requireWrites } from "../../src/toolkit/tokens.ts";

function answer(status: number, json: unknown): LiveResponse {
  return { status, headers: {}, text: JSON.stringify(json), json, exchange: {} as LiveResponse["exchange"] };
}

/** A case context that answers every request with `reply`, recording requests, cleanups and secrets. */
function fakeContext(spec: ApiSpec, reply: LiveResponse, writesAllowed = true) {
  const seen = {
    requests: [] as { method: string; path: string; json: unknown }[],
    cleanups: [] as { description: string; path: string }[],
    secrets: [] as string[],
  };
  const api = {
    request: async (method: string, path: string, options: RequestOptions = {}) => {
      seen.requests.push({ method, path, json: options.json });
      return reply;
    },
  };
  const t = {
    api,
    auth: api,
    spec,
    target: { baseUrl: "https://127.0.0.1/v4", authUrl: "https://127.0.0.1", embedded: true, writesAllowed },
    label: (name: string) => `conform-test-${name}`,
    cleanup: (description: string, path: string) => void seen.cleanups.push({ description, path }),
    secret: (value: string) => void seen.secrets.push(value),
    skip: (reason: string): never => {
      throw new Error(`skipped: ${reason}`);
    },
  } as unknown as CaseContext;
  return { t, seen };
}

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

const bundled = await loadSpec(bundledSpecPath);
const renamedPath = join(mkdtempSync(join(tmpdir(), "conform-tokens-")), "renamed.yaml");
writeFileSync(renamedPath, readFileSync(bundledSpecPath, "utf8").replaceAll("/profile/", "/me/"));
const renamed = await loadSpec(renamedPath, { validate: false });
const minted = answer(200, { id: 42, token: "a".repeat(64), scopes: "account:read_only", expiry: null });

describe("mintToken", () => {
  it.each<[string, ApiSpec, string]>([
    ["the bundled description", bundled, "/profile/tokens"],
    ["a description with renamed paths", renamed, "/me/tokens"],
  ])(
    "under %s posts to createPersonalAccessToken's path and revokes at deletePersonalAccessToken's",
    async (_what, spec, tokens) => {
      const { t, seen } = fakeContext(spec, minted);
      const outcome = await mintToken(t, "reader", "account:read_only", "2030-01-01T00:00:00Z");
      expect(outcome).toEqual({
        ok: true,
        minted: { id: 42, token: "a".repeat(64), scopes: "account:read_only", expiry: null },
      });
      expect(seen.requests).toEqual([
        {
          method: "POST",
          path: tokens,
          json: { label: "conform-test-reader", scopes: "account:read_only", expiry: "2030-01-01T00:00:00Z" },
        },
      ]);
      expect(seen.cleanups).toEqual([
        { description: "personal access token 42 (account:read_only)", path: `${tokens}/42` },
      ]);
      expect(seen.secrets).toEqual(["a".repeat(64)]);
    },
  );

  it("takes the scopes asked for when the answer does not echo them", async () => {
    const { t } = fakeContext(bundled, answer(200, { id: 1, token: "b".repeat(64) }));
    const outcome = await mintToken(t, "x", "*");
    expect(outcome.ok && outcome.minted).toEqual({ id: 1, token: "b".repeat(64), scopes: "*", expiry: null });
  });

  it.each<[string, LiveResponse]>([
    ["a 400", answer(400, { errors: [{ reason: "scopes is invalid", field: "scopes" }] })],
    ["a 200 without the token string", answer(200, { id: 7, scopes: "*" })],
    ["a 200 with a string id", answer(200, { id: "7", token: "c".repeat(64) })],
  ])("answers the refusal for %s, registering nothing", async (_what, reply) => {
    const { t, seen } = fakeContext(bundled, reply);
    expect(await mintToken(t, "x", "*")).toEqual({ ok: false, response: reply });
    expect(seen.cleanups).toEqual([]);
    expect(seen.secrets).toEqual([]);
  });

  it.each(["deletePersonalAccessToken", "createPersonalAccessToken"])(
    "skips, sending nothing, when the description has no %s",
    async (operationId) => {
      const { t, seen } = fakeContext(without(bundled, operationId), minted);
      await expect(mintToken(t, "x", "*")).rejects.toThrow(`the description has no operation ${operationId}`);
      expect(seen.requests).toEqual([]);
    },
  );
});

describe("mintOrSkip", () => {
  it("answers the minted token", async () => {
    const { t } = fakeContext(bundled, minted);
    expect((await mintOrSkip(t, "x", "account:read_only")).id).toBe(42);
  });

  it("skips without a request where writes are not allowed", async () => {
    const { t, seen } = fakeContext(bundled, minted, false);
    await expect(mintOrSkip(t, "x", "*")).rejects.toThrow(/changes the account: .*--allow-writes/);
    expect(seen.requests).toEqual([]);
  });

  it("skips, naming the status and scopes, when the target refuses", async () => {
    const { t } = fakeContext(bundled, answer(403, { errors: [{ reason: "Unauthorized" }] }));
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
    const { t } = fakeContext(bundled, minted, allowed);
    const run = () => requireWrites(t, "creating a client changes the account");
    if (skips) expect(run).toThrow("creating a client changes the account: run against the embedded target");
    else expect(run).not.toThrow();
  });
});
