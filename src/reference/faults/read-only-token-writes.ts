/** A token holding an area's read_only scope may also use the area's writes (read_only implies read_write). */
import type { Fault } from "./types.ts";

export const readOnlyTokenWrites: Fault = {
  id: "read-only-token-writes",
  description: "a read_only token is allowed the read_write operations of its area",
  detectedBy: { suites: ["auth"], checks: ["assert:a read_only token cannot write"] },
  apply: ({ behaviour }) => {
    const clean = behaviour.scopeAllows;
    behaviour.scopeAllows = (granted, required) =>
      clean(granted, required) ||
      clean(
        granted,
        required.map((scope) => scope.replace(/:read_write$/, ":read_only")),
      );
  },
};
