/**
 * `violate-enum`: a value of an allowed type that is not one of the schema's listed values (`"https-not-listed"`
 * for a protocol).
 * @module
 */
import { allowedTypes, typeAllowed, typeOf } from "../_internals/body-schema.ts";
import type { MutationEdit, Mutator } from "../_internals/mutation.ts";

export const violateEnum: Mutator = {
  operator: "violate-enum",
  edits(site) {
    const listed = site.schema.hasConst ? [site.schema.const] : site.schema.enum;
    if (!listed || listed.length === 0 || (!site.present && site.entangled)) return [];
    const types = allowedTypes(site.schema) ?? [];
    const isListed = (value: unknown) =>
      listed.some((item) => JSON.stringify(item) === JSON.stringify(value));
    const edits: MutationEdit[] = [];
    const text = listed.find((item): item is string => typeof item === "string");
    if (text !== undefined && typeAllowed(types, "string")) {
      const value = `${text}-not-listed`;
      if (!isListed(value))
        edits.push({ kind: "set", value, detail: `"${value}" is not one of ${JSON.stringify(listed)}` });
    }
    const numbers = listed.filter((item): item is number => typeof item === "number");
    if (numbers.length > 0 && typeAllowed(types, typeOf(Math.max(...numbers) + 1))) {
      const value = Math.max(...numbers) + 1;
      edits.push({ kind: "set", value, detail: `${value} is not one of ${JSON.stringify(listed)}` });
    }
    return edits;
  },
};
