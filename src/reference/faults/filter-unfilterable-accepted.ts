/** X-Filter keys naming fields that are not filterable are silently dropped instead of refused. */
import type { Fault } from "./types.ts";

const operators = new Set(["+and", "+or", "+order_by", "+order"]);

/** The filter without its keys that are neither filterable fields nor operators (nested ones too). */
function dropUnfilterable(value: unknown, filterable: ReadonlySet<string>): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => filterable.has(key) || operators.has(key) || !/^[^+]/.test(key))
      .map(([key, entry]) => [
        key,
        (key === "+and" || key === "+or") && Array.isArray(entry)
          ? entry.map((element) => dropUnfilterable(element, filterable))
          : entry,
      ]),
  );
}

export const filterUnfilterableAccepted: Fault = {
  id: "filter-unfilterable-accepted",
  description: "X-Filter on a field that is not filterable is accepted (the key is ignored) instead of 400",
  detectedBy: {
    suites: ["filters"],
    checks: ["assert:getRegions refuses a filter on id with Cannot filter on id"],
  },
  apply(target) {
    const original = target.behaviour.parseListQuery;
    target.behaviour.parseListQuery = (operation, query, header) => {
      if (header === undefined) return original(operation, query, header);
      let parsed: unknown;
      try {
        parsed = JSON.parse(header);
      } catch {
        return original(operation, query, header);
      }
      const filterable = new Set(operation.filterableFields.map((field) => field.name));
      return original(operation, query, JSON.stringify(dropUnfilterable(parsed, filterable)));
    };
  },
};
