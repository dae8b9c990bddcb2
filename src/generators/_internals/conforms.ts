/**
 * A small, synchronous "does this value satisfy this {@link BodySchema}" for the generators' own decisions: filtering
 * values against `not` and `oneOf`, and choosing a replacement that breaks exactly one keyword. It checks the
 * structural keywords and ignores `format` (the compiled validator is the judge; tests hold the two together).
 * @module
 * @internal
 */
import { allowedTypes, type BodySchema, typeAllowed, typeOf } from "./body-schema.ts";

/** String length as JSON Schema counts it: in code points. */
export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export function conforms(schema: BodySchema, value: unknown): boolean {
  const types = allowedTypes(schema);
  if (types && !typeAllowed(types, typeOf(value))) return false;
  if (schema.hasConst && JSON.stringify(schema.const) !== JSON.stringify(value)) return false;
  if (schema.enum && !schema.enum.some((item) => JSON.stringify(item) === JSON.stringify(value)))
    return false;
  if (typeof value === "string" && !stringConforms(schema, value)) return false;
  if (typeof value === "number" && !numberConforms(schema, value)) return false;
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    if (schema.uniqueItems && new Set(value.map((item) => JSON.stringify(item))).size !== value.length)
      return false;
    if (schema.items && !value.every((item) => conforms(schema.items!, item))) return false;
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    if (schema.minProperties !== undefined && Object.keys(record).length < schema.minProperties) return false;
    for (const name of schema.required ?? []) if (!Object.hasOwn(record, name)) return false;
    for (const [name, needed] of Object.entries(schema.dependentRequired ?? {})) {
      if (Object.hasOwn(record, name) && needed.some((other) => !Object.hasOwn(record, other))) return false;
    }
    for (const [name, item] of Object.entries(record)) {
      const property = schema.properties?.[name];
      if (property ? !conforms(property, item) : schema.additionalProperties === false) return false;
    }
  }
  if (schema.not && conforms(schema.not, value)) return false;
  if (schema.anyOf) {
    const matching = schema.anyOf.filter((branch) => conforms(branch, value)).length;
    if (schema.oneOf ? matching !== 1 : matching === 0) return false;
  }
  return true;
}

export function stringConforms(schema: BodySchema, value: string): boolean {
  const length = codePoints(value);
  if (schema.minLength !== undefined && length < schema.minLength) return false;
  if (schema.maxLength !== undefined && length > schema.maxLength) return false;
  if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) return false;
  return true;
}

export function numberConforms(schema: BodySchema, value: number): boolean {
  if (schema.minimum !== undefined && value < schema.minimum) return false;
  if (schema.maximum !== undefined && value > schema.maximum) return false;
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return false;
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return false;
  if (schema.multipleOf !== undefined && !Number.isInteger(value / schema.multipleOf)) return false;
  return true;
}

const patterns = new Map<string, RegExp>();

/** The pattern as the validators compile it (no `u` flag: descriptions write patterns for non-Unicode engines). */
export function patternOf(pattern: string): RegExp {
  let compiled = patterns.get(pattern);
  if (!compiled) {
    compiled = new RegExp(pattern);
    patterns.set(pattern, compiled);
  }
  return compiled;
}
