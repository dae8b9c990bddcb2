/** The implicit flow hands a public client a refresh token in the fragment (the description says none is issued). */
import { randomBytes } from "node:crypto";
import type { Fault } from "./types.ts";

export const publicClientRefreshToken: Fault = {
  id: "public-client-refresh-token",
  description: "a public client's implicit-flow redirect carries a refresh_token",
  detectedBy: { suites: ["auth"], checks: ["assert:a public client gets no refresh token"] },
  apply: (target) =>
    target.wrapHandler("postOAuthAuthorize", (original) => async (context) => {
      const reply = await original(context);
      const location = reply.headers?.Location;
      const hash = location?.indexOf("#") ?? -1;
      if (reply.status !== 302 || !location || hash < 0) return reply;
      const fragment = new URLSearchParams(location.slice(hash + 1));
      const clientId = (context.body as Record<string, unknown> | undefined)?.client_id;
      if (!fragment.has("access_token") || typeof clientId !== "string") return reply;
      const refresh = randomBytes(32).toString("hex");
      target.state.refreshTokens.set(refresh, {
        token: refresh,
        clientId,
        scopes: fragment.get("scope") ?? "*",
      });
      fragment.set("refresh_token", refresh);
      return { ...reply, headers: { ...reply.headers, Location: `${location.slice(0, hash)}#${fragment}` } };
    }),
};
