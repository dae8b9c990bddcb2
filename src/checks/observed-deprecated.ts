/**
 * `observed-deprecated`: a success of an operation the description marks deprecated is 299 with a non-empty
 * `warnings` array (cloud-api-v4 "Deprecation"), where the description documents that 299 answer.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { isObject, observedOperation } from "./_internals/observed.ts";
import type { CheckDefinition } from "./types.ts";

export const observedDeprecated: CheckDefinition = {
  id: "observed-deprecated",
  title: "A deprecated operation's success is 299 with warnings",
  check(context, exchange) {
    const operation = observedOperation(context, exchange);
    const { response } = exchange;
    if (!operation?.deprecated || response.status < 200 || response.status >= 300) return undefined;
    // A description whose deprecated operation documents no 299 answer does not promise one.
    if (!operation.responses.some((documented) => documented.status === "299"))
      return skipped(`${operation.operationId} is deprecated but documents no 299 answer`);
    if (response.status !== 299)
      return failed(`${operation.operationId} is deprecated: a success answers 299, not ${response.status}`, {
        expected: 299,
        actual: response.status,
      });
    const warnings = isObject(response.json) ? response.json.warnings : undefined;
    if (Array.isArray(warnings) && warnings.length > 0) return passed;
    return failed("a 299 answer carries a warnings array", { expected: "warnings: [...]", actual: warnings });
  },
};
