import { describe, expect, it } from "vitest";
import { normalizeNode } from "../../src/spec/normalize-schema.ts";
import type { SpecDialect } from "../../src/spec/types.ts";

describe("normalizeNode: one schema object into plain JSON Schema", () => {
  it.each<[SpecDialect, Record<string, unknown>, Record<string, unknown>]>([
    ["openapi-3.0", { type: "string", nullable: true }, { type: ["string", "null"] }],
    [
      "openapi-3.0",
      { type: "string", enum: ["a"], nullable: true },
      { type: ["string", "null"], enum: ["a", null] },
    ],
    ["openapi-3.0", { type: "integer", nullable: false }, { type: "integer" }],
    ["swagger-2.0", { type: "string", "x-nullable": true }, { type: ["string", "null"] }],
    ["openapi-3.0", { nullable: true }, {}],
    [
      "openapi-3.0",
      { nullable: true, readOnly: true, description: "d", allOf: [{ $ref: "#/x" }] },
      { readOnly: true, description: "d", anyOf: [{ type: "null" }, { allOf: [{ $ref: "#/x" }] }] },
    ],
    ["openapi-3.0", { $ref: "#/x", nullable: true }, { anyOf: [{ type: "null" }, { $ref: "#/x" }] }],
    ["openapi-3.0", { minimum: 1, exclusiveMinimum: true }, { exclusiveMinimum: 1 }],
    ["swagger-2.0", { maximum: 9, exclusiveMaximum: false }, { maximum: 9 }],
    ["swagger-2.0", { type: "file" }, {}],
    [
      "openapi-3.0",
      {
        type: "object",
        discriminator: { propertyName: "k" },
        xml: {},
        externalDocs: {},
        example: 1,
        "x-a": 1,
      },
      { type: "object" },
    ],
    // In 3.1 `nullable` is no keyword: dropped, not turned into null.
    ["openapi-3.1", { type: "string", nullable: true, examples: ["a"] }, { type: "string", examples: ["a"] }],
    [
      "openapi-3.1",
      { exclusiveMinimum: 0, type: ["string", "null"] },
      { exclusiveMinimum: 0, type: ["string", "null"] },
    ],
  ])("%s: %j → %j", (dialect, schema, expected) => {
    const node = structuredClone(schema);
    normalizeNode(node, dialect);
    expect(node).toEqual(expected);
  });
});
