/** X-Filter `+or` evaluated as `+and`. */
import type { FilterCondition } from "../filter.ts";
import type { Fault } from "./types.ts";

function andInsteadOfOr(condition: FilterCondition): FilterCondition {
  if (condition.kind === "field") return condition;
  return { kind: "and", items: condition.items.map(andInsteadOfOr) };
}

export const filterOrAsAnd: Fault = {
  id: "filter-or-as-and",
  description: "X-Filter `+or` is evaluated as `+and`: every alternative must hold",
  detectedBy: { suites: ["filters"] },
  apply(target) {
    const original = target.behaviour.applyFilter;
    target.behaviour.applyFilter = (items, filter) =>
      original(items, { ...filter, condition: andInsteadOfOr(filter.condition) });
  },
};
