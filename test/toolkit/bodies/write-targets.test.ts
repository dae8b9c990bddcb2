import { describe, expect, it } from "vitest";
import {
  jsonWriteOperations,
  type PathValues,
  pathParameters,
  sendBody,
  sendTo,
  writeTargets,
} from "../../../src/index.ts";
import { fakeCase, Skipped, specWith } from "../../helpers/fake-case.ts";

const allValues: PathValues = {
  nodeBalancerId: 1,
  configId: 2,
  nodeId: 3,
  computeId: 4,
  address: "203.0.113.5",
  clientId: "abc/def",
};

describe("jsonWriteOperations", () => {
  it("lists the API server's JSON writes: creates, then updates, then actions", async () => {
    const { t } = fakeCase(await specWith());
    const ids = jsonWriteOperations(t).map((operation) => operation.operationId);
    expect(ids[0]).toBe("createNodeBalancer");
    expect(ids.at(-1)).toBe("rebuildNodeBalancerConfig");
    expect(ids.indexOf("createOAuthClient")).toBeLessThan(ids.indexOf("updateNodeBalancer"));
    // Not JSON writes: reads, deletes, body-less actions, the login server's form posts.
    for (const absent of [
      "getNodeBalancers",
      "deleteNodeBalancer",
      "bootComputeInstance",
      "createOAuthToken",
    ])
      expect(ids).not.toContain(absent);
  });

  it("finds the same operations in the same order whatever the paths are called", async () => {
    const bundled = jsonWriteOperations(fakeCase(await specWith()).t).map((op) => op.operationId);
    const renamed = jsonWriteOperations(fakeCase(await specWith(["/compute/", "/linode/"])).t);
    expect(renamed.map((op) => op.operationId)).toEqual(bundled);
    expect(renamed.find((op) => op.operationId === "createComputeInstance")?.pathTemplate).toBe(
      "/linode/instances",
    );
  });
});

describe("pathParameters", () => {
  it.each<[string, PathValues, ReturnType<typeof pathParameters>]>([
    ["createNodeBalancer", {}, { params: [] }],
    ["createNodeBalancerConfigNode", allValues, { params: [1, 2] }],
    ["updateNodeBalancerConfigNode", allValues, { params: [1, 2, 3] }],
    ["updateNodeBalancerConfigNode", { nodeBalancerId: 1, configId: 2 }, { missing: "nodeId" }],
    ["updateIP", { ...allValues, address: undefined }, { missing: "address" }],
  ])("%s with %j", async (operationId, values, expected) => {
    const { t } = fakeCase(await specWith());
    expect(pathParameters(t.spec.operations.byId(operationId)!, values)).toEqual(expected);
  });
});

describe("writeTargets", () => {
  it("fills each operation's path, and logs the ones left out with why", async () => {
    const { t, logs } = fakeCase(await specWith());
    const targets = writeTargets(t, { nodeBalancerId: 7 }, (operationId) =>
      operationId === "createComputeInstance" ? { unavailable: "no instances here" } : {},
    );
    const byId = new Map(targets.map((target) => [target.operation.operationId, target]));
    expect(byId.get("createNodeBalancerConfig")).toMatchObject({
      params: [7],
      path: "/nodebalancers/7/configs",
    });
    expect(byId.get("createNodeBalancerConfig")?.schema.properties?.port).toBeDefined();
    expect(byId.has("createComputeInstance")).toBe(false);
    expect(byId.has("updateNodeBalancerConfig")).toBe(false);
    expect(logs).toContain("createComputeInstance left out: no instances here");
    expect(logs).toContain(
      "updateNodeBalancerConfig left out: no resource of this suite fills its path parameter {configId}",
    );
  });

  it("encodes path values, and follows renamed paths", async () => {
    const { t } = fakeCase(await specWith(["/account/", "/acct/"]));
    const target = writeTargets(t, allValues, () => ({})).find(
      (entry) => entry.operation.operationId === "updateOAuthClient",
    );
    expect(target?.path).toBe("/acct/oauth-clients/abc%2Fdef");
  });

  it("skips the case when no operation is left", async () => {
    const { t } = fakeCase(await specWith());
    expect(() => writeTargets(t, {}, () => ({ unavailable: "nothing" }))).toThrow(Skipped);
  });
});

describe("sendBody and sendTo", () => {
  it("send to the target's operation with its method and path", async () => {
    const fake = fakeCase(await specWith(), () => ({ status: 200, json: {} }));
    const [target] = writeTargets(fake.t, allValues, () => ({})).filter(
      (entry) => entry.operation.operationId === "updateComputeInstance",
    );
    await sendBody(fake.t, target!, { label: "x" });
    await sendTo(fake.t, target!, { body: "{", headers: { "content-type": "application/json" } });
    expect(fake.sent.map((sent) => [sent.method, sent.path])).toEqual([
      ["PUT", "/compute/instances/4"],
      ["PUT", "/compute/instances/4"],
    ]);
    expect(fake.sent[0]?.options.json).toEqual({ label: "x" });
    expect(fake.sent[1]?.options.body).toBe("{");
  });
});
