/**
 * `status-code-documented`: the status is one the operation documents, exactly (`404`), by range (`4XX`) or
 * through `default` (OpenAPI 3.1 §4.8.16).
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { documentedResponse, requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

export const statusCodeDocumented: CheckDefinition = {
  id: "status-code-documented",
  title: "The status code is documented for the operation",
  check({ operation }, exchange) {
    const { response } = exchange;
    // Nothing to compare with: without an operation the spec documents no statuses for this request.
    if (!operation) return skipped(`no operation in the spec for ${requestLine(exchange)}`);
    if (documentedResponse(operation, response.status)) return passed;
    const documented = operation.responses.map((entry) => entry.status);
    return failed(
      `status ${response.status} is not documented for ${operation.operationId} (documented: ${documented.join(", ") || "none"})`,
      { expected: documented, actual: response.status },
    );
  },
};
