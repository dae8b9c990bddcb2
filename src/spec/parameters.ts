/**
 * The parameters of an operation: path-level and operation-level merged (the operation's win, keyed by
 * name and location), `$ref`s followed.
 * @module
 * @internal
 */
import { childPointer, isObject, resolveRef } from "./pointer.ts";
import type { RawOperation } from "./walk-operations.ts";

export interface RawParameter {
  readonly name: string;
  /** As written: `path`, `query`, `header`, `cookie`, and in Swagger 2.0 also `body` and `formData`. */
  readonly in: string;
  readonly value: Readonly<Record<string, unknown>>;
  /** Where the parameter object is (its `$ref` target when it is a reference). */
  readonly pointer: string;
}

export function mergedParameters(document: unknown, raw: RawOperation): RawParameter[] {
  const merged = new Map<string, RawParameter>();
  const add = (list: unknown, listPointer: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((written, index) => {
      const resolved = resolveRef(document, written, childPointer(listPointer, index));
      if (!resolved.ok || !isObject(resolved.value)) return;
      const value = resolved.value;
      if (typeof value.name !== "string" || typeof value.in !== "string") return;
      merged.set(`${value.in}\n${value.name}`, {
        name: value.name,
        in: value.in,
        value,
        pointer: resolved.pointer,
      });
    });
  };
  add(raw.pathItem.parameters, childPointer(raw.pathItemPointer, "parameters"));
  add(raw.operation.parameters, childPointer(raw.pointer, "parameters"));
  return [...merged.values()];
}

/** The `{name}`s of a path template, in order. */
export function templateNames(pathTemplate: string): string[] {
  return [...pathTemplate.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1] ?? "");
}
