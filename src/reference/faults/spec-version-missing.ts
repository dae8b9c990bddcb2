/** Answers no longer name the release that handled them (`X-Spec-Version` dropped). */
import type { Fault } from "./types.ts";

export const specVersionMissing: Fault = {
  id: "spec-version-missing",
  description: "X-Spec-Version is left off every answer",
  detectedBy: {
    suites: ["versioning"],
    checks: ["assert:X-Spec-Version is the spec's version", "spec-version-header"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing) => ({
      ...outgoing,
      headers: Object.fromEntries(
        Object.entries(outgoing.headers).filter(([name]) => name.toLowerCase() !== "x-spec-version"),
      ),
    })),
};
