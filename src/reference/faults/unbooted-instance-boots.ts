/** An instance created with `booted: false` is started anyway. */
import type { Fault } from "./types.ts";

export const unbootedInstanceBoots: Fault = {
  id: "unbooted-instance-boots",
  description: "booted: false is ignored: every new instance boots once provisioned",
  detectedBy: {
    suites: ["workflow-back-ends"],
    checks: ["assert:an instance created with booted false is not started"],
  },
  apply: (target) =>
    target.wrapHandler("createComputeInstance", (original) => (context) => {
      const body = context.body as Record<string, unknown> | undefined;
      return original(body ? { ...context, body: { ...body, booted: true } } : context);
    }),
};
