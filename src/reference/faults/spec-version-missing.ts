/** Answers no longer name the release that handled them (`X-Spec-Version` dropped). */
import { withoutHeader } from "./reply-rewrites.ts";
import type { Fault } from "./types.ts";

export const specVersionMissing: Fault = {
  id: "spec-version-missing",
  description: "X-Spec-Version is left off every answer",
  detectedBy: {
    suites: ["versioning"],
    checks: ["assert:X-Spec-Version is the spec's version", "spec-version-header"],
  },
  apply: (target) => target.rewriteReplies(withoutHeader("X-Spec-Version")),
};
