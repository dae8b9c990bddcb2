import { describe, expect, it } from "vitest";
import {
  createRegistered,
  expectCreated,
  registerCreated,
  strongPassword,
} from "../../src/toolkit/resources.ts";
import { type Answer, fakeCase, liveResponse, sentJson, specWith } from "../helpers/fake-case.ts";

const bundled = await specWith();
const renamed = await specWith(["/nodebalancers", "/balancers"]);
/** What the fake target answers a create: an id. */
const createdAnswer: Answer = { status: 200, json: { id: 7 } };
const profiles = ["createNodeBalancerConfig", "deleteNodeBalancerConfig"] as const;

describe("registerCreated", () => {
  const remove = bundled.operations.byId("deleteNodeBalancerConfig")!;
  it.each<[string, Answer, string | undefined]>([
    ["a 200 with an integer id", { status: 200, json: { id: 7 } }, "/nodebalancers/3/configs/7"],
    [
      "a 299 (deprecated path) with an id",
      { status: 299, json: { id: 7, warnings: ["old"] } },
      "/nodebalancers/3/configs/7",
    ],
    ["a 400 (refused)", { status: 400, json: { errors: [{ reason: "no" }] } }, undefined],
    ["a 200 without an id", { status: 200, json: {} }, undefined],
    ["a 200 with a string id", { status: 200, json: { id: "7" } }, undefined],
  ])("%s", (_name, answer, path) => {
    const fake = fakeCase(bundled);
    const id = registerCreated(fake.t, liveResponse(answer), "profile", remove, 3);
    expect(id).toBe(path ? 7 : undefined);
    expect(fake.cleanups).toEqual(path ? [{ description: "profile 7", path }] : []);
  });
});

describe("createRegistered", () => {
  it.each([
    ["the bundled description", bundled, "/nodebalancers/3/configs"],
    ["a description with renamed paths", renamed, "/balancers/3/configs"],
  ])("calls the create operation and registers its delete path from %s", async (_name, spec, path) => {
    const fake = fakeCase(spec, createdAnswer);
    const created = await createRegistered(fake.t, profiles, "profile", { params: [3], json: { port: 80 } });
    expect(created.id).toBe(7);
    expect(sentJson(fake)).toEqual([{ method: "POST", path, json: { port: 80 } }]);
    expect(fake.cleanups).toEqual([{ description: "profile 7", path: `${path}/7` }]);
  });

  it("registers what a target created when it should have refused (a faulty target keeps nothing)", async () => {
    const fake = fakeCase(bundled, { status: 200, json: { id: 9 } });
    await createRegistered(fake.t, profiles, "profile (second on port 80)", {
      params: [3],
      json: { port: 80 },
    });
    expect(fake.cleanups).toEqual([
      { description: "profile (second on port 80) 9", path: "/nodebalancers/3/configs/9" },
    ]);
  });

  it("skips before creating anything when the description has no delete operation", async () => {
    const fake = fakeCase(bundled, createdAnswer);
    await expect(
      createRegistered(fake.t, ["createNodeBalancerConfig", "deleteNothing"], "profile"),
    ).rejects.toThrow("the description has no operation deleteNothing");
    expect(fake.sent).toEqual([]);
  });
});

describe("expectCreated", () => {
  it.each([
    ["an id", { response: liveResponse({ status: 200, json: { id: 1 } }), id: 1 }, true],
    ["no id", { response: liveResponse({ status: 400, json: {} }), id: undefined }, false],
  ])("with %s", (_name, created, ok) => {
    const fake = fakeCase(bundled);
    expect(expectCreated(fake.t, "it is created", created)).toBe(ok);
    expect(fake.expectations.map(({ name, ok }) => ({ name, ok }))).toEqual([{ name: "it is created", ok }]);
  });
});

describe("strongPassword", () => {
  it("is long, mixed, new each time, and registered as a secret", () => {
    const fake = fakeCase(bundled);
    const [first, second] = [strongPassword(fake.t), strongPassword(fake.t)];
    expect(first).not.toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(24);
    expect(first).toMatch(/[A-Z]/);
    expect(first).toMatch(/[0-9]/);
    expect(fake.secrets).toEqual([first, second]);
  });
});
