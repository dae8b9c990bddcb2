/**
 * `loadSpec`: reads an API description (file or http(s) URL, YAML or JSON) with swagger-parser, checks it,
 * and returns an {@link ApiSpec}: its operation index and lazily compiled validators.
 *
 * Fast on large descriptions by doing only what is needed: no full dereference (the index follows `$ref`s on
 * demand, ajv compiles them as references); bundling only when some `$ref` is external; validation against
 * the dialect's JSON schema with ajv plus a few semantic checks, instead of swagger-parser's `validate()`.
 * @module
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { SpecInvalidError, SpecLoadError } from "../core/errors.ts";
import { checkInputFile, InputFileRefused, inputLimits } from "../core/input-file.ts";
import { type FormatMode, knownFormats } from "./compile.ts";
import { detectDialect } from "./dialect.ts";
import { documentSchemaProblems } from "./document-schema.ts";
import { indexOperations } from "./operations.ts";
import { isObject } from "./pointer.ts";
import { scanDocument } from "./scan.ts";
import { semanticProblems } from "./semantic-checks.ts";
import { documentServers } from "./servers.ts";
import type { ApiSpec, LoadSpecOptions } from "./types.ts";
import { createValidatorCache } from "./validators.ts";

/**
 * Loads, checks and indexes an API description.
 * @throws SpecLoadError when it cannot be read or parsed; SpecInvalidError (with JSON pointers) when it is not
 *   a valid description; SpecUnsupportedError for a version other than Swagger 2.0, OpenAPI 3.0 or 3.1.
 */
export async function loadSpec(source: string, options: LoadSpecOptions = {}): Promise<ApiSpec> {
  const parser = new SwaggerParser();
  const parsed = await parse(parser, source);
  const dialect = detectDialect(parsed, source);
  let document = parsed;
  let scan = scanDocument(document);
  if (scan.hasExternalRefs) {
    document = await bundle(parser, source, document);
    scan = scanDocument(document);
  }
  if (options.validate !== false) {
    const problems = [
      ...documentSchemaProblems(document, dialect),
      ...semanticProblems(document, dialect, scan),
    ];
    if (problems.length > 0) throw new SpecInvalidError(source, problems);
  }
  const servers = documentServers(document, dialect);
  const { index, bodies } = indexOperations(document, dialect, servers);
  const formats = knownFormats();
  const unknownFormats = [...scan.formats].filter((format) => !formats.has(format)).sort();
  const info = isObject(document.info) ? document.info : {};
  return {
    source,
    dialect,
    title: typeof info.title === "string" ? info.title : "",
    version: typeof info.version === "string" ? info.version : "",
    servers,
    document,
    operations: index,
    validators: createValidatorCache(document, {
      dialect,
      bodies,
      unknownFormats,
      formatMode: options.formats ?? ("full" satisfies FormatMode),
      shareCompiled: options.shareCompiled ?? false,
    }),
  };
}

type Document = Record<string, unknown>;

/** Reads and parses the source; swagger-parser's own version checks are left to {@link detectDialect}. */
async function parse(parser: SwaggerParser, source: string): Promise<Document> {
  // swagger-parser reads a file whole, whatever it is: /dev/zero or a FIFO would never end.
  if (!/^https?:\/\//i.test(source)) {
    try {
      checkInputFile(source, inputLimits.description);
    } catch (error) {
      if (error instanceof InputFileRefused)
        throw new SpecLoadError(source, `cannot load ${source}: it ${error.message}`, { cause: error });
      throw error;
    }
  }
  try {
    await parser.parse(source, parserOptions(source));
  } catch (error) {
    // swagger-parser refuses some versions and shapes after parsing; the parsed object is then still there,
    // and the dialect check and the schema validation say what is wrong, with a pointer.
    if (!isObject(parser.api)) {
      throw new SpecLoadError(source, `cannot load ${source}: ${messageOf(error)}`, { cause: error });
    }
  }
  if (!isObject(parser.api)) {
    throw new SpecLoadError(source, `cannot load ${source}: not a JSON or YAML object`);
  }
  return parser.api as Document;
}

/** Inlines external `$ref`s (other files, URLs) into the document; internal ones stay. */
async function bundle(parser: SwaggerParser, source: string, document: Document): Promise<Document> {
  try {
    return (await parser.bundle(source, document as never, parserOptions(source))) as unknown as Document;
  } catch (error) {
    throw new SpecLoadError(source, `cannot resolve the external $refs of ${source}: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/**
 * json-schema-ref-parser refuses loopback and private hosts by default (SSRF protection for servers that
 * fetch URLs from untrusted input). A source on a loopback host was chosen by the user (a local emulator, the
 * embedded reference server): allow it. Anything else keeps the protection.
 */
function parserOptions(source: string): SwaggerParser.Options {
  return { resolve: { http: { timeout: 30_000, safeUrlResolver: !isLoopbackUrl(source) } } };
}

function isLoopbackUrl(source: string): boolean {
  if (!/^https?:\/\//i.test(source)) return false;
  try {
    const host = new URL(source).hostname;
    return host === "localhost" || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim().replace(/\s*\n\s*/g, " ");
}
