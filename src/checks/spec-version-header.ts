/**
 * `spec-version-header`: the response names the release that handled it in `X-Spec-Version`, and that release is
 * the one the spec describes (cloud-api-v4 "Versioning").
 *
 * Where it is required: on an answer whose response in the loaded description (matched by status: exact, range,
 * default) documents the header; elsewhere its absence is skipped with the reason (a description that documents
 * it nowhere, an operation that documents no such answer, an answer documented without it). A value that is
 * present is always judged. A different release with the same major version still serves `/v4` and fails as a
 * warning; a different major version or a malformed value fails as an error. In a recording that never kept the
 * header (an SDK's cassette filters it out), its absence is skipped: the recording, not the target, left it out.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { documentedResponse, requestLine } from "./_internals/spec-lookup.ts";
import { type CheckDefinition, notRecorded } from "./types.ts";

const header = "x-spec-version";
const release = /^(\d+)\.(\d+)\.(\d+)$/;

export const specVersionHeader: CheckDefinition = {
  id: "spec-version-header",
  title: "X-Spec-Version names the described release",
  check(context, exchange) {
    const { spec, operation } = context;
    const { response } = exchange;
    const value = response.headers[header]?.trim();
    if (value === undefined) {
      if (notRecorded(context, header))
        return skipped("the recording kept X-Spec-Version on none of its answers: it cannot be judged");
      // A description that documents the header nowhere does not promise it (its conventions are its own).
      if (!conventionsOf(spec).documentedHeaders.has(header))
        return skipped("the description documents no X-Spec-Version header on the API's answers");
      // Without an operation we cannot tell which answer of the description this is.
      if (!operation) return skipped(`no operation in the spec for ${requestLine(exchange)}`);
      const documented = documentedResponse(operation, response.status);
      if (!documented) {
        return skipped(
          `${operation.operationId} documents no ${response.status} answer, so no X-Spec-Version on it`,
        );
      }
      if (!documented.headers.some((h) => h.name === header)) {
        return skipped(
          `the ${documented.status} answer of ${operation.operationId} documents no X-Spec-Version header`,
        );
      }
      return failed("X-Spec-Version is missing", { expected: spec.version, actual: undefined });
    }
    if (value === spec.version) return passed;
    const actual = release.exec(value);
    if (!actual) {
      return failed(`X-Spec-Version "${value}" is not a MAJOR.MINOR.PATCH release`, {
        expected: spec.version,
        actual: value,
      });
    }
    const sameMajor = release.exec(spec.version)?.[1] === actual[1];
    return failed(`X-Spec-Version is ${value}, the spec describes ${spec.version}`, {
      expected: spec.version,
      actual: value,
      severity: sameMajor ? "warning" : "error",
    });
  },
};
