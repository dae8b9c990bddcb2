/**
 * The project's own description through the loader: it loads and validates, every operation is indexed, and
 * each `example` it gives (of request and response bodies, and of schemas) passes the compiled validators.
 * An example that fails here is a defect of the example or of the validators: the report names both.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createSchemaCompiler } from "../../src/spec/compile.ts";
import { loadSpec } from "../../src/spec/index.ts";
import { subschemas } from "../../src/spec/normalize-schema.ts";
import { childPointer, deref, isObject } from "../../src/spec/pointer.ts";
import type { ValidationOutcome } from "../../src/spec/types.ts";

const specPath = resolve(import.meta.dirname, "../../specs/cloud-api-v4.yaml");
const spec = await loadSpec(specPath);
const document = spec.document;
const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

interface BodyExample {
  readonly where: string;
  readonly operationId: string;
  /** `request`, or the response status as written. */
  readonly status: string;
  readonly mediaType: string;
  readonly value: unknown;
}

/** The `example` and each `examples` entry of a media type object, followed through `$ref`s. */
function mediaExamples(media: unknown, where: string): { where: string; value: unknown }[] {
  const found: { where: string; value: unknown }[] = [];
  if (!isObject(media)) return found;
  if (media.example !== undefined) found.push({ where: `${where}/example`, value: media.example });
  if (isObject(media.examples)) {
    for (const [name, written] of Object.entries(media.examples)) {
      const example = deref(document, written);
      if (isObject(example) && example.value !== undefined) {
        found.push({ where: `${where}/examples/${name}`, value: example.value });
      }
    }
  }
  return found;
}

function bodyExamples(): BodyExample[] {
  const found: BodyExample[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, unknown>)) {
    const pathItem = deref(document, item);
    if (!isObject(pathItem)) continue;
    for (const method of methods) {
      const operation = pathItem[method];
      if (!isObject(operation) || typeof operation.operationId !== "string") continue;
      const at = childPointer("/paths", path, method);
      const requestBody = deref(document, operation.requestBody);
      if (isObject(requestBody) && isObject(requestBody.content)) {
        for (const [mediaType, media] of Object.entries(requestBody.content)) {
          for (const example of mediaExamples(media, childPointer(at, "requestBody", "content", mediaType))) {
            found.push({ ...example, operationId: operation.operationId, status: "request", mediaType });
          }
        }
      }
      for (const [status, written] of Object.entries(
        isObject(operation.responses) ? operation.responses : {},
      )) {
        const response = deref(document, written);
        if (!isObject(response) || !isObject(response.content)) continue;
        for (const [mediaType, media] of Object.entries(response.content)) {
          for (const example of mediaExamples(
            media,
            childPointer(at, "responses", status, "content", mediaType),
          )) {
            found.push({ ...example, operationId: operation.operationId, status, mediaType });
          }
        }
      }
    }
  }
  return found;
}

/** A concrete status that the lookup resolves to the response written as `status` (`4XX`, `default`). */
function concreteStatus(operationId: string, status: string): number {
  const written = new Set(
    spec.operations.byId(operationId)?.responses.map((response) => response.status.toUpperCase()),
  );
  if (/^\d{3}$/.test(status)) return Number(status);
  const candidates =
    status.toUpperCase() === "DEFAULT"
      ? Array.from({ length: 500 }, (_, i) => 100 + i).filter(
          (code) => !written.has(`${Math.floor(code / 100)}XX`),
        )
      : Array.from({ length: 100 }, (_, i) => Number(status[0]) * 100 + i);
  const code = candidates.find((candidate) => !written.has(String(candidate)));
  if (code === undefined) throw new Error(`no status answers ${status} of ${operationId}`);
  return code;
}

