/** A `page_size` outside 25..500 is clamped into range instead of refused. */
import type { Fault } from "./types.ts";

export const pageSizeOutOfRangeAccepted: Fault = {
  id: "page-size-out-of-range-accepted",
  description: "`page_size` below 25 or above 500 is clamped into range instead of answered 400",
  detectedBy: {
    suites: ["pagination"],
    checks: ["assert:property: getComputeTypes answers page and page_size edges as described"],
  },
  apply(target) {
    const original = target.behaviour.parseListQuery;
    target.behaviour.parseListQuery = (operation, query, header) => {
      const size = query.get("page_size");
      if (size === null || !/^\d+$/.test(size)) return original(operation, query, header);
      const clamped = new URLSearchParams(query);
      clamped.set("page_size", String(Math.min(500, Math.max(25, Number(size)))));
      return original(operation, clamped, header);
    };
  },
};
