import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/index.ts";
import type { ApiSpec, ValidationOutcome, Validator } from "../../src/spec/types.ts";
import { dialectFixtures, fixture, minimalDocument, writeSpec } from "./helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: the cases reach deep into throwaway documents and bodies
type Loose = Record<string, any>;

const specs = await Promise.all(
  dialectFixtures.map(async ({ dialect, file }) => [dialect, await loadSpec(file)] as const),
);

function defined(validator: Validator | undefined): Validator {
  if (!validator) throw new Error("expected a validator");
  return validator;
}

/** `[keyword, field]` of each issue, for compact expectations. */
function issuesOf(outcome: ValidationOutcome): [string, string][] {
  return outcome.valid ? [] : outcome.issues.map((issue) => [issue.keyword, issue.field]);
}

const instance = () => ({
  id: 1,
  label: "web-1",
  region: "us-east",
  type: "g6-standard-2",
  image: null,
  status: "running",
  created: "2024-05-01T12:00:00Z",
});

const nodeBalancer = () => ({
  id: 9,
  region: "us-east",
  label: "balancer_9",
  client_conn_throttle: 0,
  configs: [{ port: 80, protocol: "http" }, { port: 443 }],
});

const computeType = () => ({
  id: "g6-standard-2",
  class: "standard",
  vcpus: 2,
  memory: 4096,
  tags: ["a"],
  successor: null,
  price: { hourly: 0.03 },
});

