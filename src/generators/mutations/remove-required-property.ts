/**
 * `remove-required-property`: leaves out a property its object requires (`required`, or `dependentRequired` when
 * the property that needs it is sent). The error must name the missing property.
 * @module
 */
import type { Mutator } from "../_internals/mutation.ts";

export const removeRequiredProperty: Mutator = {
  operator: "remove-required-property",
  edits(site) {
    if (!site.present || !site.required) return [];
    return [{ kind: "remove", detail: "a required property left out" }];
  },
};
