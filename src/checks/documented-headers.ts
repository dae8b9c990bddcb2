/**
 * `documented-headers`: every header the matched response declares `required: true` is present, and where its
 * schema names a scalar type (integer, number, boolean) the value reads as that type. Value semantics of particular
 * headers are judged by their own checks (`spec-version-header`, `rate-limit-headers`, `retry-after-on-429`).
 * A header a recording never kept (an SDK's cassette filters some out) is not held against the target; when every
 * required header is such a one, the check skips.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import type { JsonSchema } from "../spec/types.ts";
import { parseInteger, parseNumber } from "./_internals/http-values.ts";
import { documentedResponse, requestLine } from "./_internals/spec-lookup.ts";
import { type CheckDefinition, notRecorded } from "./types.ts";

export const documentedHeaders: CheckDefinition = {
  id: "documented-headers",
  title: "Required response headers are present and typed as documented",
  check(context, exchange) {
    const { operation } = context;
    const { response } = exchange;
    // No declared headers to hold the response to without an operation.
    if (!operation) return skipped(`no operation in the spec for ${requestLine(exchange)}`);
    const documented = documentedResponse(operation, response.status);
    // Nothing declared for this status; status-code-documented reports the status itself.
    if (!documented)
      return skipped(`status ${response.status} is not documented for ${operation.operationId}`);

    const problems: string[] = [];
    const unrecorded: string[] = [];
    let judged = 0;
    for (const declared of documented.headers) {
      // A Content-Type entry among response headers is ignored by definition (OpenAPI 3.1 §4.8.17.1).
      if (!declared.required || declared.name === "content-type") continue;
      const value = response.headers[declared.name];
      if (value === undefined && notRecorded(context, declared.name)) {
        unrecorded.push(declared.name);
        continue;
      }
      judged += 1;
      if (value === undefined) {
        problems.push(`${declared.name} is missing`);
        continue;
      }
      const types = scalarTypes(declared.schema);
      if (types.length > 0 && !readsAsOneOf(value, types)) {
        problems.push(`${declared.name} "${value}" is not ${types.map(article).join(" or ")}`);
      }
    }
    if (problems.length === 0) {
      if (judged === 0 && unrecorded.length > 0)
        return skipped(`the recording kept none of ${unrecorded.join(", ")} on any of its answers`);
      return passed;
    }
    const required = documented.headers.filter((h) => h.required && h.name !== "content-type");
    return failed(`${problems.join("; ")} (${operation.operationId} ${documented.status})`, {
      expected: documented.headers.filter((h) => h.required).map((h) => h.name),
      actual: Object.fromEntries(required.map((h) => [h.name, response.headers[h.name]])),
    });
  },
};

type Scalar = "integer" | "number" | "boolean" | "string";
const scalars: readonly string[] = ["integer", "number", "boolean", "string"];

const noTypes: readonly Scalar[] = [];
/** Per header schema of the spec (they live as long as it does): read once, asked on every answer. */
const typesBySchema = new WeakMap<object, readonly Scalar[]>();

/** The scalar types a header schema allows (`type` may be a list in OpenAPI 3.1); empty when it names none. */
function scalarTypes(schema: JsonSchema | undefined): readonly Scalar[] {
  if (typeof schema !== "object" || schema === null) return noTypes;
  let types = typesBySchema.get(schema);
  if (!types) {
    const type = schema.type;
    const listed = Array.isArray(type) ? type : [type];
    types = listed.filter((entry): entry is Scalar => typeof entry === "string" && scalars.includes(entry));
    typesBySchema.set(schema, types);
  }
  return types;
}

function readsAsOneOf(value: string, types: readonly Scalar[]): boolean {
  for (const type of types) if (reads(value, type)) return true;
  return false;
}

/** Header values are simple-style strings (OpenAPI 3.1 §4.8.12.4): read them as the schema's type. */
function reads(value: string, type: Scalar): boolean {
  switch (type) {
    case "integer":
      return parseInteger(value) !== undefined;
    case "number":
      return parseNumber(value) !== undefined;
    case "boolean":
      return value === "true" || value === "false";
    case "string":
      return true;
  }
}

function article(type: Scalar): string {
  return type === "integer" ? "an integer" : `a ${type}`;
}
