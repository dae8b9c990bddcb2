/** What an operation does by its method and path, and the order the generic layer sends them in. */
import { describe, expect, it } from "vitest";
import { deleteOperationFor, operationKind, operationOrder } from "../../src/toolkit/operation-requests.ts";
import { bundledSpec } from "../helpers/reference.ts";

const spec = await bundledSpec();
const op = (id: string) => spec.operations.byId(id)!;

describe("operationKind", () => {
  it.each([
    ["getNodeBalancers", "read"],
    ["createNodeBalancer", "create"],
    ["createNodeBalancerConfig", "create"],
    ["updateNodeBalancer", "update"],
    ["rebuildNodeBalancerConfig", "action"],
    ["bootComputeInstance", "action"],
    ["deleteNodeBalancerConfig", "delete"],
  ])("%s is a %s", (id, kind) => {
    expect(operationKind(spec, op(id))).toBe(kind);
  });

  it("finds the delete of what a create makes", () => {
    expect(deleteOperationFor(spec, op("createNodeBalancerConfig"))?.operationId).toBe(
      "deleteNodeBalancerConfig",
    );
    expect(deleteOperationFor(spec, op("allocateIP"))).toBeUndefined();
  });
});

describe("operationOrder", () => {
  it("puts reads first, parents before children, and deletes last, children first", () => {
    const ordered = operationOrder(spec, spec.operations.all()).map((operation) => operation.operationId);
    const at = (id: string) => ordered.indexOf(id);
    expect(at("getNodeBalancers")).toBeLessThan(at("getNodeBalancerConfigs"));
    expect(at("getNodeBalancerConfigNode")).toBeLessThan(at("createNodeBalancer"));
    expect(at("createNodeBalancer")).toBeLessThan(at("createNodeBalancerConfig"));
    expect(at("createNodeBalancerConfigNode")).toBeLessThan(at("updateNodeBalancer"));
    expect(at("updateNodeBalancer")).toBeLessThan(at("bootComputeInstance"));
    expect(at("bootComputeInstance")).toBeLessThan(at("deleteNodeBalancerConfigNode"));
    expect(at("deleteNodeBalancerConfigNode")).toBeLessThan(at("deleteNodeBalancerConfig"));
    expect(at("deleteNodeBalancerConfig")).toBeLessThan(at("deleteNodeBalancer"));
  });
});
