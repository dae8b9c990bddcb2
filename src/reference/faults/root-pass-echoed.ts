/** An instance's create answer echoes the root password it was given. */
import type { Fault } from "./types.ts";

export const rootPassEchoed: Fault = {
  id: "root-pass-echoed",
  description: "the create of an instance echoes its root_pass in the answer",
  detectedBy: { suites: ["workflow-back-ends"], checks: ["secrets-not-returned"] },
  apply: (target) =>
    target.wrapHandler("createComputeInstance", (original) => async (context) => {
      const reply = await original(context);
      const rootPass = (context.body as { root_pass?: unknown } | undefined)?.root_pass;
      if (reply.status !== 200 || typeof rootPass !== "string") return reply;
      return { ...reply, body: { ...(reply.body as object), root_pass: rootPass } };
    }),
};
