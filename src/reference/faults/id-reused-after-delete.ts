/** A new load balancer takes the id of the last one deleted. */
import type { Fault } from "./types.ts";

export const idReusedAfterDelete: Fault = {
  id: "id-reused-after-delete",
  description: "a new load balancer gets the id of the last one deleted",
  detectedBy: {
    suites: ["lifecycles"],
    checks: ["assert:nodebalancers: a new create gets a new id, not the deleted one"],
  },
  apply: (target) => {
    let freed: number | undefined;
    target.wrapHandler("deleteNodeBalancer", (original) => async (context) => {
      const reply = await original(context);
      if (reply.status === 200) freed = Number(context.params.nodeBalancerId);
      return reply;
    });
    target.wrapHandler("createNodeBalancer", (original) => async (context) => {
      const reply = await original(context);
      const body = reply.body as { id?: unknown } | undefined;
      const made = typeof body?.id === "number" ? target.state.nodeBalancers.get(body.id) : undefined;
      if (!made || freed === undefined || target.state.nodeBalancers.has(freed)) return reply;
      target.state.nodeBalancers.delete(made.id);
      target.state.nodeBalancers.set(freed, { ...made, id: freed });
      const id = freed;
      freed = undefined;
      return { ...reply, body: { ...body, id } };
    });
  },
};
