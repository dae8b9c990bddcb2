/** A second profile on a port another profile of the same load balancer already configures is created anyway. */
import type { Fault } from "./types.ts";

export const portSharedByProfiles: Fault = {
  id: "port-shared-by-profiles",
  description: "two configuration profiles of one load balancer may configure the same port",
  detectedBy: {
    suites: ["workflow-balancer"],
    checks: ["assert:a second profile on port 80 is refused with 400"],
  },
  apply: (target) =>
    target.wrapHandler("createNodeBalancerConfig", (original) => async (context) => {
      const port = (context.body as { port?: unknown } | undefined)?.port ?? 80;
      const balancerId = Number(context.params.nodeBalancerId);
      // Hide the profiles on that port while the real handler decides, then put them back.
      const clashing = [...target.state.configs.values()].filter(
        (config) => config.nodebalancer_id === balancerId && config.port === port,
      );
      for (const config of clashing) target.state.configs.delete(config.id);
      try {
        return await original(context);
      } finally {
        for (const config of clashing) target.state.configs.set(config.id, config);
      }
    }),
};
