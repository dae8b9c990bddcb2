/** HTTPS answers carry no `Strict-Transport-Security`: a browser may fall back to plain HTTP next time. */
import { withoutHeader } from "./reply-rewrites.ts";
import type { Fault } from "./types.ts";

export const hstsMissing: Fault = {
  id: "hsts-missing",
  description: "Strict-Transport-Security is left off every answer",
  detectedBy: {
    suites: ["headers"],
    checks: ["assert:Strict-Transport-Security has a positive max-age", "hsts-header"],
  },
  apply: (target) => target.rewriteReplies(withoutHeader("Strict-Transport-Security")),
};
