/**
 * Whether an operation answers a paginated list (`{data: [...], page, pages, results}`, also when composed
 * with `allOf`), and which fields of its items are filterable: any `x-*-filterable: true` vendor extension
 * marks one (`x-compute-filterable`, `x-linode-filterable`, plain `x-filterable` ...).
 * @module
 * @internal
 */
import { propertyDeclarations } from "./normalize-schema.ts";
import { deref, isObject, isRef, refPointer, valueAt } from "./pointer.ts";
import type { FilterableField, SpecDialect } from "./types.ts";

export interface ListShape {
  readonly paginated: boolean;
  readonly filterableFields: readonly FilterableField[];
}

const notAList: ListShape = { paginated: false, filterableFields: [] };
const envelope = ["page", "pages", "results"] as const;
const filterableExtension = /^x-(?:[\w.-]+-)?filterable$/i;

/** The list shape of a success body schema (`undefined` when the success response has no schema). */
export function listShape(document: unknown, dialect: SpecDialect, schema: unknown): ListShape {
  if (schema === undefined) return notAList;
  const properties = propertyDeclarations(document, schema);
  const data = (properties.get("data") ?? [])
    .map((declaration) => deref(document, declaration))
    .filter(isObject);
  const isArray = data.some(
    (declaration) =>
      declaration.type === "array" ||
      (Array.isArray(declaration.type) && declaration.type.includes("array")) ||
      declaration.items !== undefined,
  );
  if (!isArray || !envelope.every((name) => properties.has(name))) return notAList;
  // Every declaration of `data` may say something about the items (the envelope's `items: {}`, the list's own).
  const items = new Map<string, unknown[]>();
  for (const declaration of data) {
    for (const [name, list] of propertyDeclarations(document, declaration.items)) {
      items.set(name, [...(items.get(name) ?? []), ...list]);
    }
  }
  const filterableFields: FilterableField[] = [];
  for (const [name, declarations] of items) {
    const extension = first(declarations, (property) => filterableMark(document, property));
    if (extension === undefined) continue;
    const shapes = declarations.map((property) => typeOf(document, dialect, property));
    const type = first(shapes, (shape) => shape.type);
    if (type === undefined || type === "object") continue;
    const itemType =
      type === "array"
        ? first(declarations, (property) => typeOf(document, dialect, itemsOf(document, property)).type)
        : undefined;
    filterableFields.push({
      name,
      type,
      ...(itemType !== undefined && itemType !== "object" && itemType !== "array" ? { itemType } : {}),
      nullable: shapes.some((shape) => shape.nullable),
      extension,
    });
  }
  return { paginated: true, filterableFields };
}

function first<T, R>(list: readonly T[], pick: (item: T) => R | undefined): R | undefined {
  for (const item of list) {
    const picked = pick(item);
    if (picked !== undefined) return picked;
  }
  return undefined;
}

/** The `x-*-filterable` extension set to true on a property or on a schema it references. */
function filterableMark(document: unknown, property: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current = property;
  while (isObject(current) && !seen.has(current)) {
    seen.add(current);
    for (const [key, value] of Object.entries(current)) {
      if (value === true && filterableExtension.test(key)) return key;
    }
    if (Array.isArray(current.allOf)) {
      for (const member of current.allOf) {
        const mark = isObject(member) && !isRef(member) ? filterableMark(document, member) : undefined;
        if (mark !== undefined) return mark;
      }
    }
    const target = isRef(current) ? refPointer(current.$ref) : undefined;
    current = target === undefined ? undefined : valueAt(document, target);
  }
  return undefined;
}

type JsonType = "string" | "integer" | "number" | "boolean" | "array" | "object";
const jsonTypes = new Set<string>(["string", "integer", "number", "boolean", "array", "object"]);

/** The JSON type of a schema and whether it admits null, per dialect, through `$ref`, `allOf`, `anyOf`/`oneOf`. */
function typeOf(
  document: unknown,
  dialect: SpecDialect,
  schema: unknown,
  depth = 0,
): { type: JsonType | undefined; nullable: boolean } {
  const value = deref(document, schema);
  if (!isObject(value) || depth > 16) return { type: undefined, nullable: false };
  let nullable =
    (dialect === "openapi-3.0" && value.nullable === true) ||
    (dialect === "swagger-2.0" && value["x-nullable"] === true) ||
    (Array.isArray(value.enum) && value.enum.includes(null));
  const types = (Array.isArray(value.type) ? value.type : [value.type]).filter(
    (type): type is string => typeof type === "string",
  );
  if (types.includes("null")) nullable = true;
  let type = types.find((candidate): candidate is JsonType => jsonTypes.has(candidate));
  for (const member of asList(value.allOf)) type ??= typeOf(document, dialect, member, depth + 1).type;
  for (const member of [...asList(value.anyOf), ...asList(value.oneOf)]) {
    const inner = typeOf(document, dialect, member, depth + 1);
    // `anyOf: [{type: string}, {type: "null"}]`, the 3.1 way of saying nullable.
    if (inner.nullable) nullable = true;
    type ??= inner.type;
  }
  if (type === undefined && Array.isArray(value.enum)) {
    const sample = value.enum.find((item) => item !== null);
    type =
      typeof sample === "string"
        ? "string"
        : typeof sample === "boolean"
          ? "boolean"
          : typeof sample === "number"
            ? Number.isInteger(sample)
              ? "integer"
              : "number"
            : undefined;
  }
  return { type, nullable };
}

function itemsOf(document: unknown, schema: unknown): unknown {
  const value = deref(document, schema);
  if (!isObject(value)) return undefined;
  if (value.items !== undefined) return value.items;
  for (const member of asList(value.allOf)) {
    const items = itemsOf(document, member);
    if (items !== undefined) return items;
  }
  return undefined;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
