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
    // A HEAD stands in for its GET (RFC 9110 §9.3.2), whose statuses are documented, not the HEAD's: a HEAD that
    // answers otherwise (405) is the headers suite's finding against the GET, said once there, not twice.
    if (exchange.request.method.toUpperCase() === "HEAD" && operation.method !== "head")
      return skipped(`HEAD ${operation.operationId}: judged against its GET by the headers suite, not here`);
    const documented = operation.responses.map((entry) => entry.status);
    return failed(
      `status ${response.status} is not documented for ${operation.operationId} (documented: ${documented.join(", ") || "none"})`,
      { expected: documented, actual: response.status },
    );
  },
};
