/**
 * The single-rule mutators, one per file, in the order invalid bodies try them. `combine-independent` builds on
 * them (several rules in one body).
 * @module
 */
import type { Mutator } from "../_internals/mutation.ts";
import { changeType } from "./change-type.ts";
import { nullWhereNotNullable } from "./null-where-not-nullable.ts";
import { removeRequiredProperty } from "./remove-required-property.ts";
import { violateBound } from "./violate-bound.ts";
import { violateDiscriminator } from "./violate-discriminator.ts";
import { violateEnum } from "./violate-enum.ts";
import { violatePattern } from "./violate-pattern.ts";

export type { MutationEdit, MutationSite, Mutator } from "../_internals/mutation.ts";
export { type Candidate, combineIndependent, independentOf } from "./combine-independent.ts";

export const singleRuleMutators: readonly Mutator[] = [
  removeRequiredProperty,
  changeType,
  violateBound,
  violateEnum,
  violatePattern,
  violateDiscriminator,
  nullWhereNotNullable,
];
