import { describe, expect, it } from "vitest";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/load.ts";
import {
  call,
  harmlessProbe,
  pathFor,
  pathOf,
  plainRead,
  probeBodyBreaks,
  publicRead,
  requireOperation,
  topLevelLists,
  unknownValue,
} from "../../src/toolkit/operations.ts";
import { fakeCase, Skipped } from "../helpers/fake-case.ts";

const spec = await loadSpec(bundledSpecPath);

describe("operations by operationId", () => {
  it.each([
    ["getNodeBalancers", [], "/nodebalancers"],
    ["getNodeBalancerConfig", [12, 34], "/nodebalancers/12/configs/34"],
    ["getIP", ["192.168.0.1"], "/networking/ips/192.168.0.1"],
    ["getOAuthClient", ["a b/c"], "/account/oauth-clients/a%20b%2Fc"],
  ])("%s with %j is %s", (operationId, values, path) => {
    const { t } = fakeCase(spec);
    expect(pathFor(t, operationId, ...values)).toBe(path);
  });

  it("a missing parameter value is the suite's defect (thrown), not a skip", () => {
    expect(() => pathOf(spec.operations.byId("getNodeBalancer")!)).toThrow(/no value for \{nodeBalancerId\}/);
  });

  it("an operation the description lacks skips the case, naming it", () => {
    const { t } = fakeCase(spec);
    expect(() => requireOperation(t, "launchRocket")).toThrow(Skipped);
    expect(() => requireOperation(t, "launchRocket")).toThrow(
      "the description has no operation launchRocket",
    );
  });

  it("calls an operation with its method and path, on the login server when it is served there", async () => {
    const fake = fakeCase(spec);
    await call(fake.t, "createNodeBalancerConfig", { params: [5], json: { port: 80 } });
    await call(fake.t, "createOAuthToken", { form: { code: "x" } });
    expect(fake.sent.map((entry) => [entry.method, entry.path])).toEqual([
      ["POST", "/nodebalancers/5/configs"],
      ["POST", "/oauth/token"],
    ]);
  });

  it("finds operations by what the description says of them", () => {
    const { t } = fakeCase(spec);
    expect(plainRead(t)?.operationId).toBe("getProfile");
    expect(publicRead(t)?.security.public).toBe(true);
    expect(topLevelLists(t).map((operation) => operation.operationId)).toContain("getNodeBalancers");
    expect(topLevelLists(t).every((operation) => !operation.pathTemplate.includes("{"))).toBe(true);
  });

  it.each([
    [{ type: "integer" }, "987654321"],
    [{ type: "integer", maximum: 1000 }, "1000"],
    [{ type: "string", format: "ipv4" }, "192.0.2.1"],
    [{ type: "string" }, "conform-unknown-0"],
  ])("an unknown value for %j is %s", (schema, value) => {
    expect(unknownValue(schema)).toBe(value);
  });

  it("a harmless probe of a write sends unknown ids and a body every target refuses", () => {
    expect(harmlessProbe(spec.operations.byId("updateNodeBalancer")!)).toEqual({
      method: "PUT",
      path: "/nodebalancers/987654321",
      json: [],
      breaks: probeBodyBreaks,
    });
    expect(harmlessProbe(spec.operations.byId("getProfile")!)).toEqual({
      method: "GET",
      path: "/profile",
      json: undefined,
      breaks: undefined,
    });
  });
});
