import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SpecInvalidError,
  SpecLoadError,
  SpecUnsupportedError,
  ToolkitError,
} from "../../src/core/errors.ts";
import { loadSpec } from "../../src/spec/index.ts";
import { dialectFixtures, fixture, minimalDocument, writeSpec } from "./helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: the cases reach deep into throwaway documents to break them
type Doc = Record<string, any>;

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the load to fail, and it succeeded");
}

describe("loadSpec: dialects", () => {
  it.each(dialectFixtures)("loads and indexes the $dialect fixture", async ({ dialect, file }) => {
    const spec = await loadSpec(file);
    expect(spec.dialect).toBe(dialect);
    expect(spec.source).toBe(file);
    expect(spec.title).toBe("Mini Cloud");
    expect(spec.version).toBe("1.2.3");
    expect(spec.operations.all()).toHaveLength(9);
    expect(spec.operations.byId("createInstance")?.method).toBe("post");
    expect(spec.validators.compiledCount()).toBe(0); // nothing compiles until asked
  });

  it.each([
    ["openapi-3.0", [{ url: "https://{host}/v4", variables: { host: "api.example.test" } }]],
    ["openapi-3.1", [{ url: "https://{host}/v4", variables: { host: "api.example.test" } }]],
    ["swagger-2.0", [{ url: "https://api.example.test/v4", variables: {} }]],
  ] as const)("reads the servers of the %s fixture", async (dialect, servers) => {
    const file = dialectFixtures.find((entry) => entry.dialect === dialect)?.file ?? "";
    expect((await loadSpec(file)).servers).toEqual(servers);
  });

  it("loads the same description from JSON and from YAML alike", async () => {
    const document = minimalDocument("3.1.0");
    const fromJson = await loadSpec(writeSpec(document, "spec.json"));
    const fromYaml = await loadSpec(writeSpec(document, "spec.yaml"));
    expect(fromJson.document).toEqual(document);
    expect(fromYaml.document).toEqual(document);
    expect(fromJson.operations.all().map((operation) => operation.operationId)).toEqual(["getThing"]);
  });

  it("loads circular references without hanging, and keeps their $refs", { timeout: 10_000 }, async () => {
    const spec = await loadSpec(fixture("circular-3.0.yaml"));
    expect(spec.operations.all().map((operation) => operation.operationId)).toEqual([
      "listTrees",
      "getPerson",
    ]);
    expect(spec.document.components).toMatchObject({
      schemas: { Tree: { properties: { children: { items: { $ref: "#/components/schemas/Tree" } } } } },
    });
  });

  it("bundles $refs to other files into the document", async () => {
    const spec = await loadSpec(fixture("external-refs/main.yaml"));
    const text = JSON.stringify(spec.document);
    expect(text).not.toContain("schemas.yaml");
    const validate = spec.validators.response("listThings", 200);
    expect(validate?.([{ id: 1, size: "small" }])).toEqual({ valid: true });
    expect(validate?.([{ id: 1, size: "huge" }])).toMatchObject({
      valid: false,
      issues: [{ field: "[0].size" }],
    });
  });
});

describe("loadSpec: descriptions that cannot be read", () => {
  it("a missing file is a SpecLoadError naming the source", async () => {
    const error = await rejection(loadSpec("/nonexistent/dir/api.yaml"));
    expect(error).toBeInstanceOf(SpecLoadError);
    expect((error as SpecLoadError).code).toBe("SPEC_LOAD");
    expect((error as SpecLoadError).source).toBe("/nonexistent/dir/api.yaml");
    expect((error as Error).message).toContain("/nonexistent/dir/api.yaml");
  });

  it.each([
    ["unbalanced YAML", "openapi: 3.0.3\ninfo: [title, version\n"],
    ["a YAML scalar, not an object", "just some words\n"],
    ["an empty file", ""],
  ])("%s is a SpecLoadError", async (_name, text) => {
    const path = writeSpec({}, "broken.yaml");
    writeFileSync(path, text);
    const error = await rejection(loadSpec(path));
    expect(ToolkitError.is(error) && error.code).toBe("SPEC_LOAD");
  });
});

describe("loadSpec: versions", () => {
  it.each([
    ["OpenAPI 4", { openapi: "4.0.0" }],
    ["OpenAPI 3.2", { openapi: "3.2.0" }],
    ["Swagger 1.2", { swagger: "1.2" }],
  ])("%s is a SpecUnsupportedError", async (_name, version) => {
    const { openapi: _openapi, ...rest } = minimalDocument();
    const error = await rejection(loadSpec(writeSpec({ ...version, ...rest })));
    expect(error).toBeInstanceOf(SpecUnsupportedError);
    expect((error as Error).message).toMatch(/not supported/);
  });

  it.each([
    ["a number as the version", { openapi: 3.1 }, "/openapi"],
    ["no version field", {}, ""],
  ])("%s is a SpecInvalidError", async (_name, version, pointer) => {
    const { openapi: _openapi, ...rest } = minimalDocument();
    const error = await rejection(loadSpec(writeSpec({ ...version, ...rest })));
    expect(error).toBeInstanceOf(SpecInvalidError);
    expect((error as SpecInvalidError).problems[0]?.pointer).toBe(pointer);
  });
});

