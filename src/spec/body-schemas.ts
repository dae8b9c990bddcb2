/**
 * Where the body schemas of an operation are: per response status and media type, and per request media type,
 * as JSON pointers into the document (so validators compile by pointer, and shared responses compile once).
 * Swagger 2.0 is mapped onto the same shape: `responses[x].schema` for each `produces` type, the `in: body`
 * parameter's schema for each `consumes` type.
 * @module
 * @internal
 */
import type { RawParameter } from "./parameters.ts";
import { childPointer, isObject, resolveRef } from "./pointer.ts";
import type { SpecDialect } from "./types.ts";
import type { RawOperation } from "./walk-operations.ts";

/** Media type → pointer of its schema (`undefined` when the media type has none). */
export type MediaSchemas = ReadonlyMap<string, string | undefined>;

export interface ResponseBody {
  readonly status: string;
  readonly description: string;
  /** Pointer of the response object (its `$ref` target when it is a reference). */
  readonly pointer: string;
  readonly value: Readonly<Record<string, unknown>>;
  readonly media: MediaSchemas;
}

export interface BodySchemas {
  readonly responses: readonly ResponseBody[];
  readonly request:
    | { readonly required: boolean; readonly media: MediaSchemas; readonly pointer: string }
    | undefined;
  /**
   * The schema pointer of each path, query, header and cookie parameter (`in` and name joined by a newline), where
   * the description gives one as a schema (OpenAPI 3: `schema`, or the first `content` type's); Swagger 2.0 keeps
   * a parameter's keywords on the parameter itself, so it has none here.
   */
  readonly parameters: ReadonlyMap<string, string>;
}

/** The key of a parameter in {@link BodySchemas.parameters}. */
export const parameterKey = (location: string, name: string) => `${location}\n${name}`;

export function bodySchemas(
  document: unknown,
  dialect: SpecDialect,
  raw: RawOperation,
  parameters: readonly RawParameter[],
): BodySchemas {
  const swagger = dialect === "swagger-2.0";
  const root = isObject(document) ? document : {};
  const produces = mediaList(raw.operation.produces) ?? mediaList(root.produces) ?? ["application/json"];
  const consumes = mediaList(raw.operation.consumes) ?? mediaList(root.consumes) ?? ["application/json"];

  const responses: ResponseBody[] = [];
  const writtenResponses = isObject(raw.operation.responses) ? raw.operation.responses : {};
  for (const [status, written] of Object.entries(writtenResponses)) {
    if (status.startsWith("x-")) continue;
    const resolved = resolveRef(document, written, childPointer(raw.pointer, "responses", status));
    if (!resolved.ok || !isObject(resolved.value)) continue;
    const value = resolved.value;
    const media = swagger
      ? new Map(
          produces.map((type) => [
            type,
            value.schema === undefined ? undefined : childPointer(resolved.pointer, "schema"),
          ]),
        )
      : contentSchemas(value.content, childPointer(resolved.pointer, "content"));
    responses.push({
      status,
      description: typeof value.description === "string" ? value.description : "",
      pointer: resolved.pointer,
      value,
      media,
    });
  }

  let request: BodySchemas["request"];
  if (swagger) {
    const body = parameters.find((parameter) => parameter.in === "body");
    const form = parameters.filter((parameter) => parameter.in === "formData");
    if (body) {
      request = {
        required: body.value.required === true,
        media: new Map(consumes.map((type) => [type, childPointer(body.pointer, "schema")])),
        pointer: body.pointer,
      };
    } else if (form.length > 0) {
      // Form fields are parameters, not a schema: the request has content types but no body validator.
      const formTypes = consumes.filter((type) => /form/.test(type));
      request = {
        required: form.some((parameter) => parameter.value.required === true),
        media: new Map(
          (formTypes.length > 0 ? formTypes : ["application/x-www-form-urlencoded"]).map((type) => [
            type,
            undefined,
          ]),
        ),
        pointer: form[0]?.pointer ?? raw.pointer,
      };
    }
  } else if (raw.operation.requestBody !== undefined) {
    const resolved = resolveRef(
      document,
      raw.operation.requestBody,
      childPointer(raw.pointer, "requestBody"),
    );
    if (resolved.ok && isObject(resolved.value)) {
      request = {
        required: resolved.value.required === true,
        media: contentSchemas(resolved.value.content, childPointer(resolved.pointer, "content")),
        pointer: resolved.pointer,
      };
    }
  }
  return { responses, request, parameters: swagger ? new Map() : parameterSchemas(parameters) };
}

function parameterSchemas(parameters: readonly RawParameter[]): Map<string, string> {
  const pointers = new Map<string, string>();
  for (const { in: location, name, value, pointer } of parameters) {
    const first = isObject(value.content) ? Object.entries(value.content)[0] : undefined;
    const schema =
      value.schema !== undefined
        ? childPointer(pointer, "schema")
        : first && isObject(first[1]) && first[1].schema !== undefined
          ? childPointer(pointer, "content", first[0], "schema")
          : undefined;
    if (schema !== undefined) pointers.set(parameterKey(location, name), schema);
  }
  return pointers;
}

function mediaList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.length > 0
    ? value.filter((item): item is string => typeof item === "string")
    : undefined;
}

function contentSchemas(content: unknown, pointer: string): Map<string, string | undefined> {
  const media = new Map<string, string | undefined>();
  if (!isObject(content)) return media;
  for (const [type, value] of Object.entries(content)) {
    media.set(
      type,
      isObject(value) && value.schema !== undefined ? childPointer(pointer, type, "schema") : undefined,
    );
  }
  return media;
}

/** The response that answers a status: exact first, then its range (`4XX`), then `default`. */
export function responseFor(responses: readonly ResponseBody[], status: number): ResponseBody | undefined {
  const exact = String(status);
  const range = `${Math.floor(status / 100)}XX`;
  return (
    responses.find((response) => response.status === exact) ??
    responses.find((response) => response.status.toUpperCase() === range) ??
    responses.find((response) => response.status === "default")
  );
}

/**
 * The media type of `media` that a content type falls under: exact (parameters and case ignored), then
 * `type/*`, then `*\/*`. Without a content type, JSON is preferred, then the first declared.
 */
export function mediaTypeFor(media: MediaSchemas, contentType: string | undefined): string | undefined {
  const declared = [...media.keys()];
  if (contentType === undefined) {
    return (
      declared.find((type) => essence(type) === "application/json") ??
      declared.find((type) => /\+json$/.test(essence(type))) ??
      declared[0]
    );
  }
  const wanted = essence(contentType);
  const major = wanted.split("/")[0];
  return (
    declared.find((type) => essence(type) === wanted) ??
    declared.find((type) => essence(type) === `${major}/*`) ??
    declared.find((type) => essence(type) === "*/*")
  );
}

/** `Application/JSON; charset=utf-8` → `application/json`. */
function essence(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}
