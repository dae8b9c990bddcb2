/**
 * X-Filter `+contains` compares case-insensitively. The server's own evaluator still decides: each `+contains`
 * condition reads a lower-cased copy of its field, held under a name no real field has, with a lower-cased value.
 */
import type { FilterCondition } from "../filter.ts";
import type { Fault } from "./types.ts";

const folded = (name: string) => `\u0000folded:${name}`;

function foldContains(condition: FilterCondition, names: Set<string>): FilterCondition {
  if (condition.kind !== "field") {
    return { ...condition, items: condition.items.map((item) => foldContains(item, names)) };
  }
  if (condition.op !== "contains" || typeof condition.value !== "string") return condition;
  names.add(condition.field.name);
  return {
    ...condition,
    field: { ...condition.field, name: folded(condition.field.name) },
    value: condition.value.toLowerCase(),
  };
}

const lower = (value: unknown): unknown =>
  typeof value === "string" ? value.toLowerCase() : Array.isArray(value) ? value.map(lower) : value;

export const filterContainsCaseFolded: Fault = {
  id: "filter-contains-case-folded",
  description: "X-Filter `+contains` ignores case (`web` matches `Web-3`)",
  detectedBy: { suites: ["filters"] },
  apply(target) {
    const original = target.behaviour.applyFilter;
    target.behaviour.applyFilter = (items, filter) => {
      const names = new Set<string>();
      const condition = foldContains(filter.condition, names);
      if (names.size === 0) return original(items, filter);
      const originals = new Map<object, (typeof items)[number]>();
      const views = items.map((item) => {
        const view: Record<string, unknown> = { ...(item as Record<string, unknown>) };
        for (const name of names) view[folded(name)] = lower(view[name]);
        originals.set(view, item);
        return view;
      });
      return original(views, { ...filter, condition }).map((view) => originals.get(view)!);
    };
  },
};
