/**
 * `violate-discriminator`: names no branch in the property an OpenAPI `discriminator` reads (`"reboot-unmapped"`
 * for an action's `type`), where the discriminator's `mapping` lists the values that do. Kept only where the
 * branches themselves refuse it: a value every validator still accepts is no invalid body (the generator checks).
 * @module
 */
import { allowedTypes, typeAllowed } from "../_internals/body-schema.ts";
import type { Mutator } from "../_internals/mutation.ts";

export const violateDiscriminator: Mutator = {
  operator: "violate-discriminator",
  edits(site) {
    const values = site.discriminatorValues;
    if (!values || values.length === 0 || (!site.present && site.entangled)) return [];
    const types = allowedTypes(site.schema);
    if (types && !typeAllowed(types, "string")) return [];
    const value = `${values[0]}-unmapped`;
    if (values.includes(value)) return [];
    return [{ kind: "set", value, detail: `"${value}" names no branch of ${JSON.stringify(values)}` }];
  },
};
