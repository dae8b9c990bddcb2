/** Rewrites several faults share (not a fault: no id). */
import type { ReplyRewrite } from "../app.ts";

/** Leaves the header `name` (any case) off every answer. */
export function withoutHeader(name: string): ReplyRewrite {
  const lower = name.toLowerCase();
  return (outgoing) => ({
    ...outgoing,
    headers: Object.fromEntries(
      Object.entries(outgoing.headers).filter(([key]) => key.toLowerCase() !== lower),
    ),
  });
}
