/** The list of load balancers leaves out the newest one (its count still includes it). */
import type { Fault } from "./types.ts";

export const listMissesNewest: Fault = {
  id: "list-misses-newest",
  description: "the load balancers' list leaves out the newest one",
  detectedBy: { suites: ["lifecycles"], checks: ["assert:nodebalancers: the list holds it"] },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) => {
      const body = outgoing.body as { data?: { id?: unknown }[] } | undefined;
      if (operation?.operationId !== "getNodeBalancers" || !Array.isArray(body?.data)) return outgoing;
      const newest = Math.max(...target.state.nodeBalancers.keys());
      const data = body.data.filter((item) => item.id !== newest);
      return { ...outgoing, body: { ...body, data }, raw: undefined };
    }),
};
