import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LiveResponse } from "../../src/runner/http-client.ts";
import type { CaseContext } from "../../src/runner/suite-api.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/index.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import {
  createRegistered,
  expectCreated,
  registerCreated,
  strongPassword,
} from "../../src/toolkit/resources.ts";

function answer(status: number, json: unknown): LiveResponse {
  return { status, headers: {}, text: JSON.stringify(json), json, exchange: {} as LiveResponse["exchange"] };
}

/** A case context that answers every request with `reply`, recording requests, cleanups, secrets, assertions. */
function fakeContext(spec: ApiSpec, reply: LiveResponse = answer(200, { id: 7 })) {
  const seen = {
    requests: [] as { method: string; path: string; json: unknown }[],
    cleanups: [] as { description: string; path: string }[],
    secrets: [] as string[],
    asserts: [] as { name: string; ok: boolean }[],
  };
  const api = {
    request: async (method: string, path: string, options: { json?: unknown } = {}) => {
      seen.requests.push({ method, path, json: options.json });
      return reply;
    },
  };
  const t = {
    api,
    auth: api,
    spec,
    cleanup: (description: string, path: string) => void seen.cleanups.push({ description, path }),
    secret: (value: string) => void seen.secrets.push(value),
    expect: (name: string, ok: boolean) => {
      seen.asserts.push({ name, ok });
      return ok;
    },
    skip: (reason: string): never => {
      throw new Error(`skipped: ${reason}`);
    },
  } as unknown as CaseContext;
  return { t, seen };
}

const bundled = await loadSpec(bundledSpecPath);
const renamedPath = join(mkdtempSync(join(tmpdir(), "conform-resources-")), "renamed.yaml");
writeFileSync(renamedPath, readFileSync(bundledSpecPath, "utf8").replaceAll("/nodebalancers", "/balancers"));
const renamed = await loadSpec(renamedPath);
const profiles = ["createNodeBalancerConfig", "deleteNodeBalancerConfig"] as const;

describe("registerCreated", () => {
  const remove = bundled.operations.byId("deleteNodeBalancerConfig")!;
  it.each<[string, LiveResponse, string | undefined]>([
    ["a 200 with an integer id", answer(200, { id: 7 }), "/nodebalancers/3/configs/7"],
    [
      "a 299 (deprecated path) with an id",
      answer(299, { id: 7, warnings: ["old"] }),
      "/nodebalancers/3/configs/7",
    ],
    ["a 400 (refused)", answer(400, { errors: [{ reason: "no" }] }), undefined],
    ["a 200 without an id", answer(200, {}), undefined],
    ["a 200 with a string id", answer(200, { id: "7" }), undefined],
  ])("%s", (_name, response, path) => {
    const { t, seen } = fakeContext(bundled);
    const id = registerCreated(t, response, "profile", remove, 3);
    expect(id).toBe(path ? 7 : undefined);
    expect(seen.cleanups).toEqual(path ? [{ description: "profile 7", path }] : []);
  });
});

describe("createRegistered", () => {
  it.each([
    ["the bundled description", bundled, "/nodebalancers/3/configs"],
    ["a description with renamed paths", renamed, "/balancers/3/configs"],
  ])("calls the create operation and registers its delete path from %s", async (_name, spec, path) => {
    const { t, seen } = fakeContext(spec);
    const created = await createRegistered(t, profiles, "profile", { params: [3], json: { port: 80 } });
    expect(created.id).toBe(7);
    expect(seen.requests).toEqual([{ method: "POST", path, json: { port: 80 } }]);
    expect(seen.cleanups).toEqual([{ description: "profile 7", path: `${path}/7` }]);
  });

  it("registers what a target created when it should have refused (a faulty target keeps nothing)", async () => {
    const { t, seen } = fakeContext(bundled, answer(200, { id: 9 }));
    await createRegistered(t, profiles, "profile (second on port 80)", { params: [3], json: { port: 80 } });
    expect(seen.cleanups).toEqual([
      { description: "profile (second on port 80) 9", path: "/nodebalancers/3/configs/9" },
    ]);
  });

  it("skips before creating anything when the description has no delete operation", async () => {
    const { t, seen } = fakeContext(bundled);
    await expect(
      createRegistered(t, ["createNodeBalancerConfig", "deleteNothing"], "profile"),
    ).rejects.toThrow("the description has no operation deleteNothing");
    expect(seen.requests).toEqual([]);
  });
});

describe("expectCreated", () => {
  it.each([
    ["an id", { response: answer(200, { id: 1 }), id: 1 }, true],
    ["no id", { response: answer(400, {}), id: undefined }, false],
  ])("with %s", (_name, created, ok) => {
    const { t, seen } = fakeContext(bundled);
    expect(expectCreated(t, "it is created", created)).toBe(ok);
    expect(seen.asserts).toEqual([{ name: "it is created", ok }]);
  });
});

describe("strongPassword", () => {
  it("is long, mixed, new each time, and registered as a secret", () => {
    const { t, seen } = fakeContext(bundled);
    const [first, second] = [strongPassword(t), strongPassword(t)];
    expect(first).not.toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(24);
    expect(first).toMatch(/[A-Z]/);
    expect(first).toMatch(/[0-9]/);
    expect(seen.secrets).toEqual([first, second]);
  });
});
