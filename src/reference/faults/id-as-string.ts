/** Successful answers carry a resource's integer `id` as a string (`"1001"`), against the schema. */
import type { Fault } from "./types.ts";

export const idAsString: Fault = {
  id: "id-as-string",
  description: "2xx answers show a resource's integer id as a string",
  detectedBy: { suites: ["valid-bodies"], checks: ["body-matches-schema"] },
  apply: (target) =>
    target.rewriteReplies((outgoing) => {
      const body = outgoing.body as { id?: unknown } | undefined;
      if (outgoing.status < 200 || outgoing.status >= 300 || typeof body?.id !== "number") return outgoing;
      return { ...outgoing, body: { ...body, id: String(body.id) }, raw: undefined };
    }),
};
