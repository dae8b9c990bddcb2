/** A node whose label another node of the same profile already has is created anyway. */
import type { Fault } from "./types.ts";

export const duplicateNodeLabelAccepted: Fault = {
  id: "duplicate-node-label-accepted",
  description: "node labels are not checked for uniqueness within a profile",
  detectedBy: {
    suites: ["workflow-back-ends"],
    checks: ["assert:a node with a label already used in the profile is refused with 400"],
  },
  apply: (target) =>
    target.wrapHandler("createNodeBalancerConfigNode", (original) => async (context) => {
      const label = (context.body as { label?: unknown } | undefined)?.label;
      const configId = Number(context.params.configId);
      // Hide the namesakes while the real handler decides, then put them back.
      const namesakes = [...target.state.nodes.values()].filter(
        (node) => node.config_id === configId && node.label === label,
      );
      for (const node of namesakes) target.state.nodes.delete(node.id);
      try {
        return await original(context);
      } finally {
        for (const node of namesakes) target.state.nodes.set(node.id, node);
      }
    }),
};
