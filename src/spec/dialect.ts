/**
 * Which description language a parsed document is written in: Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1.
 * @module
 * @internal
 */
import { SpecInvalidError, SpecUnsupportedError } from "../core/errors.ts";
import type { SpecDialect } from "./types.ts";

/**
 * The dialect of a parsed document. Throws `SpecInvalidError` when the version field is missing or not a
 * string, and `SpecUnsupportedError` for a version the toolkit cannot handle (OpenAPI 3.2, 4, a Swagger 1.x ...).
 */
export function detectDialect(document: unknown, source: string): SpecDialect {
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new SpecInvalidError(source, [{ pointer: "", message: "must be an object (an API description)" }]);
  }
  const { swagger, openapi } = document as { swagger?: unknown; openapi?: unknown };
  if (swagger !== undefined && openapi === undefined) {
    if (typeof swagger !== "string") {
      throw new SpecInvalidError(source, [
        { pointer: "/swagger", message: 'must be a string such as "2.0"' },
      ]);
    }
    if (swagger === "2.0") return "swagger-2.0";
    throw new SpecUnsupportedError(`${source}: Swagger ${swagger} is not supported (only 2.0)`);
  }
  if (openapi !== undefined) {
    if (typeof openapi !== "string") {
      throw new SpecInvalidError(source, [
        { pointer: "/openapi", message: 'must be a string such as "3.1.0"' },
      ]);
    }
    if (/^3\.0\.\d+(?:-.+)?$/.test(openapi)) return "openapi-3.0";
    if (/^3\.1\.\d+(?:-.+)?$/.test(openapi)) return "openapi-3.1";
    throw new SpecUnsupportedError(
      `${source}: OpenAPI ${openapi} is not supported (supported: Swagger 2.0, OpenAPI 3.0.x and 3.1.x)`,
    );
  }
  throw new SpecInvalidError(source, [
    { pointer: "", message: "must have an `openapi` (3.x) or `swagger` (2.0) version field" },
  ]);
}

/** How the summary names a dialect. */
export function dialectName(dialect: SpecDialect): string {
  return { "swagger-2.0": "Swagger 2.0", "openapi-3.0": "OpenAPI 3.0", "openapi-3.1": "OpenAPI 3.1" }[
    dialect
  ];
}
