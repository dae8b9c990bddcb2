/** A 429 no longer says when to retry (`Retry-After` dropped). */
import type { Fault } from "./types.ts";

export const retryAfterMissing: Fault = {
  id: "retry-after-missing",
  description: "429 answers carry no Retry-After",
  detectedBy: { suites: ["rate-limits"], checks: ["assert:429 carries Retry-After", "retry-after-on-429"] },
  apply: (target) =>
    target.rewriteReplies((outgoing) =>
      outgoing.status === 429
        ? {
            ...outgoing,
            headers: Object.fromEntries(
              Object.entries(outgoing.headers).filter(([name]) => name.toLowerCase() !== "retry-after"),
            ),
          }
        : outgoing,
    ),
};
