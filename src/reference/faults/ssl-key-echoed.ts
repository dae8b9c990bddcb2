/** Answers that show a profile echo its private key instead of hiding it. */
import type { Fault } from "./types.ts";

const profileOperations = new Set([
  "createNodeBalancerConfig",
  "getNodeBalancerConfig",
  "updateNodeBalancerConfig",
  "getNodeBalancerConfigs",
]);

export const sslKeyEchoed: Fault = {
  id: "ssl-key-echoed",
  description: "a profile's ssl_key is echoed in full wherever the profile is shown",
  detectedBy: {
    suites: ["workflow-balancer"],
    checks: ["assert:the switch: the answer does not echo ssl_key", "secrets-not-returned"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) => {
      if (!operation || !profileOperations.has(operation.operationId) || outgoing.status !== 200)
        return outgoing;
      const reveal = (profile: unknown) => {
        const shown = profile as { id?: number; ssl_key?: unknown };
        const stored =
          typeof shown?.id === "number" ? target.state.configs.get(shown.id)?.ssl_key : undefined;
        return stored ? { ...shown, ssl_key: stored } : profile;
      };
      const body = outgoing.body as { data?: unknown[] };
      return {
        ...outgoing,
        body: Array.isArray(body?.data) ? { ...body, data: body.data.map(reveal) } : reveal(outgoing.body),
      };
    }),
};
