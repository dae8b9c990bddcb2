/**
 * The spec's {@link ValidatorCache}: finds the schema for an operation's response (status, then range, then
 * `default`; then media type) or request, and hands it to the compiler of the right validation context.
 * Nothing compiles until a validator is asked for; each compiles once.
 * @module
 */
import { createHash } from "node:crypto";
import { BoundedMemo } from "../core/bounded-memo.ts";
import { type BodySchemas, mediaTypeFor, parameterKey, responseFor } from "./body-schemas.ts";
import { createSchemaCompiler, type FormatMode, type SchemaCompiler } from "./compile.ts";
import type { SpecDialect, Validator, ValidatorCache } from "./types.ts";

export interface ValidatorCacheOptions {
  readonly dialect: SpecDialect;
  readonly bodies: ReadonlyMap<string, BodySchemas>;
  readonly unknownFormats: readonly string[];
  readonly formatMode: FormatMode;
  /** Compilers shared by every load of the same content in this process (`LoadSpecOptions.shareCompiled`). */
  readonly shareCompiled?: boolean;
}

/**
 * The compilers of documents loaded with `shareCompiled`, by content and compile options: at most a few (a process
 * judges one or two descriptions), the oldest dropped first.
 */
const sharedCompilers = new Map<string, SchemaCompiler>();
const maxSharedCompilers = 4;

/** A digest of a JSON-like value's content; "" when it cannot be serialised (then nothing is shared). */
function contentKeyOf(value: unknown): string {
  try {
    return createHash("sha256").update(JSON.stringify(value)).digest("base64url");
  } catch {
    return "";
  }
}

function sharedCompiler(key: string, create: () => SchemaCompiler): SchemaCompiler {
  let compiler = sharedCompilers.get(key);
  if (!compiler) {
    compiler = create();
    if (sharedCompilers.size >= maxSharedCompilers) {
      const oldest = sharedCompilers.keys().next().value;
      if (oldest !== undefined) sharedCompilers.delete(oldest);
    }
    sharedCompilers.set(key, compiler);
  }
  return compiler;
}

export function createValidatorCache(document: unknown, options: ValidatorCacheOptions): ValidatorCache {
  const compilerOptions = {
    dialect: options.dialect,
    unknownFormats: options.unknownFormats,
    formatMode: options.formatMode,
  };
  let responses: SchemaCompiler | undefined;
  let requests: SchemaCompiler | undefined;
  // The content key is computed at the first compile, only when shared: a load that compiles nothing pays nothing.
  let contentKey: string | undefined;
  const compilerFor = (context: "response" | "request"): SchemaCompiler => {
    const create = () => createSchemaCompiler(document, { ...compilerOptions, context });
    if (!options.shareCompiled) return create();
    contentKey ??= contentKeyOf([compilerOptions, document]);
    return contentKey === "" ? create() : sharedCompiler(`${contentKey}:${context}`, create);
  };
  const responseCompiler = () => {
    responses ??= compilerFor("response");
    return responses;
  };
  const requestCompiler = () => {
    requests ??= compilerFor("request");
    return requests;
  };
  const unknownFormats = Object.freeze([...options.unknownFormats]);

  const findResponse = (operationId: string, status: number, contentType: string | undefined) => {
    const body = options.bodies.get(operationId);
    const response = body && responseFor(body.responses, status);
    if (!response) return undefined;
    const mediaType = mediaTypeFor(response.media, contentType);
    const pointer = mediaType === undefined ? undefined : response.media.get(mediaType);
    return pointer === undefined ? undefined : responseCompiler().compile(pointer);
  };
  // Content types come from the target: bounded, so a target sending endless variants cannot grow it. By
  // operation and status first (the description's, a few hundred), then the content type: no key is built per
  // answer.
  const responseLookups = new Map<string, Map<number, BoundedMemo<string, Validator | undefined>>>();
  const lookupsOf = (operationId: string, status: number) => {
    let byStatus = responseLookups.get(operationId);
    if (!byStatus) {
      // Operation ids come from the description, or from a recording's matching: bounded as well.
      if (responseLookups.size >= 4096) responseLookups.clear();
      byStatus = new Map();
      responseLookups.set(operationId, byStatus);
    }
    let byType = byStatus.get(status);
    if (!byType) {
      if (byStatus.size >= 1024) byStatus.clear();
      byType = new BoundedMemo(64);
      byStatus.set(status, byType);
    }
    return byType;
  };

  return {
    response(operationId, status, contentType) {
      // Every checked answer asks: the lookup (status, range, default; then media type) is done once per key.
      return lookupsOf(operationId, status).get(contentType ?? "", () =>
        findResponse(operationId, status, contentType),
      );
    },
    request(operationId, contentType): Validator | undefined {
      const request = options.bodies.get(operationId)?.request;
      if (!request) return undefined;
      const mediaType = mediaTypeFor(request.media, contentType);
      const pointer = mediaType === undefined ? undefined : request.media.get(mediaType);
      return pointer === undefined ? undefined : requestCompiler().compile(pointer);
    },
    parameter(operationId, location, name): Validator | undefined {
      const pointer = options.bodies.get(operationId)?.parameters.get(parameterKey(location, name));
      return pointer === undefined ? undefined : requestCompiler().compile(pointer);
    },
    unknownFormats: () => unknownFormats,
    compiledCount: () => (responses?.compiledCount ?? 0) + (requests?.compiledCount ?? 0),
  };
}
