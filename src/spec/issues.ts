/**
 * ajv's errors as {@link ValidationIssue}s, each naming the field the way the API's own error bodies do:
 * `label`, `configs[0].port`; for a missing property the missing one, for an unexpected property that one.
 * @module
 * @internal
 */
import type { ErrorObject } from "ajv";
import { parsePointer } from "./pointer.ts";
import type { ValidationIssue } from "./types.ts";

export function toIssues(errors: readonly ErrorObject[], value: unknown): ValidationIssue[] {
  return withoutEchoes(errors).map((error) => {
    const params = error.params as Record<string, unknown>;
    const extra =
      error.keyword === "required" || error.keyword === "dependentRequired"
        ? params.missingProperty
        : error.keyword === "additionalProperties"
          ? params.additionalProperty
          : error.keyword === "unevaluatedProperties"
            ? params.unevaluatedProperty
            : undefined;
    const tokens = parsePointer(error.instancePath) ?? [];
    return {
      instancePath: error.instancePath,
      field: fieldPath(value, typeof extra === "string" ? [...tokens, extra] : tokens),
      keyword: error.keyword,
      message: error.message ?? error.keyword,
      params,
    };
  });
}

/** Keywords whose error only says that some branch failed; the branches' own errors say how. */
const summaries = new Set(["anyOf", "oneOf", "if"]);

/**
 * Drops errors that only echo more specific ones about the same place: the "must match a schema in anyOf"
 * summary once a branch's errors are there, and "must be null" from the null branch of a nullable schema
 * (`anyOf: [{type: "null"}, X]`) once X's errors are there.
 */
function withoutEchoes(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  if (errors.length < 2) return errors;
  const isEcho = (error: ErrorObject) =>
    summaries.has(error.keyword) ||
    (error.keyword === "type" && (error.params as { type?: unknown }).type === "null");
  const explained = (error: ErrorObject) =>
    errors.some(
      (other) =>
        other !== error &&
        !isEcho(other) &&
        (other.instancePath === error.instancePath ||
          other.instancePath.startsWith(`${error.instancePath}/`)),
    );
  return errors.filter((error) => !isEcho(error) || !explained(error));
}

/**
 * Joins pointer tokens in the API's field style: array indexes in brackets, property names with dots.
 * Whether a token is an index is read from the value itself (`/0` may be a key of an object).
 */
export function fieldPath(value: unknown, tokens: readonly string[]): string {
  let field = "";
  let current = value;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      field += `[${token}]`;
      current = current[Number(token)];
    } else {
      field += field === "" ? token : `.${token}`;
      current =
        typeof current === "object" && current !== null
          ? (current as Record<string, unknown>)[token]
          : undefined;
    }
  }
  return field;
}
