import { describe, expect, it } from "vitest";
import { bodyFixturesOf, createBodyFixtures, madeFixture } from "../../../src/index.ts";
import { loadSpec } from "../../../src/spec/load.ts";
import type { ApiSpec } from "../../../src/spec/types.ts";
import { descriptionWithout } from "../../helpers/descriptions.ts";
import { type Answer, fakeCase, type SentRequest, Skipped, specWith } from "../../helpers/fake-case.ts";

/** A target that answers each operation the fixtures use, found by the request's method and path. */
function target(spec: ApiSpec, refuse?: string) {
  const answers: Record<string, Answer> = {
    getProfile: { status: 200, json: { timezone: "US/Eastern" }, headers: { "x-oauth-scopes": "*" } },
    getRegions: {
      status: 200,
      json: {
        data: [
          { id: "down", status: "outage", capabilities: ["NodeBalancers", "Linodes"] },
          { id: "lb-only", capabilities: ["NodeBalancers"] },
          { id: "both", capabilities: ["NodeBalancers", "Linodes"] },
        ],
      },
    },
    getComputeTypes: {
      status: 200,
      json: {
        data: [
          { id: "big", price: { hourly: 1 } },
          { id: "small", price: { hourly: 0.01 } },
        ],
      },
    },
    createNodeBalancer: { status: 200, json: { id: 11 } },
    createNodeBalancerConfig: { status: 200, json: { id: 12 } },
    createComputeInstance: { status: 200, json: { id: 13 } },
    allocateIP: { status: 200, json: { address: "192.168.1.1" } },
    getComputeInstanceIPs: { status: 200, json: { ipv4: { public: [{ address: "203.0.113.9" }] } } },
    createNodeBalancerConfigNode: { status: 200, json: { id: 14 } },
    createOAuthClient: { status: 200, json: { id: "client-1", secret: "shh" } },
  };
  return (request: SentRequest): Answer => {
    const operationId = spec.operations.match(request.method, request.path)?.operation.operationId;
    if (operationId === refuse) return { status: 400, json: { errors: [{ reason: "no" }] } };
    return answers[operationId ?? ""] ?? { status: 404 };
  };
}

describe("createBodyFixtures", () => {
  it.each([
    ["the bundled description", undefined],
    ["paths renamed", ["/compute/", "/linode/"] as const],
    ["other paths renamed", ["/nodebalancers", "/balancers"] as const],
  ])("creates through operations by operationId (%s)", async (_name, rename) => {
    const spec = await specWith(rename);
    const fake = fakeCase(spec, target(spec));
    const fixtures = await createBodyFixtures(fake.t);
    expect(fixtures).toMatchObject({
      region: "both",
      type: "small",
      nodeBalancerId: 11,
      configId: 12,
      computeId: 13,
      nodeId: 14,
      privateIp: "192.168.1.1",
      publicIp: "203.0.113.9",
      clientId: "client-1",
      scopes: "*",
      timezone: "US/Eastern",
    });
    expect(fixtures.pathValues).toEqual({
      nodeBalancerId: 11,
      configId: 12,
      computeId: 13,
      address: "203.0.113.9",
      nodeId: 14,
      clientId: "client-1",
    });
    expect(bodyFixturesOf(fake.t)).toBe(fixtures);
    expect(fake.secrets).toContain("shh");
    // Every request found its operation in the description; every resource is on the ledger at its delete path.
    for (const sent of fake.sent) expect(spec.operations.match(sent.method, sent.path)).toBeDefined();
    const deletes = fake.cleanups.map((cleanup) => spec.operations.match("DELETE", cleanup.path)?.operation);
    expect(deletes.map((operation) => operation?.operationId)).toEqual([
      "deleteNodeBalancer",
      "deleteNodeBalancerConfig",
      "deleteComputeInstance",
      "deleteNodeBalancerConfigNode",
      "deleteOAuthClient",
    ]);
  });

  it("stops at a create the target refuses: a failed assertion, then a skip saying why", async () => {
    const spec = await specWith();
    const fake = fakeCase(spec, target(spec, "createComputeInstance"));
    await expect(createBodyFixtures(fake.t)).rejects.toThrow(
      new Skipped("could not create a compute instance (answered 400): nothing to write against"),
    );
    expect(fake.expectations.filter((expectation) => !expectation.ok)).toMatchObject([
      { name: "fixture: a compute instance is created", ok: false, details: { actual: 400 } },
    ]);
    expect(fake.cleanups).toHaveLength(2);
    expect(() => bodyFixturesOf(fake.t)).toThrow(Skipped);
  });

  it("creates nothing it could not delete: a description without a delete operation makes nothing, saying so", async () => {
    const spec = await specWith(["operationId: deleteOAuthClient", "operationId: removeOAuthClient"]);
    const fake = fakeCase(spec, target(spec));
    const lacking = "the description has no operation deleteOAuthClient";
    await expect(createBodyFixtures(fake.t)).rejects.toThrow(
      new Skipped(`${lacking}: the resources the bodies write against are not made`),
    );
    const sent = fake.sent.map((request) => spec.operations.match(request.method, request.path)?.operation);
    expect(sent.map((operation) => operation?.operationId)).toEqual(["getProfile"]);
    expect(fake.cleanups).toEqual([]);
    expect(bodyFixturesOf(fake.t)).toMatchObject({ lacking, scopes: "*", timezone: "US/Eastern" });
    expect(() => madeFixture(fake.t, bodyFixturesOf(fake.t), undefined, "load balancer")).toThrow(
      new Skipped(`the fixtures hold no load balancer: ${lacking}`),
    );
  });

  it.each([
    ["/regions", "region", "no list in the description offers a `region` for POST /nodebalancers's body"],
    [
      "/compute/types",
      "type",
      "no list in the description offers a `type` for POST /compute/instances's body",
    ],
  ])(
    "a description without the list at %s makes nothing: the skip names the %s it lacked",
    async (path, _field, lacking) => {
      const spec = await loadSpec(descriptionWithout(path));
      const fake = fakeCase(spec, target(spec));
      await expect(createBodyFixtures(fake.t)).rejects.toThrow(
        new Skipped(`${lacking}: the resources the bodies write against are not made`),
      );
      expect(fake.cleanups).toEqual([]);
      expect(bodyFixturesOf(fake.t).lacking).toBe(lacking);
    },
  );
});
