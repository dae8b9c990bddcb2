/**
 * `body-matches-schema`: the JSON body validates against the schema the operation documents for its status and
 * media type, with the spec's compiled validator (exact status, then range, then `default`).
 * @module
 */
import { redactedPlaceholder } from "../core/redact.ts";
import { failed, passed, skipped } from "../core/result.ts";
import { valueAt } from "../spec/pointer.ts";
import type { ValidationIssue } from "../spec/types.ts";
import { parseMediaType } from "./_internals/http-values.ts";
import { documentedResponse, isHead, requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

/** How many issues the message names (all of them are in `actual`, up to {@link reportedIssues}). */
const namedIssues = 3;
const reportedIssues = 20;

export const bodyMatchesSchema: CheckDefinition = {
  id: "body-matches-schema",
  title: "The response body matches the documented schema",
  check({ spec, operation }, exchange) {
    const { response } = exchange;
    // No schema to validate against without an operation.
    if (!operation) return skipped(`no operation in the spec for ${requestLine(exchange)}`);
    // A HEAD answer has no content to validate (RFC 9110 §9.3.2).
    if (isHead(exchange)) return skipped("HEAD responses carry no body (RFC 9110 §9.3.2)");
    // A body cut at the client's cap would fail for the cut, not for the target.
    if (response.truncated)
      return skipped(`the body was truncated by the client's cap (${response.bytes} bytes)`);
    const mediaType = parseMediaType(response.headers["content-type"])?.essence;
    const validator = spec.validators.response(operation.operationId, response.status, mediaType);
    const documented = documentedResponse(operation, response.status);
    const schemaName = `schema of ${operation.operationId} ${documented?.status ?? response.status}`;
    if (!validator) {
      // Nothing documented to hold the body to (status-code-documented reports undocumented statuses).
      return skipped(
        `no schema documented for ${operation.operationId} ${response.status}${mediaType ? ` ${mediaType}` : ""}`,
      );
    }
    // A body that is not JSON is content-type-json's to report; a schema cannot judge it.
    if (response.json === undefined) return skipped("the body is not JSON");

    const outcome = validator(response.json);
    if (outcome.valid) return passed;
    // The recorder replaced secrets (tokens, client secrets) with a placeholder before any check saw the body: an
    // issue about the placeholder (a token's pattern, a minimum length) is the recorder's, not the target's.
    const json = response.json;
    const targetIssues = outcome.issues.filter(
      (issue) => valueAt(json, issue.instancePath) !== redactedPlaceholder,
    );
    if (targetIssues.length === 0) return passed;
    const issues = targetIssues.map(describeIssue);
    const more = issues.length > namedIssues ? ` (and ${issues.length - namedIssues} more)` : "";
    return failed(
      `body does not match the ${schemaName}: ${issues.slice(0, namedIssues).join("; ")}${more}`,
      {
        expected: schemaName,
        actual: issues.slice(0, reportedIssues),
      },
    );
  },
};

/** `/data/0/label: must match pattern "^[a-z]+$"` */
function describeIssue(issue: ValidationIssue): string {
  return `${issue.instancePath || "/"}: ${issue.message}`;
}
