/** X-Filter `+neq` ignored: the condition always holds. */
import type { FilterCondition } from "../filter.ts";
import type { Fault } from "./types.ts";

/** An empty AND: always true. */
const always: FilterCondition = { kind: "and", items: [] };

function withoutNeq(condition: FilterCondition): FilterCondition {
  if (condition.kind !== "field") return { ...condition, items: condition.items.map(withoutNeq) };
  return condition.op === "neq" ? always : condition;
}

export const filterNeqIgnored: Fault = {
  id: "filter-neq-ignored",
  description: "X-Filter `+neq` is ignored: an item equal to the value still matches",
  detectedBy: { suites: ["filters"] },
  apply(target) {
    const original = target.behaviour.applyFilter;
    target.behaviour.applyFilter = (items, filter) =>
      original(items, { ...filter, condition: withoutNeq(filter.condition) });
  },
};