/** Pointers of every schema object in the document that carries `example` or `examples`. */
function schemasWithExamples(): { pointer: string; values: unknown[] }[] {
  const found: { pointer: string; values: unknown[] }[] = [];
  const seen = new Set<unknown>();
  const visitSchema = (schema: unknown, pointer: string) => {
    if (!isObject(schema) || seen.has(schema)) return;
    seen.add(schema);
    const values = [
      ...(Array.isArray(schema.examples) ? schema.examples : []),
      ...("example" in schema ? [schema.example] : []),
    ];
    if (values.length > 0) found.push({ pointer, values });
    // Child pointers: walk the keys subschemas() reads, in the same way.
    for (const [key, child] of Object.entries(schema)) {
      if (
        ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"].includes(key) &&
        isObject(child)
      ) {
        for (const [name, sub] of Object.entries(child)) visitSchema(sub, childPointer(pointer, key, name));
      } else if (Array.isArray(child) && ["allOf", "anyOf", "oneOf", "prefixItems", "items"].includes(key)) {
        child.forEach((sub, index) => {
          visitSchema(sub, childPointer(pointer, key, index));
        });
      } else if (isObject(child) && subschemas({ [key]: child }).length > 0) {
        visitSchema(child, childPointer(pointer, key));
      }
    }
  };
  // Schemas sit under `schema` keys (parameters, headers, media types) and in components.schemas.
  const visit = (value: unknown, pointer: string) => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, childPointer(pointer, index));
      });
    }
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === "example" || key === "examples") continue;
      const at = childPointer(pointer, key);
      if (key === "schema") visitSchema(child, at);
      else if (key === "schemas" && pointer === "/components" && isObject(child)) {
        for (const [name, schema] of Object.entries(child)) visitSchema(schema, childPointer(at, name));
      } else visit(child, at);
    }
  };
  visit(document, "");
  return found;
}

function describeFailure(outcome: ValidationOutcome): string {
  return outcome.valid
    ? ""
    : outcome.issues.map((issue) => `${issue.field || "(root)"}: ${issue.message}`).join("; ");
}

describe("specs/cloud-api-v4.yaml through the loader", () => {
  it("loads as OpenAPI 3.1 with its title and release", () => {
    expect(spec.dialect).toBe("openapi-3.1");
    expect(spec.version).toBe("4.176.0");
    expect(spec.title).not.toBe("");
  });

  it("indexes every operation of the document, each findable by id and by a concrete path", () => {
    let written = 0;
    for (const item of Object.values(document.paths as Record<string, unknown>)) {
      const pathItem = deref(document, item);
      if (isObject(pathItem)) written += methods.filter((method) => isObject(pathItem[method])).length;
    }
    const operations = spec.operations.all();
    expect(operations).toHaveLength(written);
    expect(written).toBeGreaterThan(30);
    for (const operation of operations) {
      expect(spec.operations.byId(operation.operationId)).toBe(operation);
      const concrete = operation.pathTemplate.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
        const parameter = operation.parameters.find(
          (candidate) => candidate.in === "path" && candidate.name === name,
        );
        return isObject(parameter?.schema) && parameter.schema.type === "integer" ? "12" : "abc";
      });
      expect(spec.operations.match(operation.method, concrete)?.operation.operationId).toBe(
        operation.operationId,
      );
    }
  });

  it("the paginated lists carry the envelope, and instance types have the filterable fields the facts name", () => {
    const types = spec.operations
      .all()
      .find((operation) => operation.pathTemplate === "/compute/types" && operation.method === "get");
    expect(types?.paginated).toBe(true);
    expect(types?.filterableFields.map((field) => field.name).sort()).toEqual(
      ["class", "disk", "gpus", "label", "memory", "network_out", "transfer", "vcpus"].sort(),
    );
  });

  const bodies = bodyExamples();
  it("has body examples to check", () => {
    expect(bodies.length).toBeGreaterThan(0);
  });

  it.each(bodies.map((example) => [example.where, example] as const))(
    "body example %s validates",
    (_where, example) => {
      const validator =
        example.status === "request"
          ? spec.validators.request(example.operationId, example.mediaType)
          : spec.validators.response(
              example.operationId,
              concreteStatus(example.operationId, example.status),
              example.mediaType,
            );
      expect(validator, "a validator for the example's body").toBeDefined();
      const outcome = validator?.(example.value) ?? { valid: true };
      expect(describeFailure(outcome)).toBe("");
    },
  );

  const schemaExamples = schemasWithExamples();
  const compilers = (["response", "request"] as const).map((context) =>
    createSchemaCompiler(document, {
      dialect: spec.dialect,
      context,
      unknownFormats: spec.validators.unknownFormats(),
      formatMode: "full",
    }),
  );

  it.each(schemaExamples.map((entry) => [entry.pointer, entry] as const))(
    "schema examples at %s validate",
    (_pointer, entry) => {
      for (const value of entry.values) {
        // A schema may serve requests and responses: its example must fit at least one of the two contexts.
        const outcomes = compilers.map((compiler) => compiler.compile(entry.pointer)(value));
        const passing = outcomes.find((outcome) => outcome.valid);
        expect(passing ? "" : describeFailure(outcomes[0] as ValidationOutcome), JSON.stringify(value)).toBe(
          "",
        );
      }
    },
  );
});
