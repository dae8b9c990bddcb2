/**
 * A request (or response) body schema of the description as one resolved tree that generators and mutators can
 * walk without the document: `$ref`s followed, `allOf` members merged, dialect differences normalised (OpenAPI 3.0
 * `nullable` becomes a `null` type, as the validators see it), and a nullable wrapper (`anyOf: [{type: null}, X]`)
 * folded into X. Only what generation needs is kept; any other `anyOf`/`oneOf` stays as alternatives.
 *
 * The tree is built from the same document the compiled validators use, so a value built from it by the rules it
 * states is a value the request validator accepts (the generator tests prove it per operation).
 * @module
 * @internal
 */
import { normalizeNode } from "../../spec/normalize-schema.ts";
import { childPointer, isObject, isRef, refPointer, valueAt } from "../../spec/pointer.ts";
import {
  marksRefusedWithoutField,
  operationPointer,
  requestSchemaPointer,
} from "../../spec/refused-without-field.ts";
import type { ApiSpec, SpecDialect } from "../../spec/types.ts";

export type JsonType = "string" | "integer" | "number" | "boolean" | "object" | "array" | "null";

export const jsonTypes: readonly JsonType[] = [
  "string",
  "integer",
  "number",
  "boolean",
  "object",
  "array",
  "null",
];

export interface BodySchema {
  /** Where the schema (its first part, for merged ones) is in the document. */
  pointer: string;
  /** Allowed JSON types; absent: any. */
  types?: JsonType[];
  enum?: unknown[];
  /** `const`, when `hasConst`. */
  const?: unknown;
  hasConst?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  properties?: Record<string, BodySchema>;
  required?: string[];
  dependentRequired?: Record<string, string[]>;
  /** `false` when the schema forbids undeclared properties. */
  additionalProperties?: boolean;
  items?: BodySchema;
  minItems?: number;
  maxItems?: number;
  /** Fewest properties an object may have (an update that must change something). */
  minProperties?: number;
  uniqueItems?: boolean;
  /** A value must not match this. */
  not?: BodySchema;
  /** A value must match at least one of these (`oneOf` is read as `anyOf`: generators filter for exactly one). */
  anyOf?: BodySchema[];
  oneOf?: boolean;
  /**
   * The OpenAPI `discriminator` beside `anyOf`/`oneOf`: the property naming the branch, and the values its
   * `mapping` lists (empty when it has none: then the branches' own names, which a bundled document may have lost).
   */
  discriminator?: { readonly propertyName: string; readonly values: readonly string[] };
  readOnly?: boolean;
  writeOnly?: boolean;
  /** A wrong value here is refused naming no field (`x-*-refused-without-field`). */
  refusedWithoutField?: boolean;
}

/** How deep `$ref` chains and nesting are followed (request bodies are shallow; a cycle stops here). */
const maxDepth = 24;

const numberKeys = [
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "minProperties",
] as const;

/** Resolves the schema found at `pointer` (or given as `schema`) into a {@link BodySchema}. */
export function resolveBodySchema(
  document: unknown,
  dialect: SpecDialect,
  pointer: string,
  schema: unknown = valueAt(document, pointer),
): BodySchema {
  return resolve(document, dialect, schema, pointer, 0);
}

function resolve(
  document: unknown,
  dialect: SpecDialect,
  written: unknown,
  pointer: string,
  depth: number,
): BodySchema {
  if (!isObject(written) || depth > maxDepth) {
    return written === false ? { pointer, types: [] } : { pointer };
  }
  const node: Record<string, unknown> = { ...written };
  normalizeNode(node, dialect);
  let result: BodySchema = { pointer };
  // Read before normalising drops the vendor extensions and the discriminator.
  if (marksRefusedWithoutField(written)) result.refusedWithoutField = true;
  const discriminator = discriminatorOf(written);

  if (isRef(node)) {
    const target = refPointer(node.$ref);
    const referenced = target === undefined ? undefined : valueAt(document, target);
    if (target !== undefined && referenced !== undefined) {
      result = resolve(document, dialect, referenced, target, depth + 1);
    }
  }
  const own = ownKeywords(document, dialect, node, pointer, depth);
  result = merge(result, own);
  if (Array.isArray(node.allOf)) {
    node.allOf.forEach((member, index) => {
      result = merge(
        result,
        resolve(document, dialect, member, childPointer(pointer, "allOf", index), depth + 1),
      );
    });
  }
  const alternatives = Array.isArray(node.anyOf)
    ? node.anyOf
    : Array.isArray(node.oneOf)
      ? node.oneOf
      : undefined;
  if (alternatives) {
    const key = Array.isArray(node.anyOf) ? "anyOf" : "oneOf";
    const branches = alternatives.map((branch, index) =>
      resolve(document, dialect, branch, childPointer(pointer, key, index), depth + 1),
    );
    const isNull = (branch: BodySchema) => branch.types?.length === 1 && branch.types[0] === "null";
    const others = branches.filter((branch) => !isNull(branch));
    if (others.length === 1 && branches.length === 2) {
      // The nullable wrapper: X or null.
      const inner = others[0]!;
      result = merge(result, { ...inner, types: inner.types ? union(inner.types, ["null"]) : undefined });
      if (inner.enum && !inner.enum.includes(null)) result.enum = [...inner.enum, null];
    } else {
      result.anyOf = branches;
      if (key === "oneOf") result.oneOf = true;
    }
  }
  if (discriminator) result.discriminator = discriminator;
  return result;
}

