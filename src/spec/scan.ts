/**
 * One pass over the whole parsed document, before anything else reads it: where its `$ref`s are, whether any
 * is external (only then is the slow bundling step needed), and which `format`s its schemas use.
 * @module
 * @internal
 */
import { pointerOf } from "./pointer.ts";

export interface DocumentScan {
  /** Every `$ref`, with the pointer of the object that holds it. */
  readonly refs: readonly { readonly at: string; readonly ref: string }[];
  /** True when some `$ref` points outside the document (another file or a URL). */
  readonly hasExternalRefs: boolean;
  /** Every string value of a `format` keyword, outside example and default values. */
  readonly formats: ReadonlySet<string>;
}

/** Keys whose values are instance data, not description: a `format` in them is not a schema's format. */
const dataKeys = new Set(["example", "examples", "default", "enum", "const", "x-example"]);
/** Keys whose values map names to schemas: their keys are names (a property may be called `default`). */
const nameMaps = new Set(["properties", "patternProperties", "definitions", "$defs", "schemas"]);

export function scanDocument(document: unknown): DocumentScan {
  const refs: { at: string; ref: string }[] = [];
  const formats = new Set<string>();
  const path: (string | number)[] = [];
  const seen = new Set<object>();

  const visit = (value: unknown, inData: boolean, isNameMap: boolean): void => {
    if (typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        visit(value[i], inData, false);
        path.pop();
      }
      return;
    }
    const record = value as Record<string, unknown>;
    if (typeof record.$ref === "string") refs.push({ at: pointerOf(path), ref: record.$ref });
    if (!inData && !isNameMap && typeof record.format === "string") formats.add(record.format);
    for (const key in record) {
      const child = record[key];
      if (typeof child !== "object" || child === null) continue;
      path.push(key);
      // `$ref`s are found everywhere (the bundler resolves them everywhere too); formats only in descriptions.
      visit(child, inData || (!isNameMap && dataKeys.has(key)), !isNameMap && nameMaps.has(key));
      path.pop();
    }
  };
  visit(document, false, false);
  return { refs, hasExternalRefs: refs.some(({ ref }) => !ref.startsWith("#")), formats };
}
