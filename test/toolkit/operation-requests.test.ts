/**
 * What an operation does by its method and path, the order the generic layer sends them in, and the unknown
 * resource a write without writes allowed names.
 */
import { describe, expect, it } from "vitest";
import { pathValueFits } from "../../src/generators/operation-request.ts";
import { loadSpec } from "../../src/spec/load.ts";
import {
  acceptOf,
  deleteOperationFor,
  exerciseOperation,
  operationKind,
  operationOrder,
  probeWrite,
  unknownPathValue,
} from "../../src/toolkit/operation-requests.ts";
import { PathHarvest } from "../../src/toolkit/path-values.ts";
import { bodyAt, eitherRuleList, overlappingOneOf, tinyDescription } from "../helpers/descriptions.ts";
import { fakeCase } from "../helpers/fake-case.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { writeSpec } from "../spec/helpers.ts";

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

describe("unknownPathValue", () => {
  const parameter = (name: string, schema: unknown) => ({ name, in: "path", required: true, schema });
  const file = writeSpec(
    {
      openapi: "3.0.3",
      info: { title: "unknown", version: "1" },
      paths: {
        "/things/{uuid}/{id}/{slug}/{code}": {
          delete: {
            operationId: "deleteThing",
            parameters: [
              parameter("uuid", { type: "string", format: "uuid" }),
              parameter("id", { type: "integer", maximum: 500 }),
              parameter("slug", { type: "string" }),
              parameter("code", { type: "string", pattern: "^[A-Z]{3}$" }),
            ],
            responses: { "204": { description: "gone" } },
          },
        },
      },
    },
    "unknown.json",
  );

  it.each(["uuid", "id", "slug", "code"])(
    "%s: a value its schema allows, the same every time",
    async (name) => {
      const unknownSpec = await loadSpec(file);
      const operation = unknownSpec.operations.byId("deleteThing")!;
      const value = unknownPathValue(unknownSpec, operation, name);
      expect(pathValueFits(unknownSpec, operation, name, value), String(value)).toBe(true);
      expect(unknownPathValue(unknownSpec, operation, name)).toEqual(value);
    },
  );
});

describe("acceptOf", () => {
  const answering = (contentTypes: string[]) =>
    ({
      responses: [
        { status: "200", description: "", contentTypes, headers: [], hasSchema: false },
        { status: "404", description: "", contentTypes: ["application/json"], headers: [], hasSchema: true },
      ],
    }) as unknown as Parameters<typeof acceptOf>[0];

  it.each([
    { types: ["text/csv"], accept: "text/csv, application/json;q=0.5" },
    {
      types: ["application/pdf", "text/plain"],
      accept: "application/pdf, text/plain, application/json;q=0.5",
    },
    { types: ["application/json", "application/yaml"], accept: undefined },
    { types: ["application/problem+json"], accept: undefined },
    { types: [], accept: undefined },
  ])("a success answered as $types asks for $accept", ({ types, accept }) => {
    expect(acceptOf(answering(types))).toBe(accept);
  });
});

describe("a body no value fits (a oneOf whose branches overlap)", () => {
  const described = tinyDescription(bodyAt("/actions", "act", overlappingOneOf));
  const bodiesSent = (fake: ReturnType<typeof fakeCase>) =>
    fake.sent.flatMap((request) => (request.options.json === undefined ? [] : [request.options.json]));

  it.each([
    { name: "with writes", writesAllowed: true },
    { name: "without writes", writesAllowed: false },
  ])("$name, still gets a body of a type no branch allows", async ({ writesAllowed }) => {
    const spec = await described;
    const fake = fakeCase(
      spec,
      { status: 400, json: { errors: [{ reason: "no" }] } },
      {
        embedded: false,
        writesAllowed,
      },
    );
    const operation = spec.operations.byId("act")!;
    const outcome = writesAllowed
      ? await exerciseOperation(fake.t, operation, new PathHarvest())
      : await probeWrite(fake.t, operation);
    expect(outcome.notRequested).toBeUndefined();
    expect(outcome.negative.some(({ parts }) => parts.includes("body"))).toBe(true);
    const sent = bodiesSent(fake);
    expect(sent.length).toBeGreaterThan(0);
    for (const value of sent)
      expect(typeof value === "object" && !Array.isArray(value) && value !== null).toBe(false);
  });
});

describe("a body of alternatives another branch still accepts once broken", () => {
  it("is not sent as invalid, and the log says so", async () => {
    const spec = await tinyDescription(bodyAt("/rules", "addRules", eitherRuleList));
    const fake = fakeCase(spec, { status: 400, json: { errors: [{ reason: "no" }] } }, { embedded: false });
    await exerciseOperation(fake.t, spec.operations.byId("addRules")!, new PathHarvest());
    const validate = spec.validators.request("addRules", "application/json")!;
    const negatives = fake.sent.filter((request) => request.options.breaks !== undefined);
    expect(negatives.length).toBeGreaterThan(0);
    for (const request of negatives) {
      if (request.options.json !== undefined) expect(validate(request.options.json).valid).toBe(false);
    }
    expect(
      fake.logs.some((line) =>
        /addRules: \d+ mutation\(s\) left a request the description still accepts/.test(line),
      ),
    ).toBe(true);
  });
});
