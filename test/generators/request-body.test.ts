/**
 * `requestBody`: valid by construction, judged by the spec's compiled request validator (ajv, an implementation
 * independent of the generator) for every JSON request body of the bundled description, of the mini cloud in each
 * dialect, and of a description written here to reach every keyword the generator handles. Same seed, same bodies;
 * constraints are honoured; a failing property shrinks to a minimal body.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requestBody, requestBodyValue, requestSchemaOf } from "../../src/generators/request-body.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import { tinyDescription } from "../helpers/descriptions.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { dialectFixtures, writeSpec } from "../spec/helpers.ts";
import { assertEveryValue, assertSameSeedSameValues, assertShrinks } from "./arbitrary-assertions.ts";

/** Every operation of a spec with a JSON request body. */
function jsonBodies(spec: ApiSpec) {
  return spec.operations
    .all()
    .filter((operation) => requestSchemaOf(spec, operation.operationId) !== undefined)
    .map((operation) => operation.operationId);
}

/** The validator's verdict on a body, as text (undefined: valid). */
function problems(spec: ApiSpec, operationId: string, body: unknown): string | undefined {
  const outcome = spec.validators.request(operationId, "application/json")!(body);
  return outcome.valid
    ? undefined
    : JSON.stringify(outcome.issues.map((issue) => [issue.field, issue.message]));
}

/** Reaches each keyword: allOf, $ref with siblings, 3.0 nullable (also beside a $ref), boolean exclusive bounds,
 * multipleOf, formats, patterns, `not`, oneOf, nested arrays of objects with item bounds, readOnly. */
