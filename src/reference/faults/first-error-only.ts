/** Refused writes report only their first problem, not "as many problems as possible" together. */
import type { Fault } from "./types.ts";

export const firstErrorOnly: Fault = {
  id: "first-error-only",
  description: "a refused write (400 to a POST or PUT) reports only the first of its errors",
  detectedBy: {
    suites: ["invalid-bodies"],
    checks: ["assert:createNodeBalancerConfig: every broken field is named together"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) => {
      const body = outgoing.body as { errors?: unknown[] } | undefined;
      if (outgoing.status !== 400 || !operation?.requestBody || !Array.isArray(body?.errors)) return outgoing;
      return { ...outgoing, body: { ...body, errors: body.errors.slice(0, 1) } };
    }),
};
