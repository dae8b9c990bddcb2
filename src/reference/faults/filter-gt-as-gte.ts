/** X-Filter `+gt` evaluated as `+gte`. */
import type { FilterCondition } from "../filter.ts";
import type { Fault } from "./types.ts";

function gteInsteadOfGt(condition: FilterCondition): FilterCondition {
  if (condition.kind !== "field") return { ...condition, items: condition.items.map(gteInsteadOfGt) };
  return condition.op === "gt" ? { ...condition, op: "gte" } : condition;
}

export const filterGtAsGte: Fault = {
  id: "filter-gt-as-gte",
  description: "X-Filter `+gt` is evaluated as `+gte`: items equal to the bound match",
  detectedBy: { suites: ["filters"] },
  apply(target) {
    const original = target.behaviour.applyFilter;
    target.behaviour.applyFilter = (items, filter) =>
      original(items, { ...filter, condition: gteInsteadOfGt(filter.condition) });
  },
};
