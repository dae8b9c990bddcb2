import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { apiFacts, conventionsOf } from "../../src/spec/conventions.ts";
import { loadSpec } from "../../src/spec/load.ts";

/** A small OpenAPI 3.1 description: one list with the given page_size schema and error schema. */
function description(
  pageSize: object | undefined,
  error: object,
  headers: object = {},
  title = "Other edition",
): string {
  const document = {
    openapi: "3.1.0",
    info: { title, version: "5.0.0" },
    servers: [{ url: "https://api.example.test/v5" }],
    paths: {
      "/things": {
        get: {
          operationId: "getThings",
          parameters: [
            ...(pageSize ? [{ name: "page_size", in: "query", schema: pageSize }] : []),
            { name: "Filter-By", in: "header", schema: { type: "string" } },
          ],
          responses: {
            "200": {
              description: "a page",
              headers,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["data", "page", "pages", "results"],
                    properties: {
                      data: { type: "array", items: { type: "object" } },
                      page: { type: "integer" },
                      pages: { type: "integer" },
                      results: { type: "integer" },
                    },
                  },
                },
              },
            },
            "400": { description: "bad", content: { "application/json": { schema: error } } },
          },
        },
      },
    },
  };
  const file = join(mkdtempSync(join(tmpdir(), "conform-conventions-")), "spec.yaml");
  writeFileSync(file, stringify(document));
  return file;
}

const problems = {
  type: "object",
  required: ["problems"],
  properties: {
    problems: {
      type: "array",
      items: {
        type: "object",
        required: ["message"],
        properties: { message: { type: "string" }, pointer: { type: "string" } },
      },
    },
  },
};

describe("conventions read from the description", () => {
  it("the bundled description: 25..500 default 100, errors/reason/field, X-Filter, the API's headers", async () => {
    const conventions = conventionsOf(await loadSpec(bundledSpecPath));
    expect(conventions.pageSize).toEqual({ min: 25, max: 500, default: 100 });
    expect(conventions.errorEnvelope).toEqual({ list: "errors", reason: "reason", field: "field" });
    expect(conventions.filterHeader).toBe("X-Filter");
    expect([...conventions.documentedHeaders]).toEqual(
      expect.arrayContaining(["x-spec-version", "x-ratelimit-limit", "x-ratelimit-reset", "retry-after"]),
    );
  });

  it.each([
    [
      "bounds of its own",
      { type: "integer", minimum: 10, maximum: 50, default: 20 },
      { min: 10, max: 50, default: 20 },
    ],
    ["only a maximum", { type: "integer", maximum: 1000 }, { min: 25, max: 1000, default: 100 }],
    ["no page_size parameter", undefined, { min: 25, max: 500, default: 100 }],
  ])("another edition with %s", async (_name, schema, bounds) => {
    const conventions = conventionsOf(await loadSpec(description(schema, problems)));
    expect(conventions.pageSize).toEqual(bounds);
    expect(conventions.errorEnvelope).toEqual({ list: "problems", reason: "message", field: "pointer" });
    expect(conventions.filterHeader).toBe("Filter-By");
    expect(conventions.documentedHeaders.size).toBe(0);
  });

  it.each([
    ["an envelope of its own", problems, undefined],
    [
      "another API's errors",
      { type: "object", properties: { id: { type: "string" }, message: { type: "string" } } },
      "getThings 400 answers {id, message}",
    ],
    ["a schema without properties", { type: "object" }, "getThings 400 answers a schema without properties"],
  ])("an edition whose 400 is %s: otherErrorShape says what it is instead", async (_name, error, other) => {
    expect(conventionsOf(await loadSpec(description(undefined, error))).otherErrorShape).toBe(other);
  });

  it("the bundled description's errors are its envelope", async () => {
    expect(conventionsOf(await loadSpec(bundledSpecPath)).otherErrorShape).toBeUndefined();
  });

  it("documents the headers an edition declares", async () => {
    const spec = await loadSpec(
      description(undefined, problems, { "X-Spec-Version": { schema: { type: "string" } } }),
    );
    expect([...conventionsOf(spec).documentedHeaders]).toEqual(["x-spec-version"]);
  });

  it.each([
    ["Cloud Infrastructure API", undefined],
    ["Cloud Infrastructure API (release 4.190)", undefined],
    ["DigitalOcean API", '"DigitalOcean API"'],
    ["", '"untitled"'],
  ])("a description titled %j is this API's unless otherApi names it", async (title, other) => {
    expect(conventionsOf(await loadSpec(description(undefined, problems, {}, title))).otherApi).toBe(other);
  });

  it("names each fact once", () => {
    expect(apiFacts.cannotFilterOn("label")).toBe("Cannot filter on label");
    expect(apiFacts.cors.requestHeaders).toContain("x-filter");
  });
});
