/**
 * The places of a body where a rule can be broken: the body itself, every declared property of every object in
 * it (sent or not; `readOnly` ones are not request fields), every array item. Only declared properties: an
 * undeclared one is never a mutation (the real service's request schemas are open).
 * @module
 * @internal
 */
import { childPointer } from "../../spec/pointer.ts";
import type { BodySchema } from "./body-schema.ts";
import type { MutationSite } from "./mutation.ts";

export function mutationSites(schema: BodySchema, body: unknown): MutationSite[] {
  const sites: MutationSite[] = [];
  visit(schema, body, "", true, false, [], undefined, sites, 0);
  return sites;
}

function visit(
  schema: BodySchema,
  value: unknown,
  pointer: string,
  present: boolean,
  isRequired: boolean,
  entangled: readonly string[],
  arrayParent: string | undefined,
  sites: MutationSite[],
  depth: number,
): void {
  sites.push({
    pointer,
    schema,
    present,
    required: isRequired,
    entangled: entangled.length > 0,
    ...(entangled.length > 0 ? { entangledWith: entangled } : {}),
    ...(arrayParent === undefined ? {} : { arrayParent }),
  });
  if (!present || depth > 16) return;
  if (Array.isArray(value)) {
    if (!schema.items) return;
    value.forEach((item, index) => {
      visit(schema.items!, item, childPointer(pointer, index), true, false, [], pointer, sites, depth + 1);
    });
    return;
  }
  if (typeof value !== "object" || value === null || !schema.properties) return;
  const record = value as Record<string, unknown>;
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
  for (const [name, property] of Object.entries(schema.properties)) {
    if (property.readOnly) continue;
    const has = Object.hasOwn(record, name);
    const at = childPointer(pointer, name);
    const tied = [...(ties.get(name) ?? [])].map((other) => childPointer(pointer, other));
    visit(property, record[name], at, has, required.has(name), tied, undefined, sites, depth + 1);
  }
}
