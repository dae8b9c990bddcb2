/** A request body that is not JSON crashes the server: 500 instead of 400. */
import { reasons } from "../errors.ts";
import type { Fault } from "./types.ts";

export const malformedJson500: Fault = {
  id: "malformed-json-500",
  description: "a request body that is not valid JSON is answered 500 instead of 400",
  detectedBy: {
    suites: ["invalid-bodies"],
    checks: ["assert:createNodeBalancer: malformed JSON is refused with 400", "not-a-server-error"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing) => {
      const errors = (outgoing.body as { errors?: { reason?: unknown }[] } | undefined)?.errors;
      const malformed =
        outgoing.status === 400 && errors?.some((error) => /not valid JSON/.test(String(error?.reason)));
      return malformed
        ? { ...outgoing, status: 500, body: { errors: [{ reason: reasons.internal }] }, raw: undefined }
        : outgoing;
    }),
};
