/** JSON answers say `Content-Type: text/plain` (the body is still JSON). */
import type { Fault } from "./types.ts";

export const contentTypeWrong: Fault = {
  id: "content-type-wrong",
  description: "JSON answers are labelled text/plain",
  detectedBy: {
    suites: ["headers"],
    checks: ["assert:Content-Type is application/json", "content-type-json"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing) =>
      outgoing.headers["Content-Type"]?.startsWith("application/json")
        ? { ...outgoing, headers: { ...outgoing.headers, "Content-Type": "text/plain; charset=utf-8" } }
        : outgoing,
    ),
};
