/** A request with no token is answered 403 (authenticated but not permitted) instead of 401 `Invalid Token`. */
import type { Fault } from "./types.ts";

export const noTokenAnswers403: Fault = {
  id: "no-token-answers-403",
  description: "a request without a token is answered 403 instead of 401 Invalid Token",
  detectedBy: { suites: ["auth"], checks: ["auth-status"] },
  apply: (target) =>
    target.rewriteReplies((outgoing, _operation, request) => {
      if (outgoing.status !== 401 || request.headers.authorization !== undefined) return outgoing;
      return {
        ...outgoing,
        status: 403,
        body: { errors: [{ reason: "You do not have permission to access this resource" }] },
        raw: undefined,
      };
    }),
};
