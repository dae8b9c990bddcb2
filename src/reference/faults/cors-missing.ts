/** Answers carry none of the description's CORS headers (`Access-Control-*`), preflights included. */
import type { Fault } from "./types.ts";

export const corsMissing: Fault = {
  id: "cors-missing",
  description: "every Access-Control-* header is left off, on answers and preflights",
  detectedBy: {
    suites: ["headers"],
    checks: [
      "assert:Access-Control-Allow-Origin is set",
      "assert:a preflight allows the origin",
      "cors-headers",
    ],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing) => ({
      ...outgoing,
      headers: Object.fromEntries(
        Object.entries(outgoing.headers).filter(
          ([name]) => !name.toLowerCase().startsWith("access-control-"),
        ),
      ),
    })),
};
