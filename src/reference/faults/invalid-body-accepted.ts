/**
 * Writes the server refuses are answered 200 `{}` (the refusal swallowed, as a server that skips validating
 * bodies would answer): an invalid body looks accepted.
 */
import type { Fault } from "./types.ts";

export const invalidBodyAccepted: Fault = {
  id: "invalid-body-accepted",
  description: "a write refused with 400 (an invalid body) is answered 200 {} instead",
  detectedBy: {
    suites: ["invalid-bodies"],
    checks: ["assert:createNodeBalancer: an invalid body is refused with 400"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) =>
      outgoing.status === 400 && operation?.requestBody
        ? { ...outgoing, status: 200, body: {}, raw: undefined }
        : outgoing,
    ),
};
