/**
 * The operations of a document as written: each path item's methods, with where they are.
 * @module
 * @internal
 */
import { childPointer, isObject, resolveRef } from "./pointer.ts";
import type { HttpMethod } from "./types.ts";

export const httpMethods: readonly HttpMethod[] = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
];

export interface RawOperation {
  readonly pathTemplate: string;
  readonly method: HttpMethod;
  readonly operation: Readonly<Record<string, unknown>>;
  readonly pathItem: Readonly<Record<string, unknown>>;
  /** Pointer of the operation object (inside the referenced path item when the path item is a `$ref`). */
  readonly pointer: string;
  /** Pointer of the path item object. */
  readonly pathItemPointer: string;
}

/** Every operation under `paths`, in document order. Path items whose `$ref` does not resolve are skipped. */
export function listOperations(document: unknown): RawOperation[] {
  const paths = isObject(document) ? document.paths : undefined;
  if (!isObject(paths)) return [];
  const operations: RawOperation[] = [];
  for (const [pathTemplate, written] of Object.entries(paths)) {
    if (!pathTemplate.startsWith("/")) continue; // `x-` extensions
    const resolved = resolveRef(document, written, childPointer("/paths", pathTemplate));
    if (!resolved.ok || !isObject(resolved.value)) continue;
    const pathItem = resolved.value;
    for (const method of httpMethods) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      operations.push({
        pathTemplate,
        method,
        operation,
        pathItem,
        pointer: childPointer(resolved.pointer, method),
        pathItemPointer: resolved.pointer,
      });
    }
  }
  return operations;
}