const keywordDocument = {
  openapi: "3.0.3",
  info: { title: "Keywords", version: "1.0.0" },
  paths: {
    "/widgets": {
      post: {
        operationId: "createWidget",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/WidgetRequest" } } },
        },
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: {
    schemas: {
      Base: {
        type: "object",
        required: ["name"],
        properties: {
          id: { type: "integer", readOnly: true },
          name: { type: "string", minLength: 2, maxLength: 12, pattern: "^[a-z][a-z0-9-]*$" },
        },
      },
      Size: { type: "string", enum: ["s", "m", "l"] },
      WidgetRequest: {
        allOf: [
          { $ref: "#/components/schemas/Base" },
          {
            type: "object",
            required: ["parts"],
            properties: {
              size: { allOf: [{ $ref: "#/components/schemas/Size" }], nullable: true },
              weight: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10 },
              count: { type: "integer", multipleOf: 5, minimum: 5, maximum: 50 },
              due: { type: "string", format: "date-time" },
              site: { type: "string", format: "uri" },
              contact: { type: "string", format: "email" },
              ip: { type: "string", format: "ipv4" },
              note: { type: "string", nullable: true, maxLength: 20 },
              code: { type: "string", minLength: 3, maxLength: 8, not: { pattern: "--" } },
              kind: {
                oneOf: [
                  { type: "integer", minimum: 0 },
                  { type: "string", enum: ["auto"] },
                ],
              },
              parts: {
                type: "array",
                minItems: 1,
                maxItems: 3,
                items: {
                  type: "object",
                  required: ["label", "port"],
                  properties: {
                    label: { type: "string", pattern: "^[a-z]{3,8}$" },
                    port: { type: "integer", minimum: 1, maximum: 65535 },
                    tags: { type: "array", uniqueItems: true, items: { type: "string", minLength: 1 } },
                  },
                },
              },
            },
          },
        ],
      },
    },
  },
};

const bundled = await bundledSpec();
const keywords = await loadSpec(writeSpec(keywordDocument));
const dialects = await Promise.all(
  dialectFixtures.map(async ({ dialect, file }) => ({ dialect, spec: await loadSpec(file) })),
);

const cases = [
  ...jsonBodies(bundled).map((operationId) => ({
    name: `bundled ${operationId}`,
    spec: bundled,
    operationId,
  })),
  ...dialects.flatMap(({ dialect, spec }) =>
    jsonBodies(spec).map((operationId) => ({ name: `${dialect} ${operationId}`, spec, operationId })),
  ),
  { name: "keywords createWidget", spec: keywords, operationId: "createWidget" },
];

describe("requestBody", () => {
  it("finds the JSON request body of every write of the bundled description, and of each dialect", () => {
    expect(jsonBodies(bundled).length).toBeGreaterThanOrEqual(15);
    for (const { spec } of dialects) expect(jsonBodies(spec).length).toBeGreaterThan(0);
    expect(requestSchemaOf(bundled, "getNodeBalancers")).toBeUndefined();
    // The token endpoint takes forms: no JSON body schema.
    expect(requestSchemaOf(bundled, "createOAuthToken")).toBeUndefined();
  });

  it.each(cases)("$name: every body passes the compiled request validator", ({ spec, operationId }) => {
    const schema = requestSchemaOf(spec, operationId)!;
    assertEveryValue(requestBody(schema), (generated) => {
      if (generated.meta.mode !== "positive") return "provenance is not positive";
      return problems(spec, operationId, generated.value);
    });
  });

  it.each(cases)("$name: the same seed gives the same bodies", ({ spec, operationId }) => {
    assertSameSeedSameValues(requestBody(requestSchemaOf(spec, operationId)!));
  });

  it("reaches optional properties, nulls where allowed, and nested arrays", () => {
    const schema = requestSchemaOf(keywords, "createWidget")!;
    const values = fc.sample(requestBodyValue(schema), { seed: 5, numRuns: 300 });
    const sent = new Set(values.flatMap((value) => Object.keys(value)));
    expect([...sent].sort()).toEqual(
      [
        "code",
        "contact",
        "count",
        "due",
        "ip",
        "kind",
        "name",
        "note",
        "parts",
        "site",
        "size",
        "weight",
      ].sort(),
    );
    expect(values.some((value) => value.note === null)).toBe(true);
    expect(values.some((value) => value.size === null)).toBe(true);
    expect(values.some((value) => (value.parts as unknown[]).length === 3)).toBe(true);
    // readOnly properties are never sent.
    expect(values.some((value) => "id" in value)).toBe(false);
  });

  it("honours overrides, include, exclude, nulls and refine", () => {
    const schema = requestSchemaOf(keywords, "createWidget")!;
    const values = fc.sample(
      requestBodyValue(schema, {
        overrides: { "/name": fc.constant("fixed"), "/parts/*/port": fc.constant(8080) },
        include: ["/count"],
        exclude: ["/site", "/due"],
        nulls: false,
        refine: (body) => ({ ...body, note: "refined" }),
      }),
      { seed: 9, numRuns: 200 },
    );
    for (const value of values) {
      expect(value.name).toBe("fixed");
      expect(value.count).toBeTypeOf("number");
      expect(value).not.toHaveProperty("site");
      expect(value).not.toHaveProperty("due");
      expect(value.size).not.toBeNull();
      expect(value.note).toBe("refined");
      for (const part of value.parts as { port: number }[]) expect(part.port).toBe(8080);
    }
  });

  it("sends a dependentRequired pair together, or neither when one is left out", () => {
    const schema = requestSchemaOf(bundled, "createNodeBalancerConfig")!;
    const together = fc.sample(requestBodyValue(schema), { seed: 1, numRuns: 300 });
    expect(together.some((body) => "ssl_cert" in body)).toBe(true);
    for (const body of together) expect("ssl_cert" in body).toBe("ssl_key" in body);
    const neither = fc.sample(requestBodyValue(schema, { exclude: ["/ssl_key"] }), { seed: 1, numRuns: 300 });
    for (const body of neither) expect(body).not.toHaveProperty("ssl_cert");
  });

  it("shrinks a failing property to the smallest body that still fails", () => {
    const schema = requestSchemaOf(bundled, "createNodeBalancerConfig")!;
    // Fails once a port is sent: the smallest such body is that port alone, at its lower bound.
    const shrunk = assertShrinks(requestBodyValue(schema), (body) => typeof body.port === "number");
    expect(shrunk).toEqual({ port: 1 });
  });
});

describe("requestBody where the description is not this API's", () => {
  const rows = [
    { name: "a url is one ajv-formats' url accepts", schema: { type: "string", format: "url" } },
    {
      name: "a schema naming no type but declaring properties is an object",
      schema: { properties: { ids: { type: "array", items: { type: "integer" } } }, required: ["ids"] },
    },
  ];

  it.each(rows)("$name", async ({ schema }) => {
    const body = {
      type: "object",
      properties: { value: schema },
      required: ["value"],
    };
    const spec = await tinyDescription({
      "/things": {
        post: {
          operationId: "act",
          requestBody: { required: true, content: { "application/json": { schema: body } } },
          responses: {},
        },
      },
    });
    const validate = spec.validators.request("act", "application/json")!;
    assertEveryValue(
      requestBody(requestSchemaOf(spec, "act")!),
      (generated) => {
        const outcome = validate(generated.value);
        if (!outcome.valid) return `refused: ${JSON.stringify(outcome.issues.map((issue) => issue.message))}`;
        const value = (generated.value as { value: unknown }).value;
        return schema.type === undefined && (typeof value !== "object" || Array.isArray(value))
          ? "not an object"
          : undefined;
      },
      1000,
    );
  });
});
