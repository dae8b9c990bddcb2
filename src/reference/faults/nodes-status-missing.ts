/** Profiles are shown without `nodes_status`: how many back-end nodes are up and down cannot be read. */
import type { Fault } from "./types.ts";

const profileOperations = new Set([
  "createNodeBalancerConfig",
  "getNodeBalancerConfig",
  "updateNodeBalancerConfig",
  "rebuildNodeBalancerConfig",
  "getNodeBalancerConfigs",
]);

const withoutStatus = (profile: unknown) => {
  if (typeof profile !== "object" || profile === null) return profile;
  const { nodes_status: _dropped, ...rest } = profile as Record<string, unknown>;
  return rest;
};

export const nodesStatusMissing: Fault = {
  id: "nodes-status-missing",
  description: "profiles are shown without nodes_status",
  detectedBy: { suites: ["valid-bodies"], checks: ["body-matches-schema"] },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) => {
      if (!operation || !profileOperations.has(operation.operationId) || outgoing.status !== 200)
        return outgoing;
      const body = outgoing.body as { data?: unknown[] };
      return {
        ...outgoing,
        body: Array.isArray(body?.data)
          ? { ...body, data: body.data.map(withoutStatus) }
          : withoutStatus(outgoing.body),
      };
    }),
};
