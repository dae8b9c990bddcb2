/** Every page after the first starts one item early: the last item of a page shows again on the next. */
import type { Fault } from "./types.ts";

export const pageRepeatsItem: Fault = {
  id: "page-repeats-item",
  description:
    "each page after the first repeats the previous page's last item (and the list's last item is never shown)",
  detectedBy: {
    suites: ["pagination"],
    checks: ["assert:property: getComputeTypes gives every item once at any page size"],
  },
  apply(target) {
    const original = target.behaviour.paginate;
    target.behaviour.paginate = (items, list, behaviour) => {
      const page = original(items, list, behaviour);
      if (!list || list.page <= 1n || page.data.length === 0) return page;
      const selected = list.filter ? behaviour.applyFilter(items, list.filter) : [...items];
      const start = Number((list.page - 1n) * BigInt(list.pageSize)) - 1;
      return { ...page, data: selected.slice(start, start + list.pageSize) };
    };
  },
};
