/**
 * `invalidFilterObject`: X-Filter header values that break exactly one rule of the description, each with its
 * provenance (`negative`, scenario `filter-<rule>`, mutation `{operator: <rule>, pointer, field: "X-Filter",
 * detail}`): a target must answer 400 with an error, never 200 or 500. For `unfilterable-field` the description
 * also fixes the error: reason `Cannot filter on <detail>`, field `X-Filter`.
 *
 * Each value starts from a valid filter of the list ({@link filterObject}, so the rest of it is well formed) and
 * breaks one rule, at the top level or inside a `+and`/`+or` element; the mutation's `pointer` says where.
 * Only rules the description states are broken (never what it leaves open, such as `+order_by` on a list field).
 * @module
 * @public
 */
import fc from "fast-check";
import type { FilterableField } from "../spec/types.ts";
import { profileField } from "./_internals/filter-values.ts";
import { type Generated, negative } from "./case-meta.ts";
import { type FilterValue, filterObject } from "./filter-object.ts";

export const invalidFilterRules = [
  "not-json",
  "not-an-object",
  "unfilterable-field",
  "unknown-operator",
  "operator-value-type",
  "logical-not-array",
  "logical-element-not-object",
  "order-without-order-by",
  "order-by-not-string",
  "order-by-unfilterable",
  "order-value",
] as const;
export type InvalidFilterRule = (typeof invalidFilterRules)[number];

export interface InvalidFilter {
  /** The X-Filter header as sent (not always JSON). */
  readonly header: string;
}

export interface InvalidFilterConstraints {
  readonly fields: readonly FilterableField[];
  /** The items the target holds (the valid rest of each filter draws its values from them). */
  readonly items: readonly object[];
  /** Real field names of the list's items that are not filterable (`status`, `created`); made-up ones are added. */
  readonly unfilterable?: readonly string[];
  /** Rules to break (default: every one the fields allow). */
  readonly rules?: readonly InvalidFilterRule[];
}

interface Breach {
  readonly header: string;
  readonly pointer: string;
  /** The key at fault, when one is (the field named in `Cannot filter on <field>`). */
  readonly key?: string;
}

const madeUpNames = ["colour", "no_such_field", "created_by", "owner", "flavour"];
const unknownOperators = ["+like", "+in", "+eq", "+ne", "+regex", "+not", "+exists", "+between"];

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** A breach placed at the top level of `base`, or as the second element of a `+and`/`+or` beside it. */
function placed(
  base: fc.Arbitrary<FilterValue>,
  breach: fc.Arbitrary<{ readonly object: FilterValue; readonly path: string; readonly key?: string }>,
): fc.Arbitrary<Breach> {
  return fc
    .tuple(base, breach, fc.constantFrom("top", "+and", "+or"))
    .map(([rest, { object, path, key }, where]) => {
      const filter = where === "top" ? { ...rest, ...object } : { [where]: [rest, object] };
      const pointer = where === "top" ? path : `/${where}/1${path}`;
      return { header: JSON.stringify(filter), pointer, ...(key !== undefined ? { key } : {}) };
    });
}

const notNumber = fc.oneof(
  fc.constantFrom("abc", "five", "", "1a", "true"),
  fc.boolean(),
  fc.constant(null),
  fc.constant([1]),
  fc.constant({}),
);
const notString = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(["a"]),
  fc.constant({}),
);
const notScalar = fc.oneof(fc.constant(["a"]), fc.constant({ a: 1 }), fc.constant([]));

type Breaches = Partial<Record<InvalidFilterRule, fc.Arbitrary<Breach>>>;
type FieldProfile = ReturnType<typeof profileField>;

/**
 * X-Filter values that each break one rule, with provenance `negative` / `filter-<rule>`.
 * @public
 */
