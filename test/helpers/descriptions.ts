/**
 * Descriptions for tests: copies of the bundled one changed for a test, and tiny OpenAPI 3.1 ones built from a few
 * path items (lists, creates, deletes), each written to a temporary file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { parse, stringify } from "yaml";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { ApiSpec } from "../../src/spec/types.ts";

/** The bundled description without the path items at `paths` (a list it no longer offers); answers its file. */
export function descriptionWithout(...paths: readonly string[]): string {
  const document = parse(readFileSync(bundledSpecPath, "utf8")) as { paths: Record<string, unknown> };
  for (const path of paths) {
    if (!(path in document.paths)) throw new Error(`the bundled description has no path ${path}`);
    delete document.paths[path];
  }
  const folder = mkdtempSync(join(tmpdir(), "conform-without-"));
  writtenFolders.push(folder);
  const file = join(folder, "description.yaml");
  writeFileSync(file, stringify(document));
  return file;
}

// A run may read a description file until the test file ends: its folder goes then, not before.
const writtenFolders: string[] = [];
afterAll(() => {
  for (const folder of writtenFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

export type TinyPaths = Record<string, unknown>;

let written = 0;

/** A tiny OpenAPI 3.1 description of `paths` and component `schemas` (a bearer scheme named `token`), loaded. */
export async function tinyDescription(
  paths: TinyPaths,
  schemas: Record<string, unknown> = {},
): Promise<ApiSpec> {
  const folder = mkdtempSync(join(tmpdir(), "conform-tiny-"));
  const file = join(folder, `description-${++written}.json`);
  const document = {
    openapi: "3.1.0",
    info: { title: "Not ours", version: "1.0.0" },
    servers: [{ url: "https://api.example.test/v1" }],
    paths,
    components: { schemas, securitySchemes: { token: { type: "http", scheme: "bearer" } } },
  };
  writeFileSync(file, JSON.stringify(document));
  try {
    return await loadSpec(file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** An item with a string `id` and a `name`. */
export const idItem = { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } };

/** `getThingsThingIdParts` for GET /things/{thingId}/parts. */
export const operationIdOf = (method: string, path: string) =>
  `${method}${path.replace(/[{}]/g, "").replace(/\/(\w)/g, (_all, first: string) => first.toUpperCase())}`;

/** The declarations of `path`'s parameters (strings). */
function parametersOf(path: string): { parameters?: unknown[] } {
  const parameters = [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  return parameters.length ? { parameters } : {};
}

/** A GET list at `path` answering `{data: [items]}`, public unless `guarded`. */
export function listAt(path: string, items: unknown = idItem, guarded = false): TinyPaths {
  const data = { type: "object", properties: { data: { type: "array", items } } };
  return {
    [path]: {
      get: {
        operationId: operationIdOf("get", path),
        security: guarded ? [{ token: [] }] : [],
        ...parametersOf(path),
        responses: { "200": { description: "A list", content: { "application/json": { schema: data } } } },
      },
    },
  };
}

/** A POST at `path` taking a JSON body of `properties` (`required` ones). */
export function createAt(path: string, properties: Record<string, unknown>, required?: string[]): TinyPaths {
  const schema = { type: "object", properties, ...(required ? { required } : {}) };
  return {
    [path]: {
      post: {
        operationId: operationIdOf("post", path),
        ...parametersOf(path),
        requestBody: { content: { "application/json": { schema } } },
        responses: { "201": { description: "Made" } },
      },
    },
  };
}

/** A DELETE at `path`. */
export function deleteAt(path: string): TinyPaths {
  return {
    [path]: {
      delete: {
        operationId: operationIdOf("delete", path),
        ...parametersOf(path),
        responses: { "204": { description: "Gone" } },
      },
    },
  };
}

/** A POST at `path` named `operationId`, taking a required JSON body of `schema`. */
export function bodyAt(path: string, operationId: string, schema: unknown): TinyPaths {
  const requestBody = { required: true, content: { "application/json": { schema } } };
  return { [path]: { post: { operationId, requestBody, responses: { "204": { description: "Done" } } } } };
}

const ruleList = { type: "array", items: { type: "string", pattern: "^[a-z]+$" }, minItems: 1 };

/** A firewall's rules: two lists, at least one sent (an `anyOf` of required sets beside the properties). */
export const eitherRuleList = {
  type: "object",
  properties: { inbound: ruleList, outbound: ruleList },
  anyOf: [{ required: ["inbound"] }, { required: ["outbound"] }],
};

const action = { type: "object", properties: { type: { enum: ["reboot", "snapshot"] } }, required: ["type"] };

/** A `oneOf` whose second branch accepts every value of the first: no value fits it. */
export const overlappingOneOf = {
  oneOf: [action, { allOf: [action, { properties: { name: { type: "string" } } }] }],
};