describe.each(specs)("validators of the %s fixture", (dialect, spec) => {
  const response = (operationId: string, status = 200) =>
    defined(spec.validators.response(operationId, status));

  it.each([
    ["getInstance", instance()],
    ["createNodeBalancer", nodeBalancer()],
    ["getType", computeType()],
    [
      "listTypes",
      {
        data: [computeType(), { ...computeType(), successor: "g7-standard-2" }],
        page: 1,
        pages: 1,
        results: 2,
      },
    ],
  ])("accepts a valid %s response", (operationId, body) => {
    expect(response(operationId)(body)).toEqual({ valid: true });
  });

  it.each([
    [
      "a wrong type",
      "getInstance",
      (body: Loose) => {
        body.label = 5;
      },
      [["type", "label"]],
    ],
    [
      "a missing required field",
      "getInstance",
      (body: Loose) => {
        delete body.region;
      },
      [["required", "region"]],
    ],
    [
      "an enum violation",
      "getInstance",
      (body: Loose) => {
        body.status = "exploded";
      },
      [["enum", "status"]],
    ],
    [
      "a length bound",
      "getInstance",
      (body: Loose) => {
        body.label = "ab";
      },
      [["minLength", "label"]],
    ],
    [
      "a format",
      "getInstance",
      (body: Loose) => {
        body.created = "yesterday";
      },
      [["format", "created"]],
    ],
    [
      "null where not nullable",
      "getInstance",
      (body: Loose) => {
        body.label = null;
      },
      [["type", "label"]],
    ],
    [
      "a bound in a list item",
      "createNodeBalancer",
      (body: Loose) => {
        body.configs[0].port = 0;
      },
      [["minimum", "configs[0].port"]],
    ],
    [
      "an extra property",
      "createNodeBalancer",
      (body: Loose) => {
        body.configs[1].weight = 5;
      },
      [["additionalProperties", "configs[1].weight"]],
    ],
    [
      "a missing property in a list item",
      "createNodeBalancer",
      (body: Loose) => {
        delete body.configs[1].port;
      },
      [["required", "configs[1].port"]],
    ],
    [
      "a maximum",
      "createNodeBalancer",
      (body: Loose) => {
        body.client_conn_throttle = 21;
      },
      [["maximum", "client_conn_throttle"]],
    ],
    [
      "a pattern",
      "createNodeBalancer",
      (body: Loose) => {
        body.label = "no spaces allowed";
      },
      [["pattern", "label"]],
    ],
    // Draft-4 boolean `exclusiveMinimum: true` with `minimum: 0` in 3.0 and 2.0, numeric in 3.1: 0 is out either way.
    [
      "an exclusive minimum",
      "getType",
      (body: Loose) => {
        body.price.hourly = 0;
      },
      [["exclusiveMinimum", "price.hourly"]],
    ],
    [
      "an enum in a filterable field",
      "getType",
      (body: Loose) => {
        body.class = "tiny";
      },
      [["enum", "class"]],
    ],
    [
      "several problems at once",
      "getInstance",
      (body: Loose) => {
        body.label = 5;
        body.status = "exploded";
        delete body.region;
      },
      [
        ["required", "region"],
        ["type", "label"],
        ["enum", "status"],
      ],
    ],
  ] as const)("rejects %s", (_name, operationId, mutate, expected) => {
    const body =
      operationId === "getInstance" ? instance() : operationId === "getType" ? computeType() : nodeBalancer();
    mutate(body as Loose);
    expect(issuesOf(response(operationId)(body))).toEqual(expected);
  });

  it("reports the issue's pointer and message as ajv gives them", () => {
    const body: Loose = nodeBalancer();
    delete body.configs[1].port;
    const outcome = response("createNodeBalancer")(body);
    expect(outcome).toEqual({
      valid: false,
      issues: [
        {
          instancePath: "/configs/1",
          field: "configs[1].port",
          keyword: "required",
          message: "must have required property 'port'",
          params: { missingProperty: "port" },
        },
      ],
    });
  });

  it("nullable fields accept null in every dialect's own way", () => {
    expect(response("getInstance")({ ...instance(), image: null })).toEqual({ valid: true });
    expect(response("getType")({ ...computeType(), successor: null })).toEqual({ valid: true });
    expect(issuesOf(response("getType")({ ...computeType(), vcpus: null }))).toEqual([["type", "vcpus"]]);
  });

  it("tolerates an unknown format and reports it", () => {
    expect(spec.validators.unknownFormats()).toEqual(["flavour-id"]);
    expect(response("getType")({ ...computeType(), id: "anything at all" })).toEqual({ valid: true });
  });

  it("in a response, readOnly fields are required; in a request, they are not", () => {
    const { id: _id, status: _status, created: _created, ...writable } = instance();
    expect(issuesOf(response("getInstance")(writable))).toEqual([
      ["required", "id"],
      ["required", "status"],
    ]);
    const request = defined(spec.validators.request("createInstance"));
    expect(request({ ...writable, root_pass: "s3cure-Pass" })).toEqual({ valid: true });
    expect(issuesOf(request({ ...writable, root_pass: "s3cure-Pass", label: 7 }))).toEqual([
      ["type", "label"],
    ]);
  });

  it.skipIf(dialect === "swagger-2.0")(
    "in a request, writeOnly fields are required; in a response, they are not",
    () => {
      const { id: _id, status: _status, created: _created, ...writable } = instance();
      expect(issuesOf(defined(spec.validators.request("createInstance"))(writable))).toEqual([
        ["required", "root_pass"],
      ]);
      expect(response("getInstance")(instance())).toEqual({ valid: true });
    },
  );

  it("finds the response by exact status, then range, then default", () => {
    const error = { errors: [{ reason: "Not found" }] };
    const byStatus = spec.validators.response("getType", 404);
    expect(byStatus?.(error)).toEqual({ valid: true });
    expect(issuesOf(defined(byStatus)({ errors: [{ field: "label" }] }))).toEqual([
      ["required", "errors[0].reason"],
    ]);
    // 3.x declares 4XX for getType, Swagger 2.0 only 404.
    expect(spec.validators.response("getType", 418) === undefined).toBe(dialect === "swagger-2.0");
    expect(spec.validators.response("listTypes", 503)?.(error)).toEqual({ valid: true });
    expect(spec.validators.response("getInstancesSummary", 500)).toBeUndefined();
    expect(spec.validators.response("noSuchOperation", 200)).toBeUndefined();
    // A response without a schema has no validator.
    expect(spec.validators.response("getInstancesSummary", 200)).toBeDefined();
  });

  it("answers a repeated lookup as the first time, and each status and media type on its own", () => {
    const asks: [string, number, string | undefined][] = [
      ["getType", 404, undefined],
      ["getType", 418, undefined],
      ["getInstance", 200, "text/html"],
      ["getInstance", 200, "application/json"],
      ["getInstancesSummary", 500, undefined],
    ];
    const first = asks.map(([id, status, type]) => spec.validators.response(id, status, type));
    const again = asks.map(([id, status, type]) => spec.validators.response(id, status, type));
    expect(again).toEqual(first);
    for (const [index, validator] of again.entries()) expect(validator).toBe(first[index]);
    expect(first[2]).toBeUndefined();
    expect(first[3]).toBeDefined();
    expect(first[4]).toBeUndefined();
  });

  it("matches the media type, ignoring parameters and case", () => {
    expect(spec.validators.response("getInstance", 200, "Application/JSON; charset=utf-8")).toBeDefined();
    expect(spec.validators.response("getInstance", 200, "text/html")).toBeUndefined();
    expect(spec.validators.request("createInstance", "application/json")).toBeDefined();
    expect(spec.validators.request("getInstance")).toBeUndefined();
  });

  it("compiles lazily, once per schema: responses shared through a $ref compile once", () => {
    const before = spec.validators.compiledCount();
    const first = spec.validators.response("createNodeBalancer", 400);
    const again = spec.validators.response("createNodeBalancer", 400);
    const elsewhere = spec.validators.response("createInstance", 400);
    expect(again).toBe(first);
    expect(elsewhere).toBe(first);
    expect(spec.validators.compiledCount()).toBeLessThanOrEqual(before + 1);
    expect(spec.validators.compiledCount()).toBeGreaterThan(0);
  });

  it("validates a parameter's value by its schema (through a $ref); Swagger 2.0 keeps none to compile", () => {
    const page = spec.validators.parameter("listTypes", "query", "page");
    if (dialect === "swagger-2.0") {
      expect(page).toBeUndefined();
      return;
    }
    expect([1, 0, "1"].map((value) => defined(page)(value).valid)).toEqual([true, false, false]);
    expect(issuesOf(defined(page)(0))).toEqual([["minimum", ""]]);
    expect(spec.validators.parameter("listTypes", "query", "no-such")).toBeUndefined();
    expect(spec.validators.parameter("listTypes", "header", "page")).toBeUndefined();
  });

  it("never throws, whatever the value", () => {
    const validate = response("getInstance");
    const cyclic: Loose = { ...instance() };
    cyclic.self = cyclic;
    for (const value of [undefined, null, 42, "text", [], cyclic, new Map()]) {
      expect(() => validate(value)).not.toThrow();
    }
    expect(validate(undefined).valid).toBe(false);
  });
});

