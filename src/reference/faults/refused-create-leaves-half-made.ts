/** A load balancer's create refused with 400 still makes one with the label it was given. */
import type { Fault } from "./types.ts";

export const refusedCreateLeavesHalfMade: Fault = {
  id: "refused-create-leaves-half-made",
  description: "a load balancer's create refused with 400 still leaves one with its label",
  detectedBy: {
    suites: ["lifecycles"],
    checks: ["assert:nodebalancers: a refused create leaves nothing in the list"],
  },
  apply: (target) =>
    target.wrapHandler("createNodeBalancer", (original) => async (context) => {
      const refused = await original(context);
      const label = (context.body as { label?: unknown } | undefined)?.label;
      if (refused.status !== 400 || typeof label !== "string") return refused;
      // The half-made one: in the first region that takes it, as if the check came after the write.
      for (const region of target.state.regions.keys()) {
        const made = await original({ ...context, body: { label, region } });
        if (made.status === 200) break;
      }
      return refused;
    }),
};
