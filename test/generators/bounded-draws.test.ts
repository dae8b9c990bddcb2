/**
 * Bodies of a real description (DigitalOcean's): a fuller request sends the body even where the description leaves
 * it optional (OpenAPI's default), and drawn text inside a `oneOf` branch is named as not pinned down. Drawing
 * never hangs: a schema no drawn value satisfies (a `oneOf` whose branches accept the
 * same objects) ends with `UnsatisfiableSchema` naming it, and integer bounds beyond the safe integers (an int64's
 * 2^63 - 1) are drawn within them. Both hung the process for good before (fast-check's filter and its integer
 * draw never return), found against Prism on DigitalOcean's description.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { operationRequest, UnsatisfiableSchema } from "../../src/generators/operation-request.ts";
import { breakableIn } from "../../src/generators/operation-request-invalid.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { writeSpec } from "../spec/helpers.ts";

const body = (schema: unknown) => ({
  required: true,
  content: { "application/json": { schema } },
});
const open = (name: string) => ({ type: "object", properties: { [name]: { type: "integer" } } });
const description = {
  openapi: "3.0.3",
  info: { title: "bounded", version: "1" },
  servers: [{ url: "https://api.example.test/v1" }],
  paths: {
    "/actions": {
      post: {
        operationId: "postAction",
        requestBody: body({ oneOf: [open("a"), open("b")] }),
        responses: { "200": { description: "ok" } },
      },
    },
    "/droplets": {
      post: {
        operationId: "createDroplet",
        requestBody: {
          content: {
            "application/json": {
              schema: {
                oneOf: [
                  {
                    type: "object",
                    required: ["name", "region"],
                    properties: { name: { type: "string" }, region: { type: "string" } },
                    additionalProperties: false,
                  },
                  {
                    type: "object",
                    required: ["names"],
                    properties: { names: { type: "array", items: { type: "string" }, minItems: 1 } },
                    additionalProperties: false,
                  },
                ],
              },
            },
          },
        },
        responses: { "202": { description: "accepted" } },
      },
    },
    "/checks": {
      post: {
        operationId: "createCheck",
        requestBody: body({
          type: "object",
          allOf: [{ type: "object", properties: { name: { type: "string" } } }],
          required: ["name", "method"],
        }),
        responses: { "201": { description: "made" } },
      },
    },
    "/limits": {
      post: {
        operationId: "postLimit",
        requestBody: body({
          type: "object",
          required: ["bytes"],
          // An int64 bound as descriptions write it: JSON.parse reads it as this same imprecise number.
          // biome-ignore lint/correctness/noPrecisionLoss: the imprecision is what the test is about
          properties: { bytes: { type: "integer", minimum: 0, maximum: 9223372036854775807 } },
        }),
        responses: { "200": { description: "ok" } },
      },
    },
  },
};

const spec = await loadSpec(writeSpec(description, "bounded.json"));

describe("bodies of a real description", () => {
  it("a fuller request sends an optional body; its drawn text in a oneOf branch is not pinned down", () => {
    const operation = spec.operations.byId("createDroplet")!;
    const drawn = fc.sample(operationRequest(spec, operation), { numRuns: 20, seed: 3 });
    for (const { value } of drawn) {
      expect(value.body).toBeDefined();
      const body = value.body as { name?: string; names?: string[] };
      const expected = body.names ? body.names.map((_name, index) => `names[${index}]`) : ["name", "region"];
      expect(value.unpinned).toEqual(expected);
    }
  });
});

describe("required properties the description never describes", () => {
  it("are sent with some value (their absence breaks required)", () => {
    const operation = spec.operations.byId("createCheck")!;
    for (const minimal of [true, false]) {
      const drawn = fc.sample(operationRequest(spec, operation, { minimal }), { numRuns: 10, seed: 5 });
      for (const { value } of drawn)
        expect(Object.keys(value.body as object).sort()).toEqual(["method", "name"]);
    }
  });
});

describe("draws from a description end", () => {
  it("a oneOf no drawn value satisfies ends with UnsatisfiableSchema naming it", () => {
    const operation = spec.operations.byId("postAction")!;
    const draw = () => fc.sample(operationRequest(spec, operation), { numRuns: 1, seed: 1 });
    expect(draw).toThrow(UnsatisfiableSchema);
    expect(draw).toThrow(/requestBody\/content\/application~1json\/schema/);
    // Its body can still be broken whole: a body of a type no branch allows needs no valid one to start from.
    expect(breakableIn(spec, operation, "body")).toBe(true);
  });

  it("integer bounds beyond the safe integers are drawn within them", () => {
    const operation = spec.operations.byId("postLimit")!;
    const drawn = fc.sample(operationRequest(spec, operation), { numRuns: 20, seed: 2 });
    for (const { value } of drawn) {
      const bytes = (value.body as { bytes: number }).bytes;
      expect(Number.isSafeInteger(bytes) && bytes >= 0).toBe(true);
    }
  });
});
