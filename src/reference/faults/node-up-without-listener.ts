/** Health checks report a node up without anything listening on it (nor its instance running). */
import type { Fault } from "./types.ts";

export const nodeUpWithoutListener: Fault = {
  id: "node-up-without-listener",
  description: "every health probe succeeds, so a node is up with nothing listening on its port",
  detectedBy: {
    suites: ["workflow-back-ends"],
    checks: ["assert:with nothing listening nodes_status reads up 0, down 2"],
  },
  apply: (target) => {
    target.behaviour.probeOutcome = () => true;
  },
};