function discriminatorOf(written: Readonly<Record<string, unknown>>): BodySchema["discriminator"] {
  const { discriminator } = written;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== "string") return undefined;
  const values = isObject(discriminator.mapping) ? Object.keys(discriminator.mapping) : [];
  return { propertyName: discriminator.propertyName, values };
}

function ownKeywords(
  document: unknown,
  dialect: SpecDialect,
  node: Readonly<Record<string, unknown>>,
  pointer: string,
  depth: number,
): BodySchema {
  const own: BodySchema = { pointer };
  if (typeof node.type === "string") own.types = [node.type as JsonType];
  else if (Array.isArray(node.type))
    own.types = node.type.filter((type): type is JsonType => typeof type === "string") as JsonType[];
  if (Array.isArray(node.enum)) own.enum = [...node.enum];
  if (Object.hasOwn(node, "const")) {
    own.const = node.const;
    own.hasConst = true;
  }
  if (typeof node.format === "string") own.format = node.format;
  if (typeof node.pattern === "string") own.pattern = node.pattern;
  for (const key of numberKeys) if (typeof node[key] === "number") own[key] = node[key] as number;
  if (node.uniqueItems === true) own.uniqueItems = true;
  if (node.readOnly === true) own.readOnly = true;
  if (node.writeOnly === true) own.writeOnly = true;
  if (node.additionalProperties === false) own.additionalProperties = false;
  if (Array.isArray(node.required))
    own.required = node.required.filter((name): name is string => typeof name === "string");
  if (isObject(node.dependentRequired)) {
    own.dependentRequired = {};
    for (const [name, list] of Object.entries(node.dependentRequired)) {
      if (Array.isArray(list))
        own.dependentRequired[name] = list.filter((item): item is string => typeof item === "string");
    }
  }
  if (isObject(node.properties)) {
    own.properties = {};
    for (const [name, property] of Object.entries(node.properties)) {
      own.properties[name] = resolve(
        document,
        dialect,
        property,
        childPointer(pointer, "properties", name),
        depth + 1,
      );
    }
  }
  if (isObject(node.items))
    own.items = resolve(document, dialect, node.items, childPointer(pointer, "items"), depth + 1);
  if (isObject(node.not))
    own.not = resolve(document, dialect, node.not, childPointer(pointer, "not"), depth + 1);
  return own;
}

function union<T>(a: readonly T[], b: readonly T[]): T[] {
  return [...new Set([...a, ...b])];
}

