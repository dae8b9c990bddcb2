import { describe, expect, it } from "vitest";
import {
  createRegistered,
  expectCreated,
  registerCreated,
  requireCreateDelete,
  resourceOf,
  strongPassword,
} from "../../src/toolkit/resources.ts";
import { type Answer, fakeCase, liveResponse, sentJson, specWith } from "../helpers/fake-case.ts";

const bundled = await specWith();
const renamed = await specWith(["/nodebalancers", "/balancers"]);
/** What the fake target answers a create: an id. */
const createdAnswer: Answer = { status: 200, json: { id: 7 } };
const profiles = "createNodeBalancerConfig";

describe("registerCreated", () => {
  const remove = bundled.operations.byId("deleteNodeBalancerConfig")!;
  const at7 = "/nodebalancers/3/configs/7";
  it.each<[string, Answer, number | undefined, string | undefined]>([
    ["a 200 with an integer id", { status: 200, json: { id: 7 } }, 7, at7],
    ["a 299 (deprecated path) with an id", { status: 299, json: { id: 7, warnings: ["old"] } }, 7, at7],
    ["a 400 (refused)", { status: 400, json: { errors: [{ reason: "no" }] } }, undefined, undefined],
    [
      "a 200 with a string id (deleted by it, not an integer)",
      { status: 200, json: { id: "7" } },
      undefined,
      at7,
    ],
    [
      "a 200 whose JSON is labelled text/plain",
      { status: 200, text: '{"id":7}', parsed: { id: 7 }, headers: { "content-type": "text/plain" } },
      7,
      at7,
    ],
    [
      "a 201 with no body but a Location",
      { status: 201, text: "", headers: { location: "https://127.0.0.1:1/v4/nodebalancers/3/configs/7" } },
      7,
      at7,
    ],
  ])("%s", (_name, answer, id, path) => {
    const fake = fakeCase(bundled);
    expect(registerCreated(fake.t, liveResponse(answer), "profile", remove, [3], "conform-x-web")).toBe(id);
    expect(fake.cleanups).toEqual(path ? [{ description: "profile 7", path }] : []);
    expect(fake.unidentified).toEqual([]);
  });

  it("lists by its label what a 200 made but did not name (no id, no Location)", () => {
    const fake = fakeCase(bundled);
    const answer = liveResponse({ status: 200, text: "created", headers: { "content-type": "text/plain" } });
    expect(registerCreated(fake.t, answer, "profile", remove, [3], "conform-x-web")).toBeUndefined();
    expect(fake.cleanups).toEqual([]);
    expect(fake.unidentified).toEqual([{ description: "profile", label: "conform-x-web" }]);
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

  it("passes the label it sent to what lists an unidentified resource", async () => {
    const fake = fakeCase(bundled, { status: 200, json: {} });
    await createRegistered(fake.t, "createNodeBalancer", "load balancer", {
      json: { region: "r", label: "conform-x-lb" },
    });
    expect(fake.unidentified).toEqual([{ description: "load balancer", label: "conform-x-lb" }]);
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

  it("registers what a deprecated alias made for deletion as its resource's own create would", async () => {
    const fake = fakeCase(bundled, { status: 299, json: { id: 7, warnings: ["old"] } });
    await createRegistered(fake.t, "createNodeBalancerNodeDeprecated", "node (deprecated path)", {
      params: [3, 4],
      json: { label: "conform-x-n", address: "192.168.1.1:80" },
      aliasOf: "createNodeBalancerConfigNode",
    });
    expect(sentJson(fake).map(({ path }) => path)).toEqual(["/nodebalancers/3/configs/4"]);
    expect(fake.cleanups).toEqual([
      { description: "node (deprecated path) 7", path: "/nodebalancers/3/configs/4/nodes/7" },
    ]);
  });

  it.each<[string, string, string | undefined, string]>([
    [
      "the description has no delete for what it creates",
      "allocateIP",
      undefined,
      "the description has no delete for networking/ips: allocateIP would make what the run could not delete",
    ],
    [
      "the operation is an action, not a create",
      "createNodeBalancerNodeDeprecated",
      undefined,
      "the description's nodebalancers/configs is created by createNodeBalancerConfig, not createNodeBalancerNodeDeprecated",
    ],
    [
      "the alias names an operation that creates nothing",
      "createNodeBalancerNodeDeprecated",
      "getNodeBalancerConfigNodes",
      "the description's nodebalancers/configs/nodes is created by createNodeBalancerConfigNode, not getNodeBalancerConfigNodes",
    ],
    [
      "the description lacks the create",
      "createNothing",
      undefined,
      "the description has no operation createNothing",
    ],
  ])("skips before creating anything when %s", async (_name, create, aliasOf, reason) => {
    const fake = fakeCase(bundled, createdAnswer);
    await expect(
      createRegistered(fake.t, create, "thing", { params: [3, 4], ...(aliasOf ? { aliasOf } : {}) }),
    ).rejects.toThrow(reason);
    expect(fake.sent).toEqual([]);
  });
});

describe("resourceOf and requireCreateDelete", () => {
  it.each([
    ["the bundled description", bundled, "/nodebalancers/{nodeBalancerId}/configs/{configId}/nodes"],
    ["a description with renamed paths", renamed, "/balancers/{nodeBalancerId}/configs/{configId}/nodes"],
  ])("find a resource's operations by any of its operationIds in %s", (_name, spec, path) => {
    const fake = fakeCase(spec);
    const nodes = resourceOf(fake.t, "getNodeBalancerConfigNode");
    expect(nodes.path).toBe(path);
    expect([nodes.create, nodes.delete, nodes.list].map((operation) => operation?.operationId)).toEqual([
      "createNodeBalancerConfigNode",
      "deleteNodeBalancerConfigNode",
      "getNodeBalancerConfigNodes",
    ]);
    const { create, remove, resource } = requireCreateDelete(fake.t, "createNodeBalancerConfigNode");
    expect([create.operationId, remove.operationId, resource]).toEqual([
      "createNodeBalancerConfigNode",
      "deleteNodeBalancerConfigNode",
      nodes,
    ]);
  });

  it("skips an operation that belongs to no resource", () => {
    const fake = fakeCase(bundled);
    expect(() => resourceOf(fake.t, "getOAuthAuthorize")).toThrow(
      "the description shows no resource that getOAuthAuthorize belongs to",
    );
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
