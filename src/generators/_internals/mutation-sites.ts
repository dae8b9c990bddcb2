/**
 * The places of a body where a rule can be broken: the body itself, every declared property of every object in
 * it (sent or not; `readOnly` ones are not request fields), every array item. Only declared properties: an
 * undeclared one is never a mutation (the real service's request schemas are open). Inside an `anyOf`/`oneOf`,
 * the places of the branch the value matches (nested ones too).
 * @module
 * @internal
 */
import { childPointer } from "../../spec/pointer.ts";
import { type BodySchema, merge } from "./body-schema.ts";
import { conforms } from "./conforms.ts";
import type { MutationSite } from "./mutation.ts";

export function mutationSites(schema: BodySchema, body: unknown): MutationSite[] {
  const sites: MutationSite[] = [];
  visit(schema, body, { pointer: "", present: true, required: false, entangledWith: [] }, false, sites, 0);
  return sites;
}

/** What a place is, as its parent sees it. */
interface Place {
  readonly pointer: string;
  readonly present: boolean;
  readonly required: boolean;
  readonly entangledWith: readonly string[];
  readonly arrayParent?: string;
  readonly discriminatorValues?: readonly string[];
}

function visit(
  schema: BodySchema,
  value: unknown,
  place: Place,
  inBranch: boolean,
  sites: MutationSite[],
  depth: number,
): void {
  const { pointer, present, entangledWith } = place;
  sites.push({
    pointer,
    schema,
    present,
    required: place.required,
    entangled: entangledWith.length > 0,
    ...(entangledWith.length > 0 ? { entangledWith } : {}),
    ...(place.arrayParent === undefined ? {} : { arrayParent: place.arrayParent }),
    ...(inBranch ? { inBranch } : {}),
    ...(place.discriminatorValues ? { discriminatorValues: place.discriminatorValues } : {}),
  });
  if (!present || depth > 16) return;
  // Inside an `anyOf`/`oneOf` (and one in its branch), the rules of the branch the value matched.
  let inner = schema;
  for (let nesting = 0; inner.anyOf && nesting < 4; nesting += 1) {
    const branch = matchedBranch(inner, value);
    if (!branch) break;
    inner = branch;
  }
  const innerInBranch = inBranch || inner !== schema;
  if (Array.isArray(value)) {
    if (!inner.items) return;
    value.forEach((item, index) => {
      const at = { pointer: childPointer(pointer, index), present: true, required: false, entangledWith: [] };
      visit(inner.items!, item, { ...at, arrayParent: pointer }, innerInBranch, sites, depth + 1);
    });
    return;
  }
  if (typeof value !== "object" || value === null || !inner.properties) return;
  visitProperties(inner, value as Record<string, unknown>, pointer, innerInBranch, sites, depth);
}

function visitProperties(
  schema: BodySchema,
  record: Record<string, unknown>,
  pointer: string,
  inBranch: boolean,
  sites: MutationSite[],
  depth: number,
): void {
  const required = new Set(schema.required ?? []);
  const dependent = schema.dependentRequired ?? {};
  // Who is tied to whom by dependentRequired, both ways.
  const ties = new Map<string, Set<string>>();
  for (const [name, needs] of Object.entries(dependent)) {
    for (const other of needs) {
      if (!ties.has(name)) ties.set(name, new Set());
      if (!ties.has(other)) ties.set(other, new Set());
      ties.get(name)!.add(other);
      ties.get(other)!.add(name);
    }
  }
  // A property another sent property depends on is required too (`dependentRequired`).
  for (const [name, needs] of Object.entries(dependent)) {
    if (Object.hasOwn(record, name)) for (const other of needs) required.add(other);
  }
  const discriminator = schema.discriminator;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.readOnly) continue;
    const place: Place = {
      pointer: childPointer(pointer, name),
      present: Object.hasOwn(record, name),
      required: required.has(name),
      entangledWith: [...(ties.get(name) ?? [])].map((other) => childPointer(pointer, other)),
      ...(discriminator?.propertyName === name && discriminator.values.length > 0
        ? { discriminatorValues: discriminator.values }
        : {}),
    };
    visit(property, record[name], place, inBranch, sites, depth + 1);
  }
}

/**
 * The branch of `schema`'s `anyOf`/`oneOf` that `value` matches, with the keywords around the alternatives
 * (`allOf`: both hold), or undefined where the schema has none (or, against its construction, no branch matches).
 */
function matchedBranch(schema: BodySchema, value: unknown): BodySchema | undefined {
  if (!schema.anyOf || schema.anyOf.length === 0) return undefined;
  const branch = schema.anyOf.find((candidate) => conforms(candidate, value));
  if (!branch) return undefined;
  const { anyOf: _anyOf, oneOf: _oneOf, ...around } = schema;
  return merge(around, branch);
}
