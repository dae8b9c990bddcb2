/**
 * `body-matches-schema`: the JSON body validates against the schema the operation documents for its status and
 * media type, with the spec's compiled validator (exact status, then range, then `default`).
 *
 * Placeholders are not the target's: a secret the recorder redacted (its issues are dropped: a token's pattern cannot
 * be judged on the placeholder), and, in a recording conform did not make, an
 * address reserved for documentation (RFC 5737: 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24), which no real
 * answer carries and SDKs' fixture sanitizers write in place of real ones (the real service's Go SDK turns every
 * IPv4 with octets of two digits or more into 192.0.2.0). An issue about such a value is not a failure; when every
 * issue is one, the check skips, saying the real value was not recorded.
 *
 * Except where a secret field allows no string but the API's redacted form (`ssl_key: "<REDACTED>" or null`): the
 * recorder keeps that form as it is, so a placeholder there stands for a real secret echoed back, judged before it
 * was redacted. That fails, naming the field; its value was never recorded, so no output can show it.
 * @module
 */
import { describedRedactedForm, redactedPlaceholder } from "../core/redact.ts";
import { failed, passed, skipped } from "../core/result.ts";
import { valueAt } from "../spec/pointer.ts";
import type { ValidationIssue } from "../spec/types.ts";
import { isDocumentationAddress } from "./_internals/documentation-address.ts";
import { parseMediaType } from "./_internals/http-values.ts";
import { documentedResponse, isHead, requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

/** How many issues the message names (all of them are in `actual`, up to {@link reportedIssues}). */
const namedIssues = 3;
const reportedIssues = 20;

export const bodyMatchesSchema: CheckDefinition = {
  id: "body-matches-schema",
  title: "The response body matches the documented schema",
  check({ spec, operation, recording }, exchange) {
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
    const unredacted = outcome.issues.filter(
      (issue) => valueAt(json, issue.instancePath) !== redactedPlaceholder || echoedSecret(issue),
    );
    if (unredacted.length === 0) return passed;
    // A recording's sanitizer may have written a documentation address where the real one was.
    const sanitized = (issue: ValidationIssue) =>
      recording !== undefined && isDocumentationAddress(valueAt(json, issue.instancePath));
    const targetIssues = unredacted.filter((issue) => !sanitized(issue));
    if (targetIssues.length === 0) {
      const path = unredacted[0]!.instancePath;
      return skipped(
        `${path || "/"} holds ${JSON.stringify(valueAt(json, path))}, an address reserved for documentation that the recording's sanitizer wrote in place of the real one: not judged`,
      );
    }
    const issues = targetIssues.map((issue) => describeIssue(issue, json));
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

/**
 * An issue at a redacted value that the value broke whatever it was: the schema allows no string there but the API's
 * redacted form, which the recorder never replaces (a secret echoed back where the description says `<REDACTED>`).
 */
function echoedSecret(issue: ValidationIssue): boolean {
  const allowed = allowedValues(issue);
  return allowed?.every((value) => typeof value !== "string" || value === describedRedactedForm) === true;
}

/** The values an `enum` or `const` issue allows. */
function allowedValues(issue: ValidationIssue): unknown[] | undefined {
  const allowed =
    issue.keyword === "enum"
      ? issue.params.allowedValues
      : issue.keyword === "const"
        ? [issue.params.allowedValue]
        : undefined;
  return Array.isArray(allowed) ? allowed : undefined;
}

/** `/data/0/label: must match pattern "^[a-z]+$"`; a secret echoed back is named, its value withheld. */
function describeIssue(issue: ValidationIssue, json: unknown): string {
  const where = issue.instancePath || "/";
  if (valueAt(json, issue.instancePath) === redactedPlaceholder)
    return `${where}: a secret echoed back where the description allows only ${(allowedValues(issue) ?? []).map((value) => JSON.stringify(value)).join(" or ")} (its value is withheld)`;
  return `${where}: ${issue.message}`;
}
