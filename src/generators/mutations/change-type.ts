/**
 * `change-type`: puts a value of a JSON type the schema does not allow (a string where an integer goes, an
 * object where a string goes). `null` is left to `null-where-not-nullable`, and the strings used are never
 * numeric or boolean words a lenient parser could coerce (`"12"`, `"true"`).
 * @module
 */
import { allowedTypes, type JsonType, typeAllowed } from "../_internals/body-schema.ts";
import type { MutationEdit, Mutator } from "../_internals/mutation.ts";

const samples: readonly (readonly [JsonType, unknown])[] = [
  ["string", "not-of-this-type"],
  ["integer", 12345],
  ["number", 1.5],
  ["boolean", true],
  ["object", { conform: "wrong-type" }],
  ["array", ["wrong-type"]],
];

export const changeType: Mutator = {
  operator: "change-type",
  edits(site) {
    const types = allowedTypes(site.schema);
    if (!types || types.length === 0 || (!site.present && site.entangled)) return [];
    const edits: MutationEdit[] = [];
    for (const [type, value] of samples) {
      if (typeAllowed(types, type)) continue;
      // An integer is also a number: offer 12345 only where neither goes.
      if (type === "integer" && types.includes("number")) continue;
      edits.push({ kind: "set", value, detail: `a ${type} where ${types.join(" or ")} goes` });
    }
    return edits;
  },
};