describe("loadSpec: invalid descriptions name the pointer where they fail", () => {
  const op = "/paths/~1things~1{thingId}/get";
  const cases: [string, string, (doc: Doc) => void, string, RegExp][] = [
    [
      "an operation without responses",
      "3.0.3",
      (doc) => delete doc.paths["/things/{thingId}"].get.responses,
      op,
      /responses/,
    ],
    [
      "a response under a key that is no status",
      "3.1.0",
      (doc) => {
        doc.paths["/things/{thingId}"].get.responses.ok = { description: "fine" };
      },
      `${op}/responses`,
      /unexpected property `ok`/,
    ],
    ["info without a version", "3.0.3", (doc) => delete doc.info.version, "/info", /version/],
    [
      "a misspelt operation field",
      "3.0.3",
      (doc) => {
        doc.paths["/things/{thingId}"].get.summry = "typo";
      },
      op,
      /summry/,
    ],
    [
      "a response without a description",
      "3.1.0",
      (doc) => delete doc.paths["/things/{thingId}"].get.responses["200"].description,
      `${op}/responses/200`,
      /description/,
    ],
    [
      "a parameter in an unknown location",
      "3.0.3",
      (doc) => {
        doc.paths["/things/{thingId}"].get.parameters.push({
          name: "q",
          in: "body",
          schema: { type: "string" },
        });
      },
      `${op}/parameters/1/in`,
      /must be one of/,
    ],
    [
      "a $ref to nothing",
      "3.0.3",
      (doc) => {
        doc.paths["/things/{thingId}"].get.responses["200"].content["application/json"].schema.$ref =
          "#/components/schemas/Nothing";
      },
      `${op}/responses/200/content/application~1json/schema`,
      /does not resolve/,
    ],
    [
      "a circular chain of $refs",
      "3.1.0",
      (doc) => {
        doc.components.schemas.A = { $ref: "#/components/schemas/B" };
        doc.components.schemas.B = { $ref: "#/components/schemas/A" };
      },
      "/components/schemas/A",
      /circular/,
    ],
    [
      "a duplicate operationId",
      "3.0.3",
      (doc) => {
        doc.paths["/others"] = {
          get: { operationId: "getThing", responses: { "204": { description: "none" } } },
        };
      },
      "/paths/~1others/get/operationId",
      /already used/,
    ],
    [
      "a path parameter that is not declared",
      "3.0.3",
      (doc) => {
        doc.paths["/things/{thingId}"].get.parameters = [];
      },
      op,
      /thingId.*not declared/,
    ],
    [
      "a declared path parameter missing from the path",
      "3.1.0",
      (doc) => {
        doc.paths["/things/{thingId}"].get.parameters.push({
          name: "other",
          in: "path",
          required: true,
          schema: { type: "string" },
        });
      },
      `${op}/parameters/1`,
      /not in the path/,
    ],
    [
      "a security requirement naming no declared scheme",
      "3.0.3",
      (doc) => {
        doc.security = [{ oauth: [] }];
      },
      "/security/0/oauth",
      /not declared/,
    ],
  ];

  it.each(cases)("%s (%s)", async (_name, version, mutate, pointer, message) => {
    const document = minimalDocument(version);
    mutate(document);
    const path = writeSpec(document);
    const error = await rejection(loadSpec(path));
    expect(error).toBeInstanceOf(SpecInvalidError);
    const problems = (error as SpecInvalidError).problems;
    expect(problems[0]).toEqual({ pointer, message: expect.stringMatching(message) });
    expect((error as Error).message).toContain(path);
  });

  it("with validate: false, loads what validation would refuse", async () => {
    const document = minimalDocument();
    document.paths = {
      ...(document.paths as Doc),
      "/others": { get: { operationId: "getThing", responses: {} } },
    };
    const path = writeSpec(document);
    await expect(loadSpec(path)).rejects.toBeInstanceOf(SpecInvalidError);
    const spec = await loadSpec(path, { validate: false });
    expect(spec.operations.all()).toHaveLength(2);
  });
});

describe("loadSpec over http (loopback)", () => {
  let server: Server;
  let base = "";
  const files: Record<string, string> = {
    "/mini-cloud.yaml": readFileSync(fixture("mini-cloud-3.1.yaml"), "utf8"),
    "/mini-cloud.json": readFileSync(fixture("mini-cloud-2.0.json"), "utf8"),
    "/api/main.yaml": readFileSync(fixture("external-refs/main.yaml"), "utf8"),
    "/api/schemas.yaml": readFileSync(fixture("external-refs/schemas.yaml"), "utf8"),
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const body = files[request.url ?? ""];
      if (body === undefined) response.writeHead(404).end("not found");
      else response.writeHead(200, { "content-type": "text/plain" }).end(body);
    });
    await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it.each([
    ["/mini-cloud.yaml", "openapi-3.1"],
    ["/mini-cloud.json", "swagger-2.0"],
  ])("loads %s", async (path, dialect) => {
    const spec = await loadSpec(`${base}${path}`);
    expect(spec.dialect).toBe(dialect);
    expect(spec.operations.all()).toHaveLength(9);
  });

  it("follows relative external $refs over http", async () => {
    const spec = await loadSpec(`${base}/api/main.yaml`);
    expect(spec.validators.response("listThings", 200)?.([{ id: 2, size: "large" }])).toEqual({
      valid: true,
    });
  });

  it("a 404 is a SpecLoadError", async () => {
    const error = await rejection(loadSpec(`${base}/nothing.yaml`));
    expect(error).toBeInstanceOf(SpecLoadError);
    expect((error as Error).message).toMatch(/404/);
  });
});
