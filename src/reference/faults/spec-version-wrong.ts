/** Answers name the previous minor release (4.175.0) while the spec describes 4.176.0: a deployment that drifted. */
import type { Fault } from "./types.ts";

export const specVersionWrong: Fault = {
  id: "spec-version-wrong",
  description: "X-Spec-Version names 4.175.0 instead of the described release",
  detectedBy: {
    suites: ["versioning"],
    checks: ["assert:X-Spec-Version is the spec's version", "spec-version-header"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing) =>
      outgoing.headers["X-Spec-Version"] === undefined
        ? outgoing
        : { ...outgoing, headers: { ...outgoing.headers, "X-Spec-Version": "4.175.0" } },
    ),
};
