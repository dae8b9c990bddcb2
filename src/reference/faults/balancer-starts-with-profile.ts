/** A new load balancer comes with a default profile on port 80, where the description says it has none. */
import { configsOf } from "../handlers/balancer-shared.ts";
import { profileDefaults } from "../handlers/config-rules.ts";
import type { Fault } from "./types.ts";

export const balancerStartsWithProfile: Fault = {
  id: "balancer-starts-with-profile",
  description: "a new load balancer already has a configuration profile (port 80, http)",
  detectedBy: {
    suites: ["workflow-balancer"],
    checks: ["assert:a new load balancer has no configuration profiles"],
  },
  apply: (target) =>
    target.wrapHandler("createNodeBalancer", (original) => async (context) => {
      const reply = await original(context);
      const id = (reply.body as { id?: unknown }).id;
      if (reply.status !== 200 || typeof id !== "number" || configsOf(context, id).length > 0) return reply;
      const config = { ...profileDefaults, id: target.state.nextId("config"), nodebalancer_id: id };
      target.state.configs.set(config.id, config);
      return reply;
    }),
};
