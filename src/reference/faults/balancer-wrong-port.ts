/** A profile moved to another port still listens on its first one: the API and the data plane disagree. */
import type { Fault } from "./types.ts";

export const balancerWrongPort: Fault = {
  id: "balancer-wrong-port",
  description:
    "a profile whose port is changed reads back with the new port, but the load balancer keeps listening on the old one",
  detectedBy: {
    suites: ["workflow-balancer"],
    checks: [
      "assert:the load balancer accepts a connection on the profile's new port",
      "assert:the load balancer no longer listens on the profile's old port",
    ],
  },
  apply: (target) => {
    target.behaviour.listenedPort = (previous, configured) => previous ?? configured;
  },
};
