/** Shared by the spec loader's tests: fixture paths and throwaway descriptions written to a temp directory. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stringify } from "yaml";

export const fixturesDir = resolve(import.meta.dirname, "../fixtures/specs");

export function fixture(name: string): string {
  return join(fixturesDir, name);
}

/** The same small API in each dialect (see the comments at the top of the files). */
export const dialectFixtures = [
  { dialect: "openapi-3.0", file: fixture("mini-cloud-3.0.yaml") },
  { dialect: "openapi-3.1", file: fixture("mini-cloud-3.1.yaml") },
  { dialect: "swagger-2.0", file: fixture("mini-cloud-2.0.json") },
] as const;

let tempDir: string | undefined;

/** Writes a description to a fresh file in a temp directory and returns its path. */
export function writeSpec(document: unknown, name = "spec.yaml"): string {
  tempDir ??= mkdtempSync(join(tmpdir(), "conform-spec-"));
  const dir = mkdtempSync(join(tempDir, "case-"));
  const path = join(dir, name);
  writeFileSync(path, name.endsWith(".json") ? JSON.stringify(document) : stringify(document));
  return path;
}

/** A minimal valid OpenAPI document of the given version with one operation, to build cases from. */
export function minimalDocument(openapi = "3.0.3"): Record<string, unknown> {
  return {
    openapi,
    info: { title: "Minimal", version: "1.0.0" },
    paths: {
      "/things/{thingId}": {
        get: {
          operationId: "getThing",
          parameters: [{ name: "thingId", in: "path", required: true, schema: { type: "integer" } }],
          responses: {
            "200": {
              description: "A thing.",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: { type: "object", required: ["id"], properties: { id: { type: "integer" } } },
      },
    },
  };
}
