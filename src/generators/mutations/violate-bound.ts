/**
 * `violate-bound`: a value of the right type just outside one bound of the schema: below `minimum` (or at an
 * exclusive one), above `maximum`, a string one character shorter than `minLength` or longer than `maxLength`, an
 * array one item short of `minItems` or over `maxItems`.
 * @module
 */
import { allowedTypes, typeAllowed } from "../_internals/body-schema.ts";
import type { MutationEdit, Mutator } from "../_internals/mutation.ts";

export const violateBound: Mutator = {
  operator: "violate-bound",
  edits(site, current) {
    const { schema } = site;
    const types = allowedTypes(schema);
    if (!types || schema.enum || schema.hasConst || (!site.present && site.entangled)) return [];
    const edits: MutationEdit[] = [];
    const set = (value: unknown, detail: string) => edits.push({ kind: "set", value, detail });
    if (typeAllowed(types, "integer")) {
      // Integer steps where integers go; half steps only where any number goes.
      const step = types.includes("integer") || !types.includes("number") ? 1 : 0.5;
      if (schema.minimum !== undefined)
        set(Math.ceil(schema.minimum) - step, `below the minimum ${schema.minimum}`);
      if (schema.exclusiveMinimum !== undefined) {
        set(
          Math.floor(schema.exclusiveMinimum),
          `not above the exclusive minimum ${schema.exclusiveMinimum}`,
        );
      }
      if (schema.maximum !== undefined)
        set(Math.floor(schema.maximum) + step, `above the maximum ${schema.maximum}`);
      if (schema.exclusiveMaximum !== undefined) {
        set(Math.ceil(schema.exclusiveMaximum), `not below the exclusive maximum ${schema.exclusiveMaximum}`);
      }
    }
    if (typeAllowed(types, "string")) {
      if (schema.minLength !== undefined && schema.minLength > 0) {
        set("a".repeat(schema.minLength - 1), `shorter than minLength ${schema.minLength}`);
      }
      if (schema.maxLength !== undefined)
        set("a".repeat(schema.maxLength + 1), `longer than maxLength ${schema.maxLength}`);
    }
    // Arrays are cut or padded from the valid items already there, so every item stays valid.
    if (typeAllowed(types, "array") && Array.isArray(current)) {
      if (schema.minItems !== undefined && schema.minItems > 0 && current.length >= schema.minItems - 1) {
        set(current.slice(0, schema.minItems - 1), `fewer items than minItems ${schema.minItems}`);
      }
      if (schema.maxItems !== undefined && current.length > 0) {
        const padded = Array.from(
          { length: schema.maxItems + 1 },
          (_, index) => current[index % current.length],
        );
        set(padded, `more items than maxItems ${schema.maxItems}`);
      }
    }
    return edits;
  },
};