export function invalidFilterObject(
  constraints: InvalidFilterConstraints,
): fc.Arbitrary<Generated<InvalidFilter>> {
  const filterable = new Set(constraints.fields.map((field) => field.name));
  // A lenient field's conditions are not judged (the oracle leaves them open): breaches sit on the others.
  const fields = constraints.fields.filter((field) => !field.lenient);
  const base = validRest(fields, constraints.items);
  const unfilterable = unfilterableName(fields, filterable, constraints.unfilterable ?? []);
  const profiles = fields.map((field) => profileField(field, constraints.items));
  const orderable = profiles.filter((profile) => profile.orderable).map((profile) => profile.field.name);
  const rules: Breaches = {
    ...syntaxBreaches(base),
    ...keyBreaches(
      base,
      unfilterable,
      fields.map((field) => field.name),
    ),
    ...valueTypeBreach(base, profiles),
    ...orderBreaches(base, unfilterable, orderable),
  };
  const wanted = (constraints.rules ?? invalidFilterRules).filter((rule) => rules[rule] !== undefined);
  if (wanted.length === 0)
    throw new RangeError("invalidFilterObject: no rule can be broken with these fields");
  return fc.oneof(...wanted.map((rule) => rules[rule]!.map((breach) => withProvenance(rule, breach))));
}

/** The valid rest of a filter: none, or a valid filter of the list's fields. */
function validRest(fields: readonly FilterableField[], items: readonly object[]): fc.Arbitrary<FilterValue> {
  if (fields.length === 0) return fc.constant({});
  return fc.oneof(
    fc.constant({}),
    filterObject({
      fields,
      items,
      scenarios: ["equality", "comparison", "contains", "neq", "implicit-and", "or"],
    }).map((generated) => generated.value),
  );
}

/** A name no filter may use: made up, a real unfilterable field, or a made-up sibling of a nested filterable one. */
function unfilterableName(
  fields: readonly FilterableField[],
  filterable: ReadonlySet<string>,
  unfilterable: readonly string[],
): fc.Arbitrary<string> {
  const realUnfilterable = unfilterable.filter(
    (name) => !filterable.has(name) && !name.startsWith("+") && name.length > 0,
  );
  // Beside a nested filterable field (`entity.id`), a made-up sibling (`entity.colour`): a dotted key is
  // filterable only where the description marks that nested property.
  const nestedMadeUp = fields.flatMap((field) =>
    field.path ? [[...field.path.slice(0, -1), "colour"].join(".")] : [],
  );
  return fc.oneof(
    fc.constantFrom(
      ...[...madeUpNames, ...nestedMadeUp, ...realUnfilterable].filter((name) => !filterable.has(name)),
    ),
    fc.stringMatching(/^[a-z][a-z_]{1,15}$/).filter((name) => !filterable.has(name)),
  );
}

/** Headers that are not JSON, or JSON but not an object. */
function syntaxBreaches(base: fc.Arbitrary<FilterValue>): Breaches {
  return {
    "not-json": fc
      .tuple(
        base,
        fc.constantFrom("cut-last", "single-quotes", "trailing-comma", "bare-words", "unclosed-string"),
      )
      .map(([rest, how]) => {
        const text = JSON.stringify(rest);
        if (how === "cut-last") return text.slice(0, -1);
        if (how === "single-quotes") return text === "{}" ? "{'a':1}" : text.replaceAll('"', "'");
        if (how === "trailing-comma") return `${text.slice(0, -1)}${text === "{}" ? '"a":1,' : ","}}`;
        if (how === "bare-words") return "{region: us-east}";
        return '{"label": "unclosed';
      })
      .filter((text) => !parses(text))
      .map((header) => ({ header, pointer: "" })),
    "not-an-object": fc
      .oneof(
        base.map((rest) => [rest] as unknown),
        fc.constantFrom<unknown>("label", 42, null, true, [], 0, ""),
      )
      .map((value) => ({ header: JSON.stringify(value), pointer: "" })),
  };
}

