/** The load balancer forwards connections to every node in turn, down ones included. */
import type { Fault } from "./types.ts";

export const balancerForwardsToDownNodes: Fault = {
  id: "balancer-forwards-to-down-nodes",
  description:
    "the load balancer sends connections to every node in turn, whatever its health: down nodes too",
  detectedBy: {
    suites: ["workflow-back-ends"],
    checks: ["assert:every request through the load balancer is answered while a node is up"],
  },
  apply: (target) => {
    target.behaviour.forwardsTo = (nodes) => [...nodes];
  },
};
