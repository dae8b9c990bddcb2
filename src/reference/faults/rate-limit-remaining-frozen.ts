/** `X-RateLimit-Remaining` always says the whole limit is left, so it never decreases (the limit still holds). */
import type { Fault } from "./types.ts";

export const rateLimitRemainingFrozen: Fault = {
  id: "rate-limit-remaining-frozen",
  description: "X-RateLimit-Remaining always equals X-RateLimit-Limit",
  detectedBy: { suites: ["rate-limits"], checks: ["assert:Remaining decreases within a window"] },
  apply: (target) =>
    target.rewriteReplies((outgoing) => {
      const limit = outgoing.headers["X-RateLimit-Limit"];
      return limit === undefined
        ? outgoing
        : { ...outgoing, headers: { ...outgoing.headers, "X-RateLimit-Remaining": limit } };
    }),
};
