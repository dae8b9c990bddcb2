/**
 * An operation's whole request as one object schema, `{path, query, header, cookie, body}`, so that one valid
 * value is one request and the mutators break rules in any part of it (a parameter, the body) with the same
 * machinery as a body's. Parameters become the properties of `path` (all required), `query`, `header` and `cookie`
 * (required as the description says); the body is the JSON request schema. A header or cookie value is text that
 * travels as it is: visible ASCII, no space at either end (a server trims it), none of a cookie's separators.
 * `Accept`, `Content-Type` and `Authorization` header parameters are ignored, as OpenAPI says.
 *
 * What cannot be sent as text as the description wants (an object parameter, a list of several values) is left
 * out when optional, and makes the request unbuildable when required: the caller says so rather than send what
 * it cannot vouch for.
 * @module
 * @internal
 */
import { fullFormats } from "ajv-formats/dist/formats.js";
import { childPointer } from "../../spec/pointer.ts";
import type { ApiSpec, OperationInfo, ParameterInfo } from "../../spec/types.ts";
import { type BodySchema, type JsonType, requestSchemaOf, resolveBodySchema } from "./body-schema.ts";
import { conforms } from "./conforms.ts";

/** The parts of a request whose values are parameters, by their `in`. */
export const parameterParts = ["path", "query", "header", "cookie"] as const;
export type ParameterPart = (typeof parameterParts)[number];

export interface RequestSchema {
  /** `{path, query, header, cookie, body?}`; `body` is present when the operation takes a JSON body. */
  readonly schema: BodySchema;
  /** Why no valid request can be built from the description (a required part it cannot send), if so. */
  readonly unbuildable?: string;
  /** Optional parameters left out, each with why. */
  readonly leftOut: readonly string[];
}

const scalar: readonly JsonType[] = ["string", "integer", "number", "boolean"];

function parameterSchema(spec: ApiSpec, operation: OperationInfo, parameter: ParameterInfo): BodySchema {
  const pointer = `#operation/${operation.operationId}/${parameter.in}/${parameter.name}`;
  return resolveBodySchema(spec.document, spec.dialect, pointer, parameter.schema ?? {});
}

/** What stops a parameter's value from going in a URL as text, or undefined when it can. */
function notTextual(schema: BodySchema): string | undefined {
  const types = schema.types?.filter((type) => type !== "null");
  if (!types || types.length === 0) return undefined;
  if (types.every((type) => scalar.includes(type))) return undefined;
  if (types.includes("array") && schema.items && (schema.minItems ?? 0) <= 1) return undefined;
  return `a value of type ${types.join(" or ")} (its serialisation is not generated)`;
}

/** A path segment: never empty, never `.` or `..`, whatever a free string schema would allow. */
function segmentSchema(schema: BodySchema): BodySchema {
  return {
    ...schema,
    minLength: Math.max(1, schema.minLength ?? 0),
    not: { pointer: schema.pointer, enum: [".", ".."] },
  };
}

/**
 * A query value is never empty: OpenAPI allows `?name=` only with `allowEmptyValue`, and servers read it as absent
 * (a required parameter then missing). A list sends at least one item, for the same reason.
 */
function nonEmpty(schema: BodySchema): BodySchema {
  const types = schema.types ?? [];
  return {
    ...schema,
    ...(types.includes("string") ? { minLength: Math.max(1, schema.minLength ?? 0) } : {}),
    ...(types.includes("array") && schema.items
      ? { minItems: Math.max(1, schema.minItems ?? 0), items: nonEmpty(schema.items) }
      : {}),
  };
}

/** A list parameter sends one item: how several go in a URL (repeated, comma-separated) is not generated. */
function oneItem(schema: BodySchema): BodySchema {
  return schema.types?.includes("array")
    ? { ...schema, maxItems: Math.min(schema.maxItems ?? 1, 1) }
    : schema;
}

/** Text that would not travel as it is in a header (a server trims spaces at its ends) or a cookie. */
const untravelled: Readonly<Record<"header" | "cookie", string>> = {
  header: "^[\\t ]|[\\t ]$|[^\\t\\x20-\\x7e]",
  cookie: '[^\\x21-\\x7e]|[";,\\\\]',
};

/** Does `text` travel as it is in a parameter of `part`? */
export function travelsAsIs(part: ParameterPart, text: string): boolean {
  if (part !== "header" && part !== "cookie") return true;
  return text !== "" && !new RegExp(untravelled[part]).test(text);
}

