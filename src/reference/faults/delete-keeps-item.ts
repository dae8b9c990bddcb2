/** Deleting a load balancer answers 200 and keeps it: still read, listed and deletable. */
import { ok } from "../http/reply.ts";
import type { Fault } from "./types.ts";

export const deleteKeepsItem: Fault = {
  id: "delete-keeps-item",
  description: "a load balancer's delete answers 200 and keeps it",
  detectedBy: { suites: ["lifecycles"], checks: ["assert:nodebalancers: a read after the delete is 404"] },
  apply: (target) =>
    target.wrapHandler(
      "deleteNodeBalancer",
      (original) => (context) =>
        target.state.nodeBalancers.has(Number(context.params.nodeBalancerId)) ? ok({}) : original(context),
    ),
};
