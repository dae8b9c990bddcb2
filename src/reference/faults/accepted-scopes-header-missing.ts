/** Answers no longer say which scope the operation needs (`X-Accepted-OAuth-Scopes`). */
import { withoutHeader } from "./reply-rewrites.ts";
import type { Fault } from "./types.ts";

export const acceptedScopesHeaderMissing: Fault = {
  id: "accepted-scopes-header-missing",
  description: "X-Accepted-OAuth-Scopes is left off every answer",
  detectedBy: {
    suites: ["auth"],
    checks: ["assert:X-Accepted-OAuth-Scopes names the needed scope", "documented-headers"],
  },
  apply: (target) => target.rewriteReplies(withoutHeader("X-Accepted-OAuth-Scopes")),
};