/** A header's or cookie's value: never empty (read as absent), only text that travels as it is. */
function carriedSchema(schema: BodySchema, part: "header" | "cookie"): BodySchema {
  const unsafe: BodySchema = { pointer: schema.pointer, types: ["string"], pattern: untravelled[part] };
  const textual = schema.types === undefined || schema.types.includes("string");
  if (!textual) return schema;
  return {
    ...schema,
    minLength: Math.max(1, schema.minLength ?? 0),
    not: schema.not ? { pointer: schema.pointer, anyOf: [schema.not, unsafe] } : unsafe,
  };
}

/** Header parameters OpenAPI says to ignore: the client sets them. */
const ignoredHeaders = new Set(["accept", "content-type", "authorization"]);

const cache = new WeakMap<OperationInfo, RequestSchema>();

/** The request schema of `operation` (cached per operation). */
export function requestSchemaOfOperation(spec: ApiSpec, operation: OperationInfo): RequestSchema {
  const cached = cache.get(operation);
  if (cached) return cached;
  const holders = Object.fromEntries(
    parameterParts.map((part) => [
      part,
      { pointer: `#${part}`, types: ["object"], properties: {}, required: [] } as BodySchema,
    ]),
  ) as Record<ParameterPart, BodySchema>;
  const leftOut: string[] = [];
  const unbuildable: string[] = [];
  for (const parameter of operation.parameters) {
    const where = `${parameter.in} parameter ${parameter.name}`;
    if (parameter.in === "header" && ignoredHeaders.has(parameter.name.toLowerCase())) {
      leftOut.push(`${where}: ignored (OpenAPI: the client sets it)`);
      continue;
    }
    const schema = parameterSchema(spec, operation, parameter);
    const why = notTextual(schema);
    if (why !== undefined) {
      (parameter.required || parameter.in === "path" ? unbuildable : leftOut).push(`${where}: ${why}`);
      continue;
    }
    const holder = holders[parameter.in];
    holder.properties![parameter.name] =
      parameter.in === "path"
        ? segmentSchema(schema)
        : parameter.in === "query"
          ? nonEmpty(oneItem(schema))
          : carriedSchema(oneItem(schema), parameter.in);
    if (parameter.required || parameter.in === "path") holder.required!.push(parameter.name);
  }
  const properties: Record<string, BodySchema> = { ...holders };
  const required: string[] = [...parameterParts];
  const media = operation.requestBody?.contentTypes ?? [];
  const body = media.includes("application/json") ? requestSchemaOf(spec, operation.operationId) : undefined;
  if (body) {
    properties.body = body;
    if (operation.requestBody?.required) required.push("body");
  } else if (operation.requestBody?.required) {
    unbuildable.push(`a required ${media.join(" or ") || "request"} body (only JSON bodies are generated)`);
  } else if (operation.requestBody) leftOut.push(`the optional ${media.join(" or ")} body`);
  const result: RequestSchema = {
    schema: {
      pointer: childPointer("#request", operation.operationId),
      types: ["object"],
      properties,
      required,
    },
    leftOut,
    ...(unbuildable.length > 0 ? { unbuildable: unbuildable.join("; ") } : {}),
  };
  cache.set(operation, result);
  return result;
}

/** Does `text` have string format `format` as ajv-formats checks it (an unknown format holds)? */
function formatHolds(format: string, text: string): boolean {
  const known = (fullFormats as Record<string, unknown>)[format];
  if (known instanceof RegExp) return known.test(text);
  if (typeof known === "function") return Boolean(known(text));
  const validate = (known as { validate?: unknown } | undefined)?.validate;
  if (validate instanceof RegExp) return validate.test(text);
  if (typeof validate === "function") return Boolean(validate(text));
  return true;
}

/** A parameter value as it goes in a URL: its text (an array of one item: the item's). */
export function parameterText(value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => parameterText(item)).join(",");
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Does `text`, read back as a server reads a parameter of this schema (a number, a boolean, the text itself, an
 * array of it), satisfy the schema? A mutation whose text still does is no mutation of a URL.
 */
export function textConforms(schema: BodySchema, text: string): boolean {
  const textual = schema.types === undefined || schema.types.includes("string");
  if (textual && schema.format !== undefined && !formatHolds(schema.format, text)) return false;
  const readings: unknown[] = [text];
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text)) readings.push(Number(text));
  if (text === "true" || text === "false") readings.push(text === "true");
  if (text === "null") readings.push(null);
  for (const reading of [...readings]) readings.push([reading]);
  return readings.some((reading) => conforms(schema, reading));
}
