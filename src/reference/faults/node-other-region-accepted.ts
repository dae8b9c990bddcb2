/** A node on the private address of an instance in another region than the load balancer's is created anyway. */
import type { Fault } from "./types.ts";

export const nodeOtherRegionAccepted: Fault = {
  id: "node-other-region-accepted",
  description: "a node's instance may be in any region, not only the load balancer's",
  detectedBy: {
    suites: ["workflow-back-ends"],
    checks: ["assert:a node on an instance in another region is refused with 400"],
  },
  apply: (target) =>
    target.wrapHandler("createNodeBalancerConfigNode", (original) => async (context) => {
      const { state } = target;
      const address = (context.body as { address?: unknown } | undefined)?.address;
      const ip = typeof address === "string" ? state.ips.get(address.replace(/:\d+$/, "")) : undefined;
      const instance = ip ? state.instances.get(ip.compute_id) : undefined;
      const balancer = state.nodeBalancers.get(Number(context.params.nodeBalancerId));
      if (!instance || !balancer || instance.region === balancer.region) return original(context);
      // Let the instance pass for one in the balancer's region while the real handler decides.
      const region = instance.region;
      instance.region = balancer.region;
      try {
        return await original(context);
      } finally {
        instance.region = region;
      }
    }),
};
