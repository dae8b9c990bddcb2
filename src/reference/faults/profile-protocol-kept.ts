/**
 * A profile's update takes every field but its protocol: switched to https, its answer and later reads still say
 * http (issue 34's "a profile switched to https whose answer and later read still say http").
 */
import type { Fault } from "./types.ts";

export const profileProtocolKept: Fault = {
  id: "profile-protocol-kept",
  description: "a profile's update keeps its old protocol, in the answer and in later reads",
  detectedBy: {
    suites: ["workflow-balancer"],
    checks: ["assert:the switched profile: protocol is https", "observed-read-back"],
  },
  apply: (target) =>
    target.wrapHandler("updateNodeBalancerConfig", (original) => async (context) => {
      const before = target.state.configs.get(Number(context.params.configId))?.protocol;
      const reply = await original(context);
      const after = target.state.configs.get(Number(context.params.configId));
      if (!before || !after || reply.status !== 200) return reply;
      after.protocol = before;
      return { ...reply, body: { ...(reply.body as object), protocol: before } };
    }),
};
