/** X-Filter `+order` ignored: always ascending. */
import type { Fault } from "./types.ts";

export const filterOrderIgnored: Fault = {
  id: "filter-order-ignored",
  description: "X-Filter `+order` is ignored: `+order_by` always sorts ascending",
  detectedBy: { suites: ["filters"] },
  apply(target) {
    const original = target.behaviour.applyFilter;
    target.behaviour.applyFilter = (items, filter) => original(items, { ...filter, order: "asc" });
  },
};
