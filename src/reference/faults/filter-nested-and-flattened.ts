/** An explicit `+and` nested in a `+or` is flattened: its parts become alternatives of the `+or`. */
import type { Fault } from "./types.ts";

function flatten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(flatten);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => {
      if (key !== "+or" || !Array.isArray(entry)) return [key, flatten(entry)];
      const alternatives = entry.flatMap((element) => {
        const keys = typeof element === "object" && element !== null ? Object.keys(element) : [];
        const inner =
          keys.length === 1 && keys[0] === "+and" ? (element as { "+and": unknown })["+and"] : undefined;
        return Array.isArray(inner) ? inner : [element];
      });
      return [key, alternatives.map(flatten)];
    }),
  );
}

export const filterNestedAndFlattened: Fault = {
  id: "filter-nested-and-flattened",
  description: "X-Filter `{+or: [{+and: [A, B]}, C]}` is read as `{+or: [A, B, C]}`",
  detectedBy: { suites: ["filters"] },
  apply(target) {
    const original = target.behaviour.parseListQuery;
    target.behaviour.parseListQuery = (operation, query, header) => {
      if (header === undefined) return original(operation, query, header);
      try {
        return original(operation, query, JSON.stringify(flatten(JSON.parse(header))));
      } catch {
        return original(operation, query, header);
      }
    };
  },
};
