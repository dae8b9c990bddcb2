/**
 * `violate-pattern`: a string of an allowed length that does not match the schema's `pattern` (`"!!!"` for a
 * label of letters and digits).
 * @module
 */
import { allowedTypes, typeAllowed } from "../_internals/body-schema.ts";
import { patternOf } from "../_internals/conforms.ts";
import type { MutationEdit, Mutator } from "../_internals/mutation.ts";

/** Characters patterns of identifiers, addresses and labels rarely allow, then common ones. */
const fillers = ["!", " ", "~", "#", "\u00e9", "a", "0", "-"];

export const violatePattern: Mutator = {
  operator: "violate-pattern",
  edits(site) {
    const { schema } = site;
    const types = allowedTypes(schema);
    if (schema.pattern === undefined || !types || !typeAllowed(types, "string")) return [];
    if (schema.enum || schema.hasConst || (!site.present && site.entangled)) return [];
    const pattern = patternOf(schema.pattern);
    const length = Math.max(schema.minLength ?? 0, 3);
    if (schema.maxLength !== undefined && schema.maxLength < length) return [];
    const edits: MutationEdit[] = [];
    for (const filler of fillers) {
      const value = filler.repeat(length);
      if (!pattern.test(value))
        edits.push({ kind: "set", value, detail: `"${value}" does not match ${schema.pattern}` });
      if (edits.length === 2) break;
    }
    return edits;
  },
};