/** Both schemas at once (`allOf`): types intersect, properties and requirements join, bounds tighten. */
export function merge(a: BodySchema, b: BodySchema): BodySchema {
  const merged: BodySchema = { ...a, pointer: a.pointer };
  if (b.types) {
    merged.types = a.types
      ? a.types.filter(
          (type) => b.types!.includes(type) || (type === "integer" && b.types!.includes("number")),
        )
      : [...b.types];
    if (a.types?.includes("number") && b.types.includes("integer") && !merged.types.includes("integer")) {
      merged.types.push("integer");
    }
  }
  if (b.enum)
    merged.enum = a.enum ? a.enum.filter((item) => b.enum!.some((other) => same(item, other))) : [...b.enum];
  if (b.hasConst) {
    merged.hasConst = true;
    merged.const = b.const;
  }
  for (const key of ["format", "pattern"] as const) if (b[key] !== undefined) merged[key] ??= b[key];
  for (const key of ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"] as const) {
    if (b[key] !== undefined) merged[key] = a[key] === undefined ? b[key] : Math.max(a[key]!, b[key]!);
  }
  for (const key of ["maxLength", "maximum", "exclusiveMaximum", "maxItems"] as const) {
    if (b[key] !== undefined) merged[key] = a[key] === undefined ? b[key] : Math.min(a[key]!, b[key]!);
  }
  if (b.multipleOf !== undefined) merged.multipleOf ??= b.multipleOf;
  for (const key of ["uniqueItems", "readOnly", "writeOnly", "oneOf", "refusedWithoutField"] as const)
    if (b[key]) merged[key] = true;
  if (b.additionalProperties === false) merged.additionalProperties = false;
  if (b.required) merged.required = union(a.required ?? [], b.required);
  if (b.dependentRequired) {
    merged.dependentRequired = { ...a.dependentRequired };
    for (const [name, list] of Object.entries(b.dependentRequired)) {
      merged.dependentRequired[name] = union(merged.dependentRequired[name] ?? [], list);
    }
  }
  if (b.properties) {
    merged.properties = { ...a.properties };
    for (const [name, property] of Object.entries(b.properties)) {
      const existing = merged.properties[name];
      merged.properties[name] = existing ? merge(existing, property) : property;
    }
  }
  if (b.items) merged.items = a.items ? merge(a.items, b.items) : b.items;
  if (b.not) merged.not = b.not;
  if (b.anyOf) merged.anyOf = b.anyOf;
  if (b.discriminator) merged.discriminator = b.discriminator;
  return merged;
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Where an operation object is (inside the referenced path item when the path item is a `$ref`). */
const cache = new WeakMap<ApiSpec, Map<string, BodySchema | undefined>>();

/** The resolved JSON request body schema of an operation (cached per spec), or undefined when it has none. */
export function requestSchemaOf(
  spec: ApiSpec,
  operationId: string,
  mediaType = "application/json",
): BodySchema | undefined {
  let perSpec = cache.get(spec);
  if (!perSpec) {
    perSpec = new Map();
    cache.set(spec, perSpec);
  }
  const key = `request\u0000${operationId}\u0000${mediaType}`;
  if (perSpec.has(key)) return perSpec.get(key);
  const pointer = requestSchemaPointer(spec, operationId, mediaType);
  const schema = pointer === undefined ? undefined : resolveBodySchema(spec.document, spec.dialect, pointer);
  perSpec.set(key, schema);
  return schema;
}

/** The resolved JSON schema of an operation's response with this status (exact, then `2XX`, then `default`). */
export function responseSchemaOf(spec: ApiSpec, operationId: string, status: number): BodySchema | undefined {
  const opPointer = operationPointer(spec, operationId);
  if (opPointer === undefined) return undefined;
  const responses = valueAt(spec.document, childPointer(opPointer, "responses"));
  if (!isObject(responses)) return undefined;
  const key = [String(status), `${Math.floor(status / 100)}XX`, "default"].find((candidate) =>
    Object.hasOwn(responses, candidate),
  );
  if (key === undefined) return undefined;
  let pointer = childPointer(opPointer, "responses", key);
  let response = valueAt(spec.document, pointer);
  for (let hops = 0; isRef(response) && hops < maxDepth; hops += 1) {
    const target = refPointer(response.$ref);
    if (target === undefined) return undefined;
    pointer = target;
    response = valueAt(spec.document, target);
  }
  const content = isObject(response) ? response.content : undefined;
  const media = isObject(content) ? content["application/json"] : undefined;
  if (!isObject(media) || media.schema === undefined) return undefined;
  return resolveBodySchema(
    spec.document,
    spec.dialect,
    childPointer(pointer, "content", "application/json", "schema"),
  );
}

/**
 * The types a schema allows, `undefined` when any type goes (no `type`, `enum` or `const` says otherwise, and not
 * every branch of its `anyOf`/`oneOf` does).
 */
export function allowedTypes(schema: BodySchema): readonly JsonType[] | undefined {
  if (schema.types) return schema.types;
  const values = schema.hasConst ? [schema.const] : schema.enum;
  if (values) return [...new Set(values.map(typeOf))];
  if (!schema.anyOf || schema.anyOf.length === 0) return undefined;
  const ofBranches = schema.anyOf.map(allowedTypes);
  if (ofBranches.some((types) => types === undefined)) return undefined;
  return [...new Set(ofBranches.flatMap((types) => types!))];
}

export function typeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string" || typeof value === "boolean" || typeof value === "object")
    return typeof value as JsonType;
  return "null";
}

/** True when a value of type `actual` is allowed by `allowed` (an integer is a number). */
export function typeAllowed(allowed: readonly JsonType[], actual: JsonType): boolean {
  return allowed.includes(actual) || (actual === "integer" && allowed.includes("number"));
}
