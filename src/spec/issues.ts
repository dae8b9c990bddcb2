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
  return errors.map((error) => {
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
