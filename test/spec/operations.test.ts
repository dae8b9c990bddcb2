import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/index.ts";
import { headerNotDocumented, responseForStatus } from "../../src/spec/operations.ts";
import type { ApiSpec, OperationInfo } from "../../src/spec/types.ts";
import { dialectFixtures, minimalDocument, writeSpec } from "./helpers.ts";

const specs = new Map<string, ApiSpec>();
for (const { dialect, file } of dialectFixtures) specs.set(dialect, await loadSpec(file));

function operation(dialect: string, operationId: string): OperationInfo {
  const found = specs.get(dialect)?.operations.byId(operationId);
  if (!found) throw new Error(`${operationId} is not indexed in the ${dialect} fixture`);
  return found;
}

// biome-ignore lint/suspicious/noExplicitAny: the cases reach deep into throwaway documents
type Loose = Record<string, any>;

const dialects = dialectFixtures.map(({ dialect }) => dialect);

describe.each(dialects)("operation index of the %s fixture", (dialect) => {
  const swagger = dialect === "swagger-2.0";

  it("indexes every operation, with `<method> <path>` when there is no operationId", () => {
    expect(
      specs
        .get(dialect)
        ?.operations.all()
        .map((info) => info.operationId),
    ).toEqual([
      "listTypes",
      "getType",
      "listInstances",
      "createInstance",
      "getInstancesSummary",
      "getInstance",
      "post /compute/instances/{computeId}/boot",
      "createNodeBalancer",
      "createToken",
    ]);
    expect(specs.get(dialect)?.operations.byId("noSuchOperation")).toBeUndefined();
  });

  it("a paginated list: envelope through allOf, filterable fields with their types and extensions", () => {
    const list = operation(dialect, "listTypes");
    expect(list).toMatchObject({
      method: "get",
      pathTemplate: "/compute/types",
      tags: ["Compute"],
      paginated: true,
    });
    expect(list.summary).toBe("List instance types");
    expect(list.filterableFields).toEqual([
      { name: "class", type: "string", nullable: false, extension: "x-compute-filterable" },
      { name: "vcpus", type: "integer", nullable: false, extension: "x-compute-filterable" },
      { name: "memory", type: "number", nullable: false, extension: "x-compute-filterable" },
      { name: "tags", type: "array", itemType: "string", nullable: false, extension: "x-compute-filterable" },
      { name: "successor", type: "string", nullable: true, extension: "x-vendor-filterable" },
    ]);
    expect(operation(dialect, "listInstances").filterableFields.map((field) => field.name)).toEqual([
      "id",
      "label",
    ]);
  });

  it.each(["getType", "createInstance", "getInstancesSummary", "createToken"])(
    "%s is not a paginated list",
    (id) => {
      expect(operation(dialect, id)).toMatchObject({ paginated: false, filterableFields: [] });
    },
  );

  it.each([
    ["listTypes", { public: true, scopes: [], schemes: [] }],
    [
      "listInstances",
      { public: false, scopes: ["computes:read_only"], schemes: ["oauth", "personalAccessToken"] },
    ],
    ["createInstance", { public: false, scopes: ["computes:read_write"], schemes: ["oauth"] }],
    // No security of its own: the document's applies (a bearer token or OAuth without particular scopes).
    ["getInstancesSummary", { public: false, scopes: [], schemes: ["personalAccessToken", "oauth"] }],
  ])("security of %s", (id, security) => {
    expect(operation(dialect, id).security).toEqual(security);
  });

  it("merges path-level parameters and follows parameter $refs", () => {
    expect(operation(dialect, "getType").parameters).toEqual([
      { name: "typeId", in: "path", required: true, schema: { type: "string" }, deprecated: false },
    ]);
    expect(operation(dialect, "getInstance").parameters).toEqual([
      { name: "computeId", in: "path", required: true, schema: { type: "integer" }, deprecated: false },
    ]);
    expect(operation(dialect, "listTypes").parameters).toEqual([
      {
        name: "page",
        in: "query",
        required: false,
        schema: { type: "integer", minimum: 1 },
        deprecated: false,
      },
    ]);
  });

  it("request bodies: content types and whether required", () => {
    expect(operation(dialect, "createInstance").requestBody).toEqual({
      required: true,
      contentTypes: ["application/json"],
    });
    expect(operation(dialect, "createToken").requestBody).toEqual({
      required: true,
      contentTypes: ["application/x-www-form-urlencoded"],
    });
    expect(operation(dialect, "getInstance").requestBody).toBeUndefined();
  });

  it("responses: statuses as written, content types, lower-cased headers, whether a schema exists", () => {
    const responses = operation(dialect, "listTypes").responses;
    expect(responses.map((response) => response.status)).toEqual(["200", "default"]);
    expect(responses[0]).toEqual({
      status: "200",
      description: "A page of types.",
      contentTypes: ["application/json"],
      // Swagger 2.0 headers cannot be required.
      headers: [{ name: "x-ratelimit-limit", required: !swagger, schema: { type: "integer" } }],
      hasSchema: true,
    });
    expect(operation(dialect, "getType").responses.map((response) => response.status)).toEqual(
      swagger ? ["200", "404"] : ["200", "4XX"],
    );
  });

  it("the server URL override of the OAuth endpoint, deprecated flags", () => {
    expect(operation(dialect, "createToken").serverUrl).toBe(swagger ? undefined : "{auth_url}");
    expect(operation(dialect, "getInstance").serverUrl).toBeUndefined();
    expect(operation(dialect, "post /compute/instances/{computeId}/boot").deprecated).toBe(true);
    expect(operation(dialect, "getInstance").deprecated).toBe(false);
  });
});

