/**
 * `spec-version-header`: the response names the release that handled it in `X-Spec-Version`, and that release is
 * the one the spec describes (cloud-api-v4 "Versioning").
 *
 * Where it is required: on every response of the API server (the spec's conventions, and each of its responses
 * declares the header required), and on a login-server response only where that response documents it. A value
 * that is present is always judged. A different release with the same major version still serves `/v4` and fails
 * as a warning; a different major version or a malformed value fails as an error.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { documentedResponse, requestLine, servedByApi } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

const header = "x-spec-version";
const release = /^(\d+)\.(\d+)\.(\d+)$/;

export const specVersionHeader: CheckDefinition = {
  id: "spec-version-header",
  title: "X-Spec-Version names the described release",
  check({ spec, operation }, exchange) {
    const { response } = exchange;
    // No headers to judge: a transport failure is the runner's to report.
    if (!response)
      return skipped(`no response (${exchange.error?.code ?? "transport error"}): nothing to judge`);
    const value = response.headers[header]?.trim();
    if (value === undefined) {
      // Without an operation we cannot tell an API response from another server's (a proxy's, the login server's).
      if (!operation) return skipped(`no operation in the spec for ${requestLine(exchange)}`);
      const documented = documentedResponse(operation, response.status)?.headers.some(
        (h) => h.name === header,
      );
      if (!servedByApi(operation) && !documented) {
        // The login server's answers document no X-Spec-Version ("Every response *can* carry", Versioning).
        return skipped(
          `${operation.operationId} is served by ${operation.serverUrl}, which documents no X-Spec-Version`,
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
