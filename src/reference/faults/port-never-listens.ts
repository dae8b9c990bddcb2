/** A profile's port is configured in the API but the load balancer never listens on it. */
import type { Fault } from "./types.ts";

export const portNeverListens: Fault = {
  id: "port-never-listens",
  description: "a profile is created and reads back with its port, but the load balancer never listens on it",
  detectedBy: {
    suites: ["workflow-balancer", "workflow-back-ends"],
    checks: [
      "assert:the load balancer accepts a connection on the profile's port",
      "assert:every request through the load balancer is answered by a back-end",
    ],
  },
  apply: (target) => {
    target.behaviour.balancerListens = () => false;
  },
};
