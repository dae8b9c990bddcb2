/** Answers carry no `Vary`: a cache may serve one token's or one filter's answer to another request. */
import { withoutHeader } from "./reply-rewrites.ts";
import type { Fault } from "./types.ts";

export const varyMissing: Fault = {
  id: "vary-missing",
  description: "the Vary header is left off every answer",
  detectedBy: {
    suites: ["headers"],
    checks: ["assert:Vary names Authorization and X-Filter", "vary-header"],
  },
  apply: (target) => target.rewriteReplies(withoutHeader("Vary")),
};