/** Keys that break a rule: an unfilterable field, an unknown operator, a logical operator not over objects. */
function keyBreaches(
  base: fc.Arbitrary<FilterValue>,
  unfilterable: fc.Arbitrary<string>,
  anyField: readonly string[],
): Breaches {
  return {
    "unfilterable-field": placed(
      base,
      fc.tuple(unfilterable, fc.constantFrom<unknown>("x", 1, true)).map(([name, value]) => ({
        object: { [name]: value },
        path: `/${name}`,
        key: name,
      })),
    ),
    "unknown-operator": placed(
      base,
      fc.oneof(
        ...(anyField.length > 0
          ? [
              fc
                .tuple(fc.constantFrom(...anyField), fc.constantFrom(...unknownOperators))
                .map(([name, operator]) => ({
                  object: { [name]: { [operator]: "x" } },
                  path: `/${name}/${operator}`,
                  key: operator,
                })),
            ]
          : []),
        fc.constantFrom(...unknownOperators).map((operator) => ({
          object: { [operator]: "x" },
          path: `/${operator}`,
          key: operator,
        })),
      ),
    ),
    "logical-not-array": placed(
      base,
      fc
        .tuple(
          fc.constantFrom("+and", "+or"),
          fc.oneof(
            base.map((rest) => rest as unknown),
            fc.constantFrom<unknown>("x", 1, true),
          ),
        )
        .map(([operator, value]) => ({ object: { [operator]: value }, path: `/${operator}`, key: operator })),
    ),
    "logical-element-not-object": placed(
      base,
      fc
        .tuple(fc.constantFrom("+and", "+or"), base, fc.constantFrom<unknown>("x", 1, null, true, [], [{}]))
        .map(([operator, rest, bad]) => ({
          object: { [operator]: [rest, bad] },
          path: `/${operator}/1`,
          key: operator,
        })),
    ),
  };
}

/** An operator's value of the wrong type (a comparison with no number, `+contains` with no string), where fields allow. */
function valueTypeBreach(base: fc.Arbitrary<FilterValue>, profiles: readonly FieldProfile[]): Breaches {
  const typed = [
    ...profiles
      .filter((profile) => profile.numeric)
      .map((profile) =>
        fc
          .tuple(fc.constantFrom("+gt", "+gte", "+lt", "+lte"), notNumber)
          .map(([operator, value]) => ({ name: profile.field.name, operator, value })),
      ),
    ...profiles
      .filter((profile) => profile.textual)
      .map((profile) =>
        fc.oneof(
          notString.map((value) => ({ name: profile.field.name, operator: "+contains", value })),
          notScalar.map((value) => ({ name: profile.field.name, operator: "+neq", value })),
        ),
      ),
  ];
  if (typed.length === 0) return {};
  return {
    "operator-value-type": placed(
      base,
      fc.oneof(...typed).map(({ name, operator, value }) => ({
        object: { [name]: { [operator]: value } },
        path: `/${name}/${operator}`,
        key: operator,
      })),
    ),
  };
}

/** `+order` and `+order_by` broken: one without the other, not a string, an unfilterable field, a bad direction. */
function orderBreaches(
  base: fc.Arbitrary<FilterValue>,
  unfilterable: fc.Arbitrary<string>,
  orderable: readonly string[],
): Breaches {
  const breaches: Breaches = {
    "order-without-order-by": fc
      .tuple(base, fc.constantFrom("asc", "desc"))
      .map(([rest, order]) => ({ header: JSON.stringify({ ...rest, "+order": order }), pointer: "/+order" })),
    "order-by-not-string": fc
      .tuple(base, fc.constantFrom<unknown>(1, true, ["label"], { field: "label" }))
      .map(([rest, orderBy]) => ({
        header: JSON.stringify({ ...rest, "+order_by": orderBy }),
        pointer: "/+order_by",
      })),
    "order-by-unfilterable": fc.tuple(base, unfilterable).map(([rest, name]) => ({
      header: JSON.stringify({ ...rest, "+order_by": name }),
      pointer: "/+order_by",
      key: name,
    })),
  };
  if (orderable.length === 0) return breaches;
  breaches["order-value"] = fc
    .tuple(
      base,
      fc.constantFrom(...orderable),
      fc.constantFrom<unknown>("up", "down", "ascending", "", "random", 1, true, null),
    )
    .map(([rest, orderBy, order]) => ({
      header: JSON.stringify({ ...rest, "+order_by": orderBy, "+order": order }),
      pointer: "/+order",
    }));
  return breaches;
}

function withProvenance(rule: InvalidFilterRule, { header, pointer, key }: Breach): Generated<InvalidFilter> {
  return {
    value: { header },
    meta: negative(`filter-${rule}`, {
      operator: rule,
      pointer,
      field: "X-Filter",
      ...(key !== undefined ? { detail: key } : {}),
    }),
  };
}
