/**
 * Whether an operation answers a paginated list (`{data: [...], page, pages, results}`, also when composed
 * with `allOf`), and which fields of its items are filterable: any `x-*-filterable: true` vendor extension
 * marks one (`x-compute-filterable`, `x-linode-filterable`, plain `x-filterable` ...). A field inside an object
 * property of the item (found through `$ref`s and `allOf` as the item's own) is named by its dotted path
 * (`entity.id`), the key X-Filter gives it; its types come from its own schema, and it may read as no value when
 * a parent admits null.
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
const lenientExtension = /^x-(?:[\w.-]+-)?filter-lenient$/i;

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
  collectFields(document, dialect, items, [], false, filterableFields);
  return { paginated: true, filterableFields };
}

/** How deep inside object properties a filterable field is looked for (`entity.id` is one level down). */
const maxNesting = 4;

/**
 * The filterable fields among `properties` (each name with every declaration of it), and those inside their
 * object-typed properties, named by their dotted path; a nested field may read as no value when a parent is null.
 */
function collectFields(
  document: unknown,
  dialect: SpecDialect,
  properties: ReadonlyMap<string, unknown[]>,
  parents: readonly string[],
  parentNullable: boolean,
  into: FilterableField[],
): void {
  for (const [name, declarations] of properties) {
    const path = [...parents, name];
    const shapes = declarations.map((property) => typeOf(document, dialect, property));
    const type = first(shapes, (shape) => shape.type);
    const nullable = parentNullable || shapes.some((shape) => shape.nullable);
    if (type === "object") {
      if (path.length > maxNesting) continue;
      const nested = new Map<string, unknown[]>();
      for (const declaration of declarations) {
        for (const [child, list] of propertyDeclarations(document, declaration)) {
          nested.set(child, [...(nested.get(child) ?? []), ...list]);
        }
      }
      collectFields(document, dialect, nested, path, nullable, into);
      continue;
    }
    const extension = first(declarations, (property) => filterableMark(document, property));
    if (extension === undefined || type === undefined) continue;
    const itemType =
      type === "array"
        ? first(declarations, (property) => typeOf(document, dialect, itemsOf(document, property)).type)
        : undefined;
    const scalars = [...new Set(shapes.flatMap((shape) => shape.types))].filter(
      (each): each is ScalarType => each !== "array" && each !== "object",
    );
    into.push({
      name: path.join("."),
      type,
      ...(itemType !== undefined && itemType !== "object" && itemType !== "array" ? { itemType } : {}),
      nullable,
      extension,
      ...(declarations.some(isLenient) ? { lenient: true as const } : {}),
      ...(parents.length > 0 ? { path } : {}),
      ...(type !== "array" && scalars.length > 1 ? { types: scalars } : {}),
    });
  }
}

function first<T, R>(list: readonly T[], pick: (item: T) => R | undefined): R | undefined {
  for (const item of list) {
    const picked = pick(item);
    if (picked !== undefined) return picked;
  }
  return undefined;
}

/** A property marked `x-*-filter-lenient: true`: accepted as a filter key, its narrowing not promised. */
function isLenient(property: unknown): boolean {
  return (
    isObject(property) &&
    Object.entries(property).some(([key, value]) => value === true && lenientExtension.test(key))
  );
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
type ScalarType = Exclude<JsonType, "array" | "object">;
const jsonTypes = new Set<string>(["string", "integer", "number", "boolean", "array", "object"]);

/** The JSON type of a schema and whether it admits null, per dialect, through `$ref`, `allOf`, `anyOf`/`oneOf`. */
function typeOf(
  document: unknown,
  dialect: SpecDialect,
  schema: unknown,
  depth = 0,
): { type: JsonType | undefined; types: JsonType[]; nullable: boolean } {
  const value = deref(document, schema);
  if (!isObject(value) || depth > 16) return { type: undefined, types: [], nullable: false };
  let nullable =
    (dialect === "openapi-3.0" && value.nullable === true) ||
    (dialect === "swagger-2.0" && value["x-nullable"] === true) ||
    (Array.isArray(value.enum) && value.enum.includes(null));
  const types = (Array.isArray(value.type) ? value.type : [value.type]).filter(
    (type): type is string => typeof type === "string",
  );
  if (types.includes("null")) nullable = true;
  const all = types.filter((candidate): candidate is JsonType => jsonTypes.has(candidate));
  let type = all[0];
  for (const member of asList(value.allOf)) type ??= typeOf(document, dialect, member, depth + 1).type;
  for (const member of [...asList(value.anyOf), ...asList(value.oneOf)]) {
    const inner = typeOf(document, dialect, member, depth + 1);
    // `anyOf: [{type: string}, {type: "null"}]`, the 3.1 way of saying nullable.
    if (inner.nullable) nullable = true;
    type ??= inner.type;
    // `oneOf: [{type: integer}, {type: string}]`: a value of either type.
    all.push(...inner.types);
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
  if (type !== undefined && !all.includes(type)) all.unshift(type);
  return { type, types: all, nullable };
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
