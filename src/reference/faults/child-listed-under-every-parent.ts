/** A load balancer's profiles list shows every load balancer's profiles, not only its own. */
import type { Fault } from "./types.ts";

export const childListedUnderEveryParent: Fault = {
  id: "child-listed-under-every-parent",
  description: "a load balancer's profile list shows the profiles of every load balancer",
  detectedBy: {
    suites: ["lifecycles"],
    checks: ["assert:nodebalancers: its nodebalancers/configs is not listed under another nodebalancers"],
  },
  apply: (target) =>
    target.wrapHandler("getNodeBalancerConfigs", (original) => async (context) => {
      const own = await original(context);
      const body = own.body as { data?: { id: unknown }[] } | undefined;
      if (own.status !== 200 || !Array.isArray(body?.data)) return own;
      const data = [...body.data];
      for (const other of target.state.nodeBalancers.keys()) {
        if (other === Number(context.params.nodeBalancerId)) continue;
        const theirs = await original({ ...context, params: { ...context.params, nodeBalancerId: other } });
        data.push(...((theirs.body as { data?: { id: unknown }[] }).data ?? []));
      }
      return { ...own, body: { ...body, data } };
    }),
};
