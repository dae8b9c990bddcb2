/** The token endpoint says its access tokens last an hour (`expires_in` 3600) where the description says 7200. */
import type { Fault } from "./types.ts";

export const expiresInWrong: Fault = {
  id: "expires-in-wrong",
  description: "the token endpoint answers expires_in 3600 instead of 7200",
  detectedBy: { suites: ["auth"], checks: ["assert:expires_in is 7200"] },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) => {
      const body = outgoing.body as { expires_in?: unknown } | undefined;
      if (
        operation?.operationId !== "createOAuthToken" ||
        outgoing.status !== 200 ||
        body?.expires_in === undefined
      )
        return outgoing;
      return { ...outgoing, body: { ...body, expires_in: 3600 } };
    }),
};
