import { describe, expect } from "vitest";
import { observedDeprecated } from "../../src/checks/observed-deprecated.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import { runSequenceCases, seen, spec } from "../helpers/observed.ts";

/** The bundled description with its deprecated operation documenting 200 instead of 299. */
function without299(): ApiSpec {
  const byId = (id: string) => {
    const operation = spec.operations.byId(id);
    if (!operation?.deprecated) return operation;
    return {
      ...operation,
      responses: operation.responses.map((response) =>
        response.status === "299" ? { ...response, status: "200" } : response,
      ),
    };
  };
  return { ...spec, operations: { ...spec.operations, byId } };
}

const deprecatedCreate = (status: number, json: unknown) =>
  seen({
    operationId: "createNodeBalancerNodeDeprecated",
    method: "POST",
    path: "/nodebalancers/1/configs/2/nodes/x",
    status,
    json,
  });

describe("observed-deprecated", () => {
  runSequenceCases(observedDeprecated, [
    {
      name: "the deprecated path answering 299 with warnings passes",
      sequence: [deprecatedCreate(299, { id: 1, warnings: ["deprecated"] })],
      outcome: { status: "passed" },
    },
    {
      name: "the deprecated path answering 200 fails",
      sequence: [deprecatedCreate(200, { id: 1 })],
      outcome: {
        status: "failed",
        message: "createNodeBalancerNodeDeprecated is deprecated: a success answers 299, not 200",
      },
    },
    {
      name: "a deprecated operation documenting no 299 is skipped (another API's deprecation is its own)",
      sequence: [deprecatedCreate(200, { id: 1 })],
      spec: without299(),
      outcome: { status: "skipped", reason: expect.stringContaining("documents no 299") },
    },
    {
      name: "a 299 without warnings fails",
      sequence: [deprecatedCreate(299, { id: 1, warnings: [] })],
      outcome: { status: "failed", message: "a 299 answer carries a warnings array" },
    },
    {
      name: "the deprecated path refusing is not its business",
      sequence: [deprecatedCreate(400, { errors: [{ reason: "no" }] })],
      outcome: undefined,
    },
    {
      name: "an operation not deprecated is not its business",
      sequence: [seen({ operationId: "getProfile", path: "/profile", json: {} })],
      outcome: undefined,
    },
  ]);
});
