/** X-Filter's `entity.id` ignored on the event feed: a condition on it always holds. */
import type { FilterCondition } from "../filter.ts";
import type { Fault } from "./types.ts";

/** An empty AND: always true. */
const always: FilterCondition = { kind: "and", items: [] };

function withoutEntityId(condition: FilterCondition): FilterCondition {
  if (condition.kind !== "field") return { ...condition, items: condition.items.map(withoutEntityId) };
  return condition.field.name === "entity.id" ? always : condition;
}

export const eventEntityFilterIgnored: Fault = {
  id: "event-entity-filter-ignored",
  description:
    "X-Filter's `entity.id` is ignored: filtered by one entity, the feed lists every entity's events",
  detectedBy: {
    suites: ["events"],
    checks: ["assert:a filter on entity.id lists only events of that entity"],
  },
  apply(target) {
    const original = target.behaviour.applyFilter;
    target.behaviour.applyFilter = (items, filter) =>
      original(items, { ...filter, condition: withoutEntityId(filter.condition) });
  },
};
