/**
 * `filterObject`: X-Filter objects for a paginated list, valid by construction, each with its provenance
 * (`positive`, scenario `filter-<scenario>`). Built from the list's filterable fields (the spec's
 * `x-*-filterable`) with values drawn from the items the target holds, so filters select non-trivially:
 * equality, every comparison operator, `+contains`, `+neq`, several keys (implicit AND), `+and` / `+or` nested a
 * few levels, and `+order_by` / `+order`.
 *
 * Only what the description makes valid is generated (see `src/oracles/filter-oracle.ts`): comparisons on
 * numeric fields with numbers, `+contains` and `+neq` on string fields with strings, equality with a value of the
 * field's type (never null), ordering at the top level by a single-valued field, arrays of at least one element.
 *
 * ```ts
 * const filters = filterObject({ fields: operation.filterableFields, items: unfiltered });
 * await fc.check(fc.asyncProperty(filters, async ({ value, meta }) => ...), { seed, numRuns: 20 });
 * ```
 * @module
 * @public
 */
import fc from "fast-check";
import type { FilterableField } from "../spec/types.ts";
import {
  type FieldProfile,
  heldText,
  heldValue,
  nearNumber,
  profileField,
  textPiece,
} from "./_internals/filter-values.ts";
import { type Generated, positive } from "./case-meta.ts";

/** A JSON filter object as sent in `X-Filter`. */
export type FilterValue = { readonly [key: string]: unknown };

export const filterScenarios = [
  "equality",
  "comparison",
  "range",
  "contains",
  "neq",
  "implicit-and",
  "and",
  "or",
  "nested",
  "order",
] as const;
export type FilterScenario = (typeof filterScenarios)[number];

export interface FilterObjectConstraints {
  /** The list's filterable fields (`OperationInfo.filterableFields`). */
  readonly fields: readonly FilterableField[];
  /** The items the target holds (the whole unfiltered collection, or a sample): values are drawn from them. */
  readonly items: readonly object[];
  /** Scenarios to draw from (default: every one the fields allow). */
  readonly scenarios?: readonly FilterScenario[];
  /** Deepest nesting of `+and`/`+or` in the `nested` scenario (default 3, at least 2). */
  readonly maxDepth?: number;
}

/** The scenarios a list's fields allow (comparisons need a numeric field, `+contains`/`+neq` a string one). */
export function scenariosFor(fields: readonly FilterableField[]): FilterScenario[] {
  const profiles = judgeable(fields).map((field) => profileField(field, []));
  return filterScenarios.filter((scenario) => builders(profiles, 2)[scenario] !== undefined);
}

/** Lenient fields are accepted but their narrowing is not promised: a filter on them judges nothing. */
const judgeable = (fields: readonly FilterableField[]) => fields.filter((field) => !field.lenient);

type Builders = Partial<Record<FilterScenario, fc.Arbitrary<FilterValue>>>;

/** One condition on one field: `{field: value}` or `{field: {op: value}}`. */
function conditions(profiles: readonly FieldProfile[]) {
  const numeric = profiles.filter((profile) => profile.numeric);
  const textual = profiles.filter((profile) => profile.textual);
  const pick = (
    list: readonly FieldProfile[],
    build: (profile: FieldProfile) => fc.Arbitrary<FilterValue>,
  ): fc.Arbitrary<FilterValue> | undefined => (list.length === 0 ? undefined : fc.oneof(...list.map(build)));
  const equality = pick(profiles, (profile) =>
    heldValue(profile).map((value) => ({ [profile.field.name]: value })),
  );
  const comparison = pick(numeric, (profile) =>
    fc
      .tuple(fc.constantFrom("+gt", "+gte", "+lt", "+lte"), nearNumber(profile))
      .map(([operator, value]) => ({ [profile.field.name]: { [operator]: value } })),
  );
  const range = pick(numeric, (profile) =>
    fc
      .tuple(nearNumber(profile), nearNumber(profile), fc.boolean(), fc.boolean())
      .map(([a, b, strictLow, strictHigh]) => ({
        [profile.field.name]: {
          [strictLow ? "+gt" : "+gte"]: Math.min(a, b),
          [strictHigh ? "+lt" : "+lte"]: Math.max(a, b),
        },
      })),
  );
  const contains = pick(textual, (profile) =>
    textPiece(profile).map((piece) => ({ [profile.field.name]: { "+contains": piece } })),
  );
  const neq = pick(textual, (profile) =>
    heldText(profile).map((value) => ({ [profile.field.name]: { "+neq": value } })),
  );
  return { equality, comparison, range, contains, neq };
}