describe("operation index: rules on small documents", () => {
  it.each([
    ["security: [] on the operation", [], undefined, { public: true, scopes: [] }],
    [
      "an empty requirement among others (optional auth)",
      [{}, { oauth: ["a:read_only"] }],
      undefined,
      { public: true, scopes: [] },
    ],
    ["no security anywhere", undefined, undefined, { public: true, scopes: [] }],
    [
      "the document's security as fallback",
      undefined,
      [{ oauth: ["a:read_write"] }],
      { public: false, scopes: ["a:read_write"] },
    ],
    [
      "the operation's security wins",
      [{ oauth: ["a:read_only"] }],
      [{ oauth: ["a:read_write"] }],
      { public: false, scopes: ["a:read_only"] },
    ],
    [
      "scopes are any-of across requirements",
      [{ oauth: ["a:read_only"] }, { oauth: ["a:read_write"] }],
      undefined,
      { public: false, scopes: ["a:read_only", "a:read_write"] },
    ],
    [
      "scopes of non-OAuth schemes are not OAuth scopes",
      [{ key: ["role"] }],
      undefined,
      { public: false, scopes: [] },
    ],
  ])("%s", async (_name, operationSecurity, documentSecurity, expected) => {
    const document = minimalDocument("3.1.0") as Loose;
    document.components.securitySchemes = {
      oauth: { type: "oauth2", flows: { implicit: { authorizationUrl: "https://x.test/a", scopes: {} } } },
      key: { type: "apiKey", in: "header", name: "X-Key" },
    };
    if (operationSecurity !== undefined) document.paths["/things/{thingId}"].get.security = operationSecurity;
    if (documentSecurity !== undefined) document.security = documentSecurity;
    const spec = await loadSpec(writeSpec(document));
    expect(spec.operations.byId("getThing")?.security).toMatchObject(expected);
  });

  it("an operation-level parameter replaces the path-level one of the same name and location", async () => {
    const document = minimalDocument() as Loose;
    const item = document.paths["/things/{thingId}"];
    item.parameters = [
      { name: "verbose", in: "query", schema: { type: "boolean" } },
      { name: "verbose", in: "header", schema: { type: "string" } },
    ];
    item.get.parameters.push({
      name: "verbose",
      in: "query",
      required: true,
      deprecated: true,
      schema: { type: "integer" },
    });
    const spec = await loadSpec(writeSpec(document));
    expect(spec.operations.byId("getThing")?.parameters).toEqual([
      { name: "verbose", in: "query", required: true, schema: { type: "integer" }, deprecated: true },
      { name: "verbose", in: "header", required: false, schema: { type: "string" }, deprecated: false },
      { name: "thingId", in: "path", required: true, schema: { type: "integer" }, deprecated: false },
    ]);
  });

  it("parameter schemas are normalised (3.0 nullable becomes a type union)", async () => {
    const document = minimalDocument() as Loose;
    document.paths["/things/{thingId}"].get.parameters.push({
      name: "since",
      in: "query",
      schema: { type: "string", nullable: true, example: "x" },
    });
    const spec = await loadSpec(writeSpec(document));
    expect(spec.operations.byId("getThing")?.parameters[1]?.schema).toEqual({ type: ["string", "null"] });
  });

  it("a list whose items come only from the envelope has no filterable fields, and a non-envelope is no list", async () => {
    const document = minimalDocument() as Loose;
    document.components.schemas.Thing = {
      type: "object",
      properties: { data: { type: "array", items: {} }, page: {}, pages: {}, results: {} },
    };
    document.paths["/plain"] = {
      get: {
        operationId: "plain",
        responses: {
          "200": {
            description: "no envelope",
            content: {
              "application/json": { schema: { type: "object", properties: { data: { type: "array" } } } },
            },
          },
        },
      },
    };
    const spec = await loadSpec(writeSpec(document));
    expect(spec.operations.byId("getThing")).toMatchObject({ paginated: true, filterableFields: [] });
    expect(spec.operations.byId("plain")).toMatchObject({ paginated: false });
  });
});

describe("the documented answer of a status, and whether it documents a header", () => {
  const response = (status: string, headers: string[]) => ({
    status,
    description: "",
    headers: headers.map((name) => ({ name, required: false, schema: undefined, deprecated: false })),
    content: [],
  });
  const operation = {
    operationId: "getThings",
    responses: [
      response("200", ["x-spec-version"]),
      response("4XX", []),
      response("default", ["x-spec-version"]),
    ],
  } as unknown as OperationInfo;

  it.each([
    [200, "200", undefined],
    [404, "4XX", "the 4XX answer of getThings documents no X-Spec-Version header"],
    [503, "default", undefined],
  ])("status %i falls under %s", (status, documented, reason) => {
    expect(responseForStatus(operation, status)?.status).toBe(documented);
    expect(headerNotDocumented(operation, status, "X-Spec-Version")).toBe(reason);
  });

  it("an operation without that answer documents nothing on it", () => {
    const only200 = {
      operationId: "getThings",
      responses: [response("200", [])],
    } as unknown as OperationInfo;
    expect(headerNotDocumented(only200, 404, "X-Spec-Version")).toBe("getThings documents no 404 answer");
  });
});