describe("validators: rules on small documents", () => {
  /** A validator for the `Thing` response schema of a minimal document, in a given OpenAPI version. */
  async function thingValidator(
    version: string,
    thing: unknown,
  ): Promise<{ spec: ApiSpec; validate: Validator }> {
    const document = minimalDocument(version) as Loose;
    document.components.schemas.Thing = thing;
    const spec = await loadSpec(writeSpec(document));
    return { spec, validate: defined(spec.validators.response("getThing", 200)) };
  }

  it.each([
    // `nullable` is an OpenAPI 3.0 keyword; in 3.1 it means nothing, so null stays out.
    ["3.0.3", { type: "string", nullable: true }, null, true],
    ["3.1.0", { type: "string", nullable: true }, null, false],
    ["3.1.0", { type: ["string", "null"] }, null, true],
    ["3.0.3", { type: "string", enum: ["a", "b"], nullable: true }, null, true],
    ["3.0.3", { type: "string", enum: ["a", "b"], nullable: true }, "c", false],
    ["3.0.3", { nullable: true, allOf: [{ type: "object", required: ["id"] }] }, null, true],
    ["3.0.3", { nullable: true, allOf: [{ type: "object", required: ["id"] }] }, {}, false],
    ["3.0.3", { type: "integer", nullable: false }, null, false],
    ["3.0.3", { type: "number", maximum: 10, exclusiveMaximum: true }, 10, false],
    ["3.0.3", { type: "number", maximum: 10, exclusiveMaximum: false }, 10, true],
    ["3.1.0", { type: "number", exclusiveMaximum: 10 }, 10, false],
  ])("OpenAPI %s: %j with %j valid=%s", async (version, thing, value, valid) => {
    const { validate } = await thingValidator(version, thing);
    expect(validate(value).valid).toBe(valid);
  });

  it("shares compiled validators between loads of the same content only when asked, never across contents", async () => {
    const file = (maxLength: number) => {
      const document = minimalDocument("3.1.0") as Loose;
      document.components.schemas.Thing = { type: "string", maxLength };
      return writeSpec(document);
    };
    const [first, again, other] = [file(3), file(3), file(5)];
    const shared = async (path: string) =>
      defined((await loadSpec(path, { shareCompiled: true })).validators.response("getThing", 200));
    const fresh = async (path: string) =>
      defined((await loadSpec(path)).validators.response("getThing", 200));
    // Two files with the same content: one compiled validator.
    expect(await shared(first)).toBe(await shared(again));
    // Another content, or a load that does not share: its own, judging by its own schema.
    const otherValidator = await shared(other);
    expect(otherValidator).not.toBe(await shared(first));
    expect(otherValidator("abcd").valid).toBe(true);
    expect((await shared(first))("abcd").valid).toBe(false);
    expect(await fresh(first)).not.toBe(await shared(first));
  });

  it("a schema ajv cannot compile gives a validator that reports it instead of throwing", async () => {
    const { validate } = await thingValidator("3.1.0", { type: "string", pattern: "(" });
    const outcome = validate("x");
    expect(outcome.valid).toBe(false);
    expect(outcome.valid ? undefined : outcome.issues).toEqual([
      {
        instancePath: "",
        field: "",
        keyword: "schema",
        message: expect.stringMatching(
          /schema at \/paths\/.*\/schema cannot be compiled: Invalid regular expression/,
        ),
        params: { pointer: "/paths/~1things~1{thingId}/get/responses/200/content/application~1json/schema" },
      },
    ]);
  });

  it("a value that fits no branch of an anyOf is reported by the branches' errors", async () => {
    const { validate } = await thingValidator("3.1.0", { anyOf: [{ type: "string" }, { type: "integer" }] });
    expect(issuesOf(validate(true))).toEqual([
      ["type", ""],
      ["type", ""],
    ]);
    const { validate: exclusive } = await thingValidator("3.1.0", {
      oneOf: [{ type: "number" }, { type: "integer" }],
    });
    // Both branches pass: only the oneOf error can say what is wrong, so it stays.
    expect(issuesOf(exclusive(3))).toEqual([["oneOf", ""]]);
  });

  it("a property named like a keyword is a property", async () => {
    const { validate } = await thingValidator("3.0.3", {
      type: "object",
      required: ["nullable", "example"],
      properties: { nullable: { type: "boolean" }, example: { type: "string" }, format: { type: "string" } },
    });
    expect(validate({ nullable: true, example: "x", format: "y" })).toEqual({ valid: true });
    expect(issuesOf(validate({ nullable: "yes", example: "x" }))).toEqual([["type", "nullable"]]);
  });

  it("readOnly through a $ref and inside allOf is honoured in requests", async () => {
    const document = minimalDocument("3.1.0") as Loose;
    document.components.schemas = {
      Id: { type: "integer", readOnly: true },
      Base: { type: "object", properties: { id: { $ref: "#/components/schemas/Id" } } },
      Thing: { allOf: [{ $ref: "#/components/schemas/Base" }, { required: ["id", "name"] }] },
    };
    document.paths["/things/{thingId}"].put = {
      operationId: "putThing",
      parameters: [{ name: "thingId", in: "path", required: true, schema: { type: "integer" } }],
      requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } },
      responses: { "200": { description: "ok" } },
    };
    const spec = await loadSpec(writeSpec(document));
    expect(issuesOf(defined(spec.validators.request("putThing"))({}))).toEqual([["required", "name"]]);
    expect(issuesOf(defined(spec.validators.response("getThing", 200))({}))).toEqual([
      ["required", "id"],
      ["required", "name"],
    ]);
  });

  it("does not modify the spec's document while normalising for ajv", async () => {
    const { spec, validate } = await thingValidator("3.0.3", {
      type: "string",
      nullable: true,
      example: "x",
    });
    validate(null);
    expect((spec.document.components as Loose).schemas.Thing).toEqual({
      type: "string",
      nullable: true,
      example: "x",
    });
  });
});

describe("validators on circular references", { timeout: 10_000 }, () => {
  it("validate recursive bodies to any depth and name deep fields", async () => {
    const spec = await loadSpec(fixture("circular-3.0.yaml"));
    const trees = defined(spec.validators.response("listTrees", 200));
    const deep = { name: "a", children: [{ name: "b", children: [{ name: "c", children: [] }] }] };
    expect(trees([deep])).toEqual({ valid: true });
    deep.children[0]!.children[0]!.name = 5 as never;
    expect(issuesOf(trees([deep]))).toEqual([["type", "[0].children[0].children[0].name"]]);

    const person = defined(spec.validators.response("getPerson", 200));
    expect(
      person({
        name: "Ann",
        pets: [
          { name: "Rex", owner: null },
          { name: "Tom", owner: { name: "Bob" } },
        ],
      }),
    ).toEqual({
      valid: true,
    });
    expect(issuesOf(person({ name: "Ann", pets: [{ name: "Rex", owner: { pets: [] } }] }))).toEqual([
      ["required", "pets[0].owner.name"],
    ]);
  });
});
