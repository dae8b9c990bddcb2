/**
 * `null-where-not-nullable`: sends `null` where the schema does not allow it (no `null` type, no `null` in its
 * enum). A property left out and a property sent as null are different things to the contract.
 * @module
 */
import { allowedTypes } from "../_internals/body-schema.ts";
import type { Mutator } from "../_internals/mutation.ts";

export const nullWhereNotNullable: Mutator = {
  operator: "null-where-not-nullable",
  edits(site) {
    const types = allowedTypes(site.schema);
    if (!types || types.length === 0 || types.includes("null")) return [];
    if (!site.present && site.entangled) return [];
    return [{ kind: "set", value: null, detail: `null where ${types.join(" or ")} goes` }];
  },
};
