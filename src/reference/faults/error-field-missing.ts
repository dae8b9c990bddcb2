/** Refused writes answer errors without `field`: the client cannot tell which input is wrong. */
import type { Fault } from "./types.ts";

export const errorFieldMissing: Fault = {
  id: "error-field-missing",
  description: "the errors of a refused write (400 to a POST or PUT) leave out field",
  detectedBy: {
    suites: ["invalid-bodies"],
    checks: [
      "assert:createNodeBalancer: the error names the broken field",
      "assert:a node at a public address: the error names address",
    ],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing, operation) => {
      const body = outgoing.body as { errors?: Record<string, unknown>[] } | undefined;
      if (outgoing.status !== 400 || !operation?.requestBody || !Array.isArray(body?.errors)) return outgoing;
      return {
        ...outgoing,
        body: { ...body, errors: body.errors.map(({ field: _field, ...error }) => error) },
      };
    }),
};
