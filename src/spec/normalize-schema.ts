/**
 * Turns the schema objects of a description into plain JSON Schema that ajv compiles, per dialect and
 * validation context, in place:
 * - OpenAPI 3.0 `nullable` and Swagger 2.0 `x-nullable` become a type union with `null` (or `anyOf` with
 *   `{type: "null"}` when there is no `type`, e.g. beside a `$ref` or an `allOf`); `null` joins an `enum`;
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` (draft 4) become the numeric form; `type: file` is dropped;
 * - OpenAPI-only keywords (discriminator, xml, externalDocs, example, `x-*`) are removed; in 3.1 a stray
 *   `nullable` is removed too (it is not a 3.1 keyword, and ajv would otherwise act on it);
 * - in a request, `readOnly` properties are not required; in a response, `writeOnly` ones are not.
 * @module
 * @internal
 */
import { isObject, isRef, refPointer, valueAt } from "./pointer.ts";
import type { SpecDialect } from "./types.ts";

/** In a request, `readOnly` properties may be absent; in a response, `writeOnly` ones. */
export type ValidationContext = "request" | "response";

type Schema = Record<string, unknown>;

const singleKeys = [
  "items",
  "additionalItems",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
] as const;
const listKeys = ["allOf", "anyOf", "oneOf", "prefixItems", "items"] as const;
const mapKeys = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;
const droppedKeys = ["discriminator", "xml", "externalDocs", "example"] as const;
/** Kept on the outer schema when a nullable schema is wrapped in `anyOf`. */
const outerKeys = new Set(["readOnly", "writeOnly", "title", "description", "deprecated", "default"]);

/** The schemas directly inside a schema (not following `$ref`). */
export function subschemas(schema: Schema): Schema[] {
  const children: Schema[] = [];
  for (const key of singleKeys) if (isObject(schema[key])) children.push(schema[key] as Schema);
  for (const key of listKeys) {
    const list = schema[key];
    if (Array.isArray(list)) for (const item of list) if (isObject(item)) children.push(item as Schema);
  }
  for (const key of mapKeys) {
    const map = schema[key];
    if (isObject(map))
      for (const item of Object.values(map)) if (isObject(item)) children.push(item as Schema);
  }
  return children;
}

/** Normalises one schema object in place (not its subschemas). */
export function normalizeNode(schema: Schema, dialect: SpecDialect): void {
  for (const key of droppedKeys) delete schema[key];
  for (const key of Object.keys(schema)) if (key.startsWith("x-") && key !== "x-nullable") delete schema[key];
  if (dialect === "openapi-3.1") {
    delete schema.nullable;
    delete schema["x-nullable"];
    return;
  }
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof schema[flag] !== "boolean") continue;
    if (schema[flag] === true && typeof schema[bound] === "number") {
      schema[flag] = schema[bound];
      delete schema[bound];
    } else delete schema[flag];
  }
  if (schema.type === "file") delete schema.type;
  const nullable = schema.nullable === true || schema["x-nullable"] === true;
  delete schema.nullable;
  delete schema["x-nullable"];
  if (!nullable) return;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  if (typeof schema.type === "string") schema.type = [schema.type, "null"];
  else if (Array.isArray(schema.type)) {
    if (!schema.type.includes("null")) schema.type = [...schema.type, "null"];
  } else if (
    schema.$ref !== undefined ||
    schema.allOf !== undefined ||
    schema.oneOf !== undefined ||
    schema.anyOf !== undefined
  ) {
    // `{nullable: true, allOf: [{$ref: X}]}` means "X or null": the composition alone would reject null.
    const inner: Schema = {};
    for (const key of Object.keys(schema)) {
      if (outerKeys.has(key)) continue;
      inner[key] = schema[key];
      delete schema[key];
    }
    schema.anyOf = [{ type: "null" }, inner];
  }
}

/**
 * Normalises, in place, every schema reachable from the one at `pointer` in `document` (following internal
 * `$ref`s), each once: `visited` remembers them across calls. Safe on circular references.
 */
export function normalizeReachable(
  document: unknown,
  pointer: string,
  dialect: SpecDialect,
  context: ValidationContext,
  visited: WeakSet<object>,
): void {
  const stack: unknown[] = [valueAt(document, pointer)];
  while (stack.length > 0) {
    const schema = stack.pop();
    if (!isObject(schema) || visited.has(schema)) continue;
    visited.add(schema);
    const node = schema as Schema;
    if (isRef(node)) {
      const target = refPointer(node.$ref);
      if (target !== undefined) stack.push(valueAt(document, target));
    }
    normalizeNode(node, dialect);
    relaxRequired(document, node, context);
    stack.push(...subschemas(node));
  }
}

/** A deep copy of a schema, normalised (its `$ref`s are kept, not followed). */
export function normalizedCopy(schema: unknown, dialect: SpecDialect): unknown {
  if (!isObject(schema)) return schema;
  const copy = structuredClone(schema) as Schema;
  const stack: Schema[] = [copy];
  while (stack.length > 0) {
    const node = stack.pop() as Schema;
    normalizeNode(node, dialect);
    stack.push(...subschemas(node));
  }
  return copy;
}

/** Drops from `required` (its own and its inline `allOf` members') the properties the context exempts. */
function relaxRequired(document: unknown, schema: Schema, context: ValidationContext): void {
  const holders = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])].filter(
    (holder): holder is Schema => isObject(holder) && Array.isArray(holder.required),
  );
  if (holders.length === 0) return;
  const properties = propertyDeclarations(document, schema);
  const flag = context === "request" ? "readOnly" : "writeOnly";
  const exempt = (name: unknown) =>
    typeof name === "string" &&
    (properties.get(name) ?? []).some((property) => hasFlag(document, property, flag));
  for (const holder of holders) {
    const required = holder.required as unknown[];
    const kept = required.filter((name) => !exempt(name));
    if (kept.length !== required.length) holder.required = kept;
  }
}

/**
 * Every declaration of each property by a schema and its `allOf` members (following `$ref`s), in order: with
 * `allOf: [Envelope, {properties: {data: {items: X}}}]` both `data`s count, and the second one says more.
 */
export function propertyDeclarations(document: unknown, schema: unknown): Map<string, unknown[]> {
  const declarations = new Map<string, unknown[]>();
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number) => {
    if (!isObject(value) || seen.has(value) || depth > 32) return;
    seen.add(value);
    if (isObject(value.properties)) {
      for (const [name, property] of Object.entries(value.properties)) {
        const list = declarations.get(name);
        if (list) list.push(property);
        else declarations.set(name, [property]);
      }
    }
    if (isRef(value)) {
      const target = refPointer(value.$ref);
      if (target !== undefined) visit(valueAt(document, target), depth + 1);
    }
    if (Array.isArray(value.allOf)) for (const member of value.allOf) visit(member, depth + 1);
  };
  visit(schema, 0);
  return declarations;
}

/** True when a schema, a schema it references, or one of its `allOf` members sets `flag: true`. */
function hasFlag(document: unknown, schema: unknown, flag: "readOnly" | "writeOnly"): boolean {
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): boolean => {
    if (!isObject(value) || seen.has(value) || depth > 32) return false;
    seen.add(value);
    if (value[flag] === true) return true;
    if (isRef(value)) {
      const target = refPointer(value.$ref);
      if (target !== undefined && visit(valueAt(document, target), depth + 1)) return true;
    }
    return Array.isArray(value.allOf) && value.allOf.some((member) => visit(member, depth + 1));
  };
  return visit(schema, 0);
}
