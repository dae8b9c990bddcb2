/** An update of a load balancer answers what was asked for, but the stored one is left as it was. */
import type { Fault } from "./types.ts";

export const updateNotPersisted: Fault = {
  id: "update-not-persisted",
  description: "a load balancer's update answers the change but does not keep it",
  detectedBy: { suites: ["lifecycles"], checks: ["assert:nodebalancers: the update is kept"] },
  apply: (target) =>
    target.wrapHandler("updateNodeBalancer", (original) => async (context) => {
      const id = Number(context.params.nodeBalancerId);
      const before = target.state.nodeBalancers.get(id);
      const kept = before && { ...before, tags: [...before.tags] };
      const reply = await original(context);
      if (kept) target.state.nodeBalancers.set(id, kept);
      return reply;
    }),
};
