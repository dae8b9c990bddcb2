/**
 * Where the description says a refusal names no field: a request property marked
 * `x-compute-refused-without-field: true` (any `x-*-refused-without-field`) is refused with 400 and a reason but no
 * `field` when its value is wrong (the real service answers `type: ipv6` on allocateIP so, facts.md "Address").
 * The API's rule that `field` names the input at fault does not apply to it.
 * @module
 * @internal
 */
import { propertyDeclarations } from "./normalize-schema.ts";
import { childPointer, isObject, isRef, refPointer, valueAt } from "./pointer.ts";
import type { ApiSpec } from "./types.ts";

const mark = /^x-(?:[\w.-]+-)?refused-without-field$/i;

/** True when a schema node itself sets the mark. */
export function marksRefusedWithoutField(node: unknown): boolean {
  return isObject(node) && Object.entries(node).some(([key, value]) => value === true && mark.test(key));
}

/** The pointer of an operation object in the document (through a path item's `$ref`). */
export function operationPointer(spec: ApiSpec, operationId: string): string | undefined {
  const operation = spec.operations.byId(operationId);
  if (!operation) return undefined;
  const itemPointer = childPointer("/paths", operation.pathTemplate);
  const item = valueAt(spec.document, itemPointer);
  const target = isRef(item) ? refPointer(item.$ref) : itemPointer;
  return target === undefined ? undefined : childPointer(target, operation.method);
}

/** The pointer of an operation's request body schema for a media type (Swagger 2.0: its `in: body` parameter). */
export function requestSchemaPointer(
  spec: ApiSpec,
  operationId: string,
  mediaType = "application/json",
): string | undefined {
  const opPointer = operationPointer(spec, operationId);
  return opPointer === undefined ? undefined : bodyPointerUnder(spec.document, opPointer, mediaType);
}

const maxHops = 24;

function bodyPointerUnder(document: unknown, opPointer: string, mediaType: string): string | undefined {
  let pointer = childPointer(opPointer, "requestBody");
  let body = valueAt(document, pointer);
  if (body === undefined) {
    const parameters = valueAt(document, childPointer(opPointer, "parameters"));
    if (!Array.isArray(parameters)) return undefined;
    const index = parameters.findIndex((parameter) => isObject(parameter) && parameter.in === "body");
    return index < 0 ? undefined : childPointer(opPointer, "parameters", index, "schema");
  }
  for (let hops = 0; isRef(body) && hops < maxHops; hops += 1) {
    const target = refPointer(body.$ref);
    if (target === undefined) return undefined;
    pointer = target;
    body = valueAt(document, target);
  }
  const content = isObject(body) ? body.content : undefined;
  if (!isObject(content) || !isObject(content[mediaType]) || content[mediaType].schema === undefined)
    return undefined;
  return childPointer(pointer, "content", mediaType, "schema");
}

/**
 * True when the request property at `tokens` (object keys from the body down; array indexes step into `items`)
 * is marked refused without a field, on any of its declarations.
 */
export function refusedWithoutField(spec: ApiSpec, operationId: string, tokens: readonly string[]): boolean {
  const pointer = requestSchemaPointer(spec, operationId);
  if (pointer === undefined || tokens.length === 0) return false;
  let schemas: unknown[] = [valueAt(spec.document, pointer)];
  for (const token of tokens) {
    schemas = schemas.flatMap((schema) => {
      const resolved = isRef(schema) ? valueAt(spec.document, refPointer(schema.$ref) ?? "") : schema;
      if (/^\d+$/.test(token) && isObject(resolved) && resolved.items !== undefined) return [resolved.items];
      return propertyDeclarations(spec.document, schema).get(token) ?? [];
    });
  }
  return schemas.some((schema) => {
    const resolved = isRef(schema) ? valueAt(spec.document, refPointer(schema.$ref) ?? "") : schema;
    return marksRefusedWithoutField(schema) || marksRefusedWithoutField(resolved);
  });
}
