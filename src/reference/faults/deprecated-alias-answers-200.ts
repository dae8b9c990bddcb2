/** The deprecated node path answers 200 instead of 299, so a client is never told it is deprecated. */
import type { Fault } from "./types.ts";

export const deprecatedAliasAnswers200: Fault = {
  id: "deprecated-alias-answers-200",
  description: "the deprecated node-creation path answers 200 instead of 299",
  detectedBy: {
    suites: ["workflow-back-ends"],
    checks: ["assert:the deprecated node path answers 299", "status-code-documented", "observed-deprecated"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) =>
      operation?.operationId === "createNodeBalancerNodeDeprecated" && outgoing.status === 299
        ? { ...outgoing, status: 200 }
        : outgoing,
    ),
};
