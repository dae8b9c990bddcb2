/** A profile's `nodes_status` shows the up count as down and the down count as up. */
import type { Fault } from "./types.ts";

export const nodesStatusSwapped: Fault = {
  id: "nodes-status-swapped",
  description: "a profile's nodes_status has its up and down counts swapped",
  detectedBy: {
    suites: ["workflow-back-ends"],
    checks: ["assert:with nothing listening nodes_status reads up 0, down 2"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) => {
      if (operation?.operationId !== "getNodeBalancerConfig") return outgoing;
      const body = outgoing.body as { nodes_status?: { up: number; down: number } } | undefined;
      if (!body?.nodes_status) return outgoing;
      const { up, down } = body.nodes_status;
      return { ...outgoing, body: { ...body, nodes_status: { up: down, down: up } } };
    }),
};
