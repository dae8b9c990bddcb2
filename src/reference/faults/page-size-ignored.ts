/** `page_size` is checked but not used: every page holds up to 100 items. */
import type { Fault } from "./types.ts";

export const pageSizeIgnored: Fault = {
  id: "page-size-ignored",
  description: "`page_size` is accepted but ignored: pages always hold up to 100 items",
  detectedBy: {
    suites: ["pagination"],
    checks: ["assert:property: getComputeTypes answers page and page_size edges as described"],
  },
  apply(target) {
    const original = target.behaviour.paginate;
    target.behaviour.paginate = (items, list, behaviour) =>
      original(items, list && { ...list, pageSize: 100 }, behaviour);
  },
};
