/** A refresh token keeps working after it was used (it should be single use: a refresh hands out a new one). */
import type { Fault } from "./types.ts";

export const refreshTokenReusable: Fault = {
  id: "refresh-token-reusable",
  description: "a used refresh token can be used again",
  detectedBy: { suites: ["auth"], checks: ["assert:a used refresh token is refused"] },
  apply: (target) =>
    target.wrapHandler("createOAuthToken", (original) => async (context) => {
      const body = (context.body ?? {}) as Record<string, unknown>;
      const token = body.grant_type === "refresh_token" ? body.refresh_token : undefined;
      const record = typeof token === "string" ? target.state.refreshTokens.get(token) : undefined;
      const reply = await original(context);
      // Put the spent token back: the next use finds it as if it had never been used.
      if (record && reply.status === 200) target.state.refreshTokens.set(record.token, record);
      return reply;
    }),
};
