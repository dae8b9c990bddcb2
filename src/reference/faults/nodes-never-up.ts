/** Health checks never see a node up: even a node whose instance listens stays down. */
import type { Fault } from "./types.ts";

export const nodesNeverUp: Fault = {
  id: "nodes-never-up",
  description: "every health probe fails, so no back-end node ever comes up, listening or not",
  detectedBy: {
    suites: ["workflow-back-ends"],
    checks: ["assert:nodes_status eventually reads up 1, down 1"],
  },
  apply: (target) => {
    target.behaviour.probeOutcome = () => false;
  },
};
