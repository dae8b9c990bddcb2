/** An OAuth client's secret is shown in full on every read and update, not only by the create (facts.md). */
import type { Fault } from "./types.ts";

const shown = new Set(["getOAuthClient", "getOAuthClients", "updateOAuthClient"]);

export const clientSecretShown: Fault = {
  id: "client-secret-shown",
  description: "an OAuth client's secret is shown in full on reads and updates after its creation",
  detectedBy: {
    suites: ["operations", "auth"],
    checks: [
      "secrets-not-returned",
      "assert:the OAuth client read by its id does not show its secret",
      "assert:the OAuth clients list does not show its secret",
    ],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) => {
      if (!operation || !shown.has(operation.operationId) || outgoing.status !== 200) return outgoing;
      const reveal = (client: unknown) => {
        const record = target.state.oauthClients.get(String((client as { id?: unknown })?.id));
        return record ? { ...(client as object), secret: record.secret } : client;
      };
      const body = outgoing.body as { data?: unknown[] };
      return {
        ...outgoing,
        body: Array.isArray(body?.data) ? { ...body, data: body.data.map(reveal) } : reveal(outgoing.body),
      };
    }),
};