function builders(profiles: readonly FieldProfile[], maxDepth: number): Builders {
  if (profiles.length === 0) return {};
  const atoms = conditions(profiles);
  const anyAtom = fc.oneof(
    { withCrossShrink: true },
    ...[atoms.equality, atoms.comparison, atoms.range, atoms.contains, atoms.neq].filter(
      (arbitrary): arbitrary is fc.Arbitrary<FilterValue> => arbitrary !== undefined,
    ),
  );
  /** Several conditions on distinct fields in one object (implicit AND). */
  const implicitAnd =
    profiles.length < 2
      ? undefined
      : fc
          .uniqueArray(anyAtom, {
            minLength: 2,
            maxLength: Math.min(3, profiles.length),
            selector: (atom) => Object.keys(atom)[0],
          })
          .map((parts) => Object.assign({}, ...parts) as FilterValue);
  const element = implicitAnd
    ? fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: anyAtom }, implicitAnd)
    : anyAtom;
  const logical = (key: "+and" | "+or", of: fc.Arbitrary<FilterValue>) =>
    fc.array(of, { minLength: 1, maxLength: 3 }).map((parts) => ({ [key]: parts }));
  const { tree } = fc.letrec<{ tree: FilterValue }>((tie) => ({
    tree: fc.oneof(
      { depthSize: "small", maxDepth: Math.max(2, maxDepth), withCrossShrink: true },
      element,
      logical("+and", tie("tree")),
      logical("+or", tie("tree")),
    ),
  }));
  /** An AND inside an OR, or an OR inside an AND, at least: what a flattening evaluator gets wrong. */
  const nested = fc
    .tuple(
      fc.constantFrom("+and", "+or"),
      fc.array(tree, { minLength: 1, maxLength: 2 }),
      element,
      fc.array(tree, { maxLength: 2 }),
    )
    .map(([outer, inner, other, siblings]) => {
      const innerKey = outer === "+and" ? "+or" : "+and";
      return { [outer]: [{ [innerKey]: [...inner, other] }, ...siblings] } as FilterValue;
    });
  const orderable = profiles.filter((profile) => profile.orderable);
  const order =
    orderable.length === 0
      ? undefined
      : fc
          .tuple(
            fc.option(fc.oneof(element, logical("+or", element)), { nil: undefined }),
            fc.constantFrom(...orderable.map((profile) => profile.field.name)),
            fc.constantFrom(undefined, "asc", "desc"),
          )
          .map(([where, field, direction]) => ({
            ...where,
            "+order_by": field,
            ...(direction ? { "+order": direction } : {}),
          }));
  return {
    ...(atoms.equality ? { equality: atoms.equality } : {}),
    ...(atoms.comparison ? { comparison: atoms.comparison } : {}),
    ...(atoms.range ? { range: atoms.range } : {}),
    ...(atoms.contains ? { contains: atoms.contains } : {}),
    ...(atoms.neq ? { neq: atoms.neq } : {}),
    ...(implicitAnd ? { "implicit-and": implicitAnd } : {}),
    and: logical("+and", element),
    or: logical("+or", element),
    nested,
    ...(order ? { order } : {}),
  };
}

/**
 * Valid X-Filter objects for a list, with provenance `positive` / `filter-<scenario>`.
 * @public
 */
export function filterObject(constraints: FilterObjectConstraints): fc.Arbitrary<Generated<FilterValue>> {
  const profiles = judgeable(constraints.fields).map((field) => profileField(field, constraints.items));
  const available = builders(profiles, constraints.maxDepth ?? 3);
  const wanted = (constraints.scenarios ?? filterScenarios).filter((scenario) => available[scenario]);
  if (wanted.length === 0) {
    throw new RangeError(
      `filterObject: no scenario of ${JSON.stringify(constraints.scenarios ?? filterScenarios)} fits fields ${constraints.fields.map((field) => field.name).join(", ") || "(none)"}`,
    );
  }
  return fc.oneof(
    ...wanted.map((scenario) =>
      available[scenario]!.map((value) => ({ value, meta: positive(`filter-${scenario}`) })),
    ),
  );
}
