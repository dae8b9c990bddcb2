/**
 * `error-body-shape`: a 4xx or 5xx body is the API's error envelope `{errors: [{reason, field?}, ...]}`: at least
 * one error, every `reason` a non-empty string, and `field`, when present, a non-empty string. `field` is omitted
 * when no single input is at fault, never null (cloud-api-v4 "Error body"; facts.md "Conventions"). The names
 * are the loaded description's (its error schema: `conventionsOf(spec).errorEnvelope`).
 * Extra properties are tolerated: the real service adds fields beyond the documented ones.
 * @module
 */
import { type CheckOutcome, failed, passed, skipped } from "../core/result.ts";
import { conventionsOf, describedErrorEnvelope, type ErrorEnvelope } from "../spec/conventions.ts";
import { isJsonMediaType } from "./_internals/http-values.ts";
import { documentedResponse, isHead } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

export const errorBodyShape: CheckDefinition = {
  id: "error-body-shape",
  title: "Error responses carry {errors: [{reason, field?}]}",
  check({ spec, operation }, exchange) {
    const { response } = exchange;
    // Only 4xx and 5xx answers carry the error envelope (cloud-api-v4 "Status codes"); a 3xx is a redirect.
    if (response.status < 400) return notAnError(response.status);
    // A HEAD answer has no content (RFC 9110 §9.3.2).
    if (isHead(exchange)) return skipped("HEAD responses carry no body (RFC 9110 §9.3.2)");
    // A body cut at the client's cap would fail for the cut, not for the target.
    if (response.truncated)
      return skipped(`the body was truncated by the client's cap (${response.bytes} bytes)`);
    const documented = operation ? documentedResponse(operation, response.status) : undefined;
    if (documented && documented.contentTypes.length > 0 && !documented.contentTypes.some(isJsonMediaType)) {
      // The spec documents a non-JSON answer here (a login-server page): the JSON envelope is not expected.
      return skipped(
        `${operation?.operationId} documents ${documented.contentTypes.join(", ")} for ${documented.status}, not JSON`,
      );
    }
    const { errorEnvelope: envelope, otherErrorShape } = conventionsOf(spec);
    // Another API's errors (`{id, message}`): not this envelope, and body-matches-schema judges them as described.
    if (otherErrorShape)
      return skipped(`the description's errors are not an array of errors (${otherErrorShape})`);
    const expected = shapeOf(envelope);
    if (response.json === undefined) {
      const what = response.text === "" ? "no body" : "a body that is not JSON";
      return failed(`error response ${response.status} has ${what}, expected {${envelope.list}: [...]}`, {
        expected,
        actual: response.text.slice(0, 200),
      });
    }
    const problems = errorEnvelopeProblems(response.json, envelope);
    if (problems.length === 0) return passed;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    return failed(`${problems[0]}${more}`, { expected, actual: problems });
  },
};

/** The skip of an answer below 400, one frozen value per status (most answers of a run are 2xx: no copy each). */
const notAnErrorSkips: CheckOutcome[] = [];

function notAnError(status: number): CheckOutcome {
  if (!Number.isInteger(status) || status < 0) return skipped(`status ${status} is not an error response`);
  let outcome = notAnErrorSkips[status];
  if (!outcome) {
    outcome = Object.freeze(skipped(`status ${status} is not an error response`));
    notAnErrorSkips[status] = outcome;
  }
  return outcome;
}

/** `{errors: [{reason, field?}]}` in the description's names. */
function shapeOf(envelope: ErrorEnvelope): string {
  return `{${envelope.list}: [{${envelope.reason}, ${envelope.field}?}]}`;
}

/** What is wrong with an error envelope, one line per problem (empty when it is well formed). */
export function errorEnvelopeProblems(body: unknown, envelope = describedErrorEnvelope): string[] {
  const { list, reason: reasonKey, field: fieldKey } = envelope;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return [`error body is ${describe(body)}, expected an object with an ${list} array`];
  }
  const errors = (body as Record<string, unknown>)[list];
  if (errors === undefined) return [`error body has no ${list} array`];
  if (!Array.isArray(errors)) return [`${list} is ${describe(errors)}, expected an array`];
  if (errors.length === 0) return [`${list} is empty: an error response names at least one error`];
  const problems: string[] = [];
  errors.forEach((entry: unknown, index) => {
    const at = `${list}[${index}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      problems.push(`${at} is ${describe(entry)}, expected {${reasonKey}, ${fieldKey}?}`);
      return;
    }
    const reason = (entry as Record<string, unknown>)[reasonKey];
    const field = (entry as Record<string, unknown>)[fieldKey];
    if (reason === undefined) problems.push(`${at} has no ${reasonKey}`);
    else if (typeof reason !== "string")
      problems.push(`${at}.${reasonKey} is ${describe(reason)}, expected a string`);
    else if (reason.trim() === "") problems.push(`${at}.${reasonKey} is blank`);
    if (!(fieldKey in entry)) return;
    const omit = `omit ${fieldKey} when no single input is at fault`;
    if (field === null) problems.push(`${at}.${fieldKey} is null: ${omit}`);
    else if (typeof field !== "string")
      problems.push(`${at}.${fieldKey} is ${describe(field)}, expected a string`);
    else if (field.trim() === "") problems.push(`${at}.${fieldKey} is blank: ${omit}`);
  });
  return problems;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}
