/**
 * A large synthetic API description for the bench (issue 2, section 4): an OpenAPI 3.1 document of about 1 MB
 * in YAML with 300+ operations and deep `$ref`s, generated deterministically from a seed (same seed, same bytes).
 *
 * Shaped like a large real-world description: 8 areas of resources; each resource has a paginated, filterable list
 * (`x-filterable` fields, `X-Filter` header), create, read, update and delete; half have a nested paginated list,
 * a third an action. Parameters, headers and error responses are shared through `components`; each resource's
 * schema is `allOf` a shared base, and its settings are a chain of schemas, each referencing the next, ending in
 * shared schemas that reference further ones (so a response's schema is 12+ `$ref`s deep), plus a circular
 * tree schema. Every field has a description and an example, as documented APIs do.
 * @module
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";

export interface SyntheticSpecOptions {
  /** Resources (each 5 to 7 operations). Default 56: 327 operations. */
  readonly resources?: number;
  /** Length of each resource's settings chain of `$ref`s. Default 8 (responses 14 `$ref`s deep). */
  readonly chainDepth?: number;
  /** Words per description. Default 4 (with the other defaults: about 1.1 MB of YAML). */
  readonly descriptionWords?: number;
  readonly seed?: number;
}

export interface SyntheticSpec {
  readonly document: Record<string, unknown>;
  /** The YAML text. */
  readonly text: string;
  readonly bytes: number;
  readonly operations: number;
  readonly schemas: number;
}

type Json = Record<string, unknown>;

const areas = ["compute", "storage", "network", "identity", "billing", "monitoring", "database", "messaging"];
const nouns = [
  "volume",
  "snapshot",
  "image",
  "bucket",
  "firewall",
  "vpc",
  "subnet",
  "route",
  "gateway",
  "certificate",
  "domain",
  "record",
  "user",
  "group",
  "role",
  "policy",
  "invoice",
  "payment",
  "alert",
  "metric",
  "dashboard",
  "cluster",
  "replica",
  "backup",
  "queue",
  "topic",
  "subscription",
  "key",
  "secret",
  "endpoint",
  "pipeline",
  "schedule",
];
const qualifiers = ["", "archive", "template", "quota", "profile", "link", "job", "report"];
const words =
  "the a of resource value when each request returns field account region limit must may be set to is not one which if within for this given with current by new older list page filter count size state time id label tag status".split(
    " ",
  );
const actions = ["resize", "migrate", "clone", "restart", "rotate", "attach", "detach", "verify"];

/** mulberry32: a small, fast, seedable PRNG; the same seed gives the same sequence everywhere. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pascal = (text: string) =>
  text
    .split(/[-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");

/** Generates the description; pure and deterministic. */
export function generateSyntheticSpec(options: SyntheticSpecOptions = {}): SyntheticSpec {
  const resourceCount = options.resources ?? 56;
  const chainDepth = options.chainDepth ?? 8;
  const descriptionWords = options.descriptionWords ?? 4;
  const random = prng(options.seed ?? 20_260_101);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const sentence = (count: number) => {
    const text = Array.from({ length: count }, () => pick(words)).join(" ");
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };

  const schemas: Json = sharedSchemas(sentence);
  const parameters: Json = sharedParameters();
  const paths: Json = {};
  let operations = 0;

  const resources = Array.from({ length: resourceCount }, (_, index) => {
    const noun = nouns[index % nouns.length]!;
    const qualifier = qualifiers[Math.floor(index / nouns.length) % qualifiers.length]!;
    const round = Math.floor(index / (nouns.length * qualifiers.length));
    const name = [noun, qualifier, round > 0 ? String(round) : ""].filter(Boolean).join("-");
    return { index, name, schema: pascal(name), plural: `${name}s`, area: areas[index % areas.length]! };
  });

  for (const resource of resources) {
    const { schema, plural, area } = resource;
    const idParam = `${schema.charAt(0).toLowerCase()}${schema.slice(1)}Id`;
    parameters[idParam] = {
      name: idParam,
      in: "path",
      required: true,
      description: `The ${resource.name}'s id.`,
      schema: { type: "integer", minimum: 1 },
    };

    // The settings chain: Settings1 -> Settings2 -> ... -> SettingsN -> AuditInfo -> Actor -> Organization -> ...
    for (let level = 1; level <= chainDepth; level += 1) {
      const next =
        level < chainDepth
          ? { $ref: `#/components/schemas/${schema}Settings${level + 1}` }
          : { $ref: "#/components/schemas/AuditInfo" };
      schemas[`${schema}Settings${level}`] = {
        type: "object",
        description: sentence(descriptionWords),
        properties: {
          ...fields(int(2, 3), `${schema}Settings${level}`),
          next,
        },
      };
    }
    const own = fields(int(8, 12), schema);
    schemas[schema] = {
      description: `A ${resource.name}. ${sentence(descriptionWords)}`,
      allOf: [
        { $ref: "#/components/schemas/ResourceBase" },
        {
          type: "object",
          required: Object.keys(own).slice(0, 3),
          properties: {
            ...own,
            settings: { $ref: `#/components/schemas/${schema}Settings1` },
            tags: { $ref: "#/components/schemas/Tags" },
            price: { $ref: "#/components/schemas/Money" },
            layout: { $ref: "#/components/schemas/TreeNode" },
          },
        },
      ],
    };
    const writable = Object.fromEntries(Object.entries(own).filter(([, value]) => !(value as Json).readOnly));
    const writableNames = Object.keys(writable);
    schemas[`${schema}Create`] = {
      type: "object",
      description: `What a new ${resource.name} is made from.`,
      required: writableNames.slice(0, 2),
      properties: {
        ...structuredClone(writable),
        settings: { $ref: `#/components/schemas/${schema}Settings1` },
        tags: { $ref: "#/components/schemas/Tags" },
      },
      additionalProperties: false,
    };
    schemas[`${schema}Update`] = {
      type: "object",
      description: `Fields of a ${resource.name} that can change.`,
      minProperties: 1,
      properties: structuredClone(writable),
      additionalProperties: false,
    };

    const read = `${area}:read_only`;
    const write = `${area}:read_write`;
    const collection = `/${area}/${plural}`;
    const item = `${collection}/{${idParam}}`;
    paths[collection] = {
      get: listOperation(`list${schema}s`, `List ${plural}`, schema, area, sentence(descriptionWords)),
      post: {
        operationId: `create${schema}`,
        tags: [area],
        summary: `Create a ${resource.name}`,
        description: sentence(descriptionWords),
        security: securityFor(write),
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}Create` } } },
        },
        responses: {
          "200": okResponse(`The new ${resource.name}.`, { $ref: `#/components/schemas/${schema}` }),
          ...errorResponses(),
        },
      },
    };
    paths[item] = {
      parameters: [{ $ref: `#/components/parameters/${idParam}` }],
      get: {
        operationId: `get${schema}`,
        tags: [area],
        summary: `Read a ${resource.name}`,
        description: sentence(descriptionWords),
        security: securityFor(read),
        responses: {
          "200": okResponse(`The ${resource.name}.`, { $ref: `#/components/schemas/${schema}` }),
          ...errorResponses(true),
        },
      },
      put: {
        operationId: `update${schema}`,
        tags: [area],
        summary: `Update a ${resource.name}`,
        description: sentence(descriptionWords),
        security: securityFor(write),
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}Update` } } },
        },
        responses: {
          "200": okResponse(`The updated ${resource.name}.`, { $ref: `#/components/schemas/${schema}` }),
          ...errorResponses(true),
        },
      },
      delete: {
        operationId: `delete${schema}`,
        tags: [area],
        summary: `Delete a ${resource.name}`,
        description: sentence(descriptionWords),
        security: securityFor(write),
        responses: {
          "200": okResponse("Deleted.", { type: "object", maxProperties: 0 }),
          ...errorResponses(true),
        },
      },
    };
    operations += 5;
    if (resource.index % 2 === 0) {
      const child = resources[(resource.index + 1) % resources.length]!;
      paths[`${item}/${child.plural}`] = {
        parameters: [{ $ref: `#/components/parameters/${idParam}` }],
        get: listOperation(
          `list${schema}${child.schema}s`,
          `List the ${child.plural} of a ${resource.name}`,
          child.schema,
          area,
          sentence(descriptionWords),
        ),
      };
      operations += 1;
    }
    if (resource.index % 3 === 0) {
      const action = actions[resource.index % actions.length]!;
      paths[`${item}/${action}`] = {
        parameters: [{ $ref: `#/components/parameters/${idParam}` }],
        post: {
          operationId: `${action}${schema}`,
          tags: [area],
          summary: `${pascal(action)} a ${resource.name}`,
          description: sentence(descriptionWords),
          security: securityFor(write),
          requestBody: {
            required: false,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { reason: { type: "string", maxLength: 200 }, force: { type: "boolean" } },
                },
              },
            },
          },
          responses: {
            "200": okResponse(`The ${resource.name}, ${action} started.`, {
              $ref: `#/components/schemas/${schema}`,
            }),
            ...errorResponses(true),
          },
        },
      };
      operations += 1;
    }
  }

  const document: Json = {
    openapi: "3.1.0",
    info: {
      title: "Synthetic Cloud API (bench)",
      version: "1.0.0",
      description: "A large description generated by `npm run bench` to measure the spec loader.",
    },
    servers: [{ url: "{base_url}", variables: { base_url: { default: "https://localhost/v1" } } }],
    security: [{ bearer: [] }],
    tags: areas.map((area) => ({ name: area, description: sentence(descriptionWords) })),
    paths,
    components: {
      schemas,
      parameters,
      headers: sharedHeaders(),
      responses: sharedResponses(),
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        oauth: {
          type: "oauth2",
          flows: {
            authorizationCode: {
              authorizationUrl: "https://login.example.net/oauth/authorize",
              tokenUrl: "https://login.example.net/oauth/token",
              scopes: Object.fromEntries(
                areas.flatMap((area) => [
                  [`${area}:read_only`, `Read ${area}`],
                  [`${area}:read_write`, `Read and change ${area}`],
                ]),
              ),
            },
          },
        },
      },
    },
  };
  const text = stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
  return {
    document,
    text,
    bytes: Buffer.byteLength(text),
    operations,
    schemas: Object.keys(schemas).length,
  };

  function fields(count: number, owner: string): Json {
    const out: Json = {};
    for (let i = 0; i < count; i += 1) {
      const [name, field] = makeField(i, owner);
      out[name] = field;
    }
    return out;
  }

  function makeField(i: number, owner: string): [string, Json] {
    const description = sentence(descriptionWords);
    const filterable = random() < 0.3 ? { "x-filterable": true } : {};
    const base = `${pick(words)}_${pick(words)}_${i}`;
    switch (int(0, 9)) {
      case 0:
        return [
          base,
          { type: "string", minLength: 1, maxLength: 64, description, examples: ["example"], ...filterable },
        ];
      case 1:
        return [
          base,
          {
            type: "string",
            pattern: "^[a-z][a-z0-9_-]{0,62}$",
            description,
            examples: ["name-1"],
            ...filterable,
          },
        ];
      case 2:
        return [
          base,
          { type: "integer", minimum: 0, maximum: 100_000, description, examples: [42], ...filterable },
        ];
      case 3:
        return [base, { type: "number", minimum: 0, description, examples: [1.5] }];
      case 4:
        return [base, { type: "boolean", description, examples: [true], ...filterable }];
      case 5:
        return [
          base,
          {
            type: "string",
            enum: ["pending", "active", "suspended", "deleted"],
            description,
            examples: ["active"],
            ...filterable,
          },
        ];
      case 6:
        return [
          `${base}_at`,
          {
            type: "string",
            format: "date-time",
            readOnly: true,
            description,
            examples: ["2025-01-02T03:04:05Z"],
          },
        ];
      case 7:
        return [
          `${base}_ip`,
          { type: ["string", "null"], format: "ipv4", description, examples: ["192.0.2.1"], ...filterable },
        ];
      case 8:
        return [
          `${base}_list`,
          {
            type: "array",
            items: { type: "string", maxLength: 32 },
            maxItems: 50,
            description,
            examples: [["a", "b"]],
            ...filterable,
          },
        ];
      default:
        return [
          `${base}_ref`,
          {
            description: `${description} (${owner})`,
            $ref: pick([
              "#/components/schemas/Address",
              "#/components/schemas/Link",
              "#/components/schemas/Money",
            ]),
          },
        ];
    }
  }

  function listOperation(
    operationId: string,
    summary: string,
    item: string,
    area: string,
    description: string,
  ) {
    return {
      operationId,
      tags: [area],
      summary,
      description,
      security: securityFor(`${area}:read_only`),
      parameters: [
        { $ref: "#/components/parameters/page" },
        { $ref: "#/components/parameters/page_size" },
        { $ref: "#/components/parameters/X-Filter" },
      ],
      responses: {
        "200": okResponse(summary, {
          allOf: [
            { $ref: "#/components/schemas/PaginatedList" },
            {
              type: "object",
              properties: { data: { type: "array", items: { $ref: `#/components/schemas/${item}` } } },
            },
          ],
        }),
        ...errorResponses(),
      },
    };
  }
}

function securityFor(scope: string): Json[] {
  return [{ bearer: [] }, { oauth: [scope] }];
}

function okResponse(description: string, schema: Json): Json {
  return {
    description,
    headers: {
      "X-RateLimit-Limit": { $ref: "#/components/headers/X-RateLimit-Limit" },
      "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" },
      "X-RateLimit-Reset": { $ref: "#/components/headers/X-RateLimit-Reset" },
    },
    content: { "application/json": { schema } },
  };
}

function errorResponses(withNotFound = false): Json {
  return {
    "400": { $ref: "#/components/responses/BadRequest" },
    "401": { $ref: "#/components/responses/Unauthorized" },
    "403": { $ref: "#/components/responses/Forbidden" },
    ...(withNotFound ? { "404": { $ref: "#/components/responses/NotFound" } } : {}),
    "429": { $ref: "#/components/responses/TooManyRequests" },
    default: { $ref: "#/components/responses/Error" },
  };
}

function sharedParameters(): Json {
  return {
    page: {
      name: "page",
      in: "query",
      description: "The page to return, from 1.",
      schema: { type: "integer", minimum: 1, default: 1 },
    },
    page_size: {
      name: "page_size",
      in: "query",
      description: "Items per page.",
      schema: { type: "integer", minimum: 25, maximum: 500, default: 100 },
    },
    "X-Filter": {
      name: "X-Filter",
      in: "header",
      description: "A JSON object that filters and orders the list by its filterable fields.",
      content: { "application/json": { schema: { type: "object" } } },
    },
  };
}

function sharedHeaders(): Json {
  const integer = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } });
  return {
    "X-RateLimit-Limit": integer("Requests allowed in the window."),
    "X-RateLimit-Remaining": integer("Requests left in the window."),
    "X-RateLimit-Reset": integer("When the window resets, in epoch seconds."),
    "Retry-After": integer("Seconds to wait before retrying."),
  };
}

function sharedResponses(): Json {
  const error = (description: string, extraHeaders: Json = {}) => ({
    description,
    headers: extraHeaders,
    content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
  });
  return {
    BadRequest: error("The request is invalid; each error names the field."),
    Unauthorized: error("No valid token."),
    Forbidden: error("The token lacks the scope."),
    NotFound: error("No such resource."),
    TooManyRequests: error("Rate limited.", { "Retry-After": { $ref: "#/components/headers/Retry-After" } }),
    Error: error("Any other error."),
  };
}

function sharedSchemas(sentence: (count: number) => string): Json {
  return {
    ErrorResponse: {
      type: "object",
      required: ["errors"],
      properties: { errors: { type: "array", items: { $ref: "#/components/schemas/ErrorItem" } } },
    },
    ErrorItem: {
      type: "object",
      required: ["reason"],
      properties: { reason: { type: "string" }, field: { type: "string" } },
    },
    PaginatedList: {
      type: "object",
      required: ["data", "page", "pages", "results"],
      properties: {
        data: { type: "array", items: {} },
        page: { type: "integer", minimum: 1 },
        pages: { type: "integer", minimum: 1 },
        results: { type: "integer", minimum: 0 },
      },
    },
    ResourceBase: {
      type: "object",
      required: ["id", "created"],
      properties: {
        id: { type: "integer", readOnly: true, "x-filterable": true, description: sentence(12) },
        label: {
          type: "string",
          minLength: 3,
          maxLength: 64,
          "x-filterable": true,
          description: sentence(12),
        },
        created: { type: "string", format: "date-time", readOnly: true, description: sentence(12) },
        updated: { type: "string", format: "date-time", readOnly: true, description: sentence(12) },
        audit: { $ref: "#/components/schemas/AuditInfo" },
      },
    },
    Tags: { type: "array", items: { type: "string", minLength: 1, maxLength: 50 }, maxItems: 100 },
    Money: {
      type: "object",
      required: ["amount", "currency"],
      properties: {
        amount: { type: "number", minimum: 0 },
        currency: { type: "string", pattern: "^[A-Z]{3}$" },
      },
    },
    Link: {
      type: "object",
      properties: { href: { type: "string", format: "uri" }, rel: { type: "string" } },
    },
    // A chain of shared schemas under every settings chain: AuditInfo -> Actor -> Organization -> Address -> GeoPoint.
    AuditInfo: {
      type: "object",
      properties: {
        created_by: { $ref: "#/components/schemas/Actor" },
        updated_by: { $ref: "#/components/schemas/Actor" },
        links: { type: "array", items: { $ref: "#/components/schemas/Link" } },
      },
    },
    Actor: {
      type: "object",
      properties: {
        id: { type: "string", format: "uuid" },
        email: { type: ["string", "null"], format: "email" },
        organization: { $ref: "#/components/schemas/Organization" },
      },
    },
    Organization: {
      type: "object",
      properties: { name: { type: "string" }, address: { $ref: "#/components/schemas/Address" } },
    },
    Address: {
      type: "object",
      properties: {
        street: { type: "string" },
        city: { type: "string" },
        country: { type: "string", pattern: "^[A-Z]{2}$" },
        location: { $ref: "#/components/schemas/GeoPoint" },
      },
    },
    GeoPoint: {
      type: "object",
      required: ["lat", "lon"],
      properties: {
        lat: { type: "number", minimum: -90, maximum: 90 },
        lon: { type: "number", minimum: -180, maximum: 180 },
      },
    },
    // Circular: a tree of nodes (the loader must neither hang nor crash on it).
    TreeNode: {
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#/components/schemas/TreeNode" } },
      },
    },
  };
}

/** Writes the description to a new temporary directory; returns its path with the generated figures. */
export function writeSyntheticSpec(
  options: SyntheticSpecOptions = {},
  dir: string = mkdtempSync(join(tmpdir(), "conform-bench-spec-")),
): SyntheticSpec & { readonly path: string } {
  const spec = generateSyntheticSpec(options);
  const path = join(dir, "synthetic-api.yaml");
  writeFileSync(path, spec.text);
  return { ...spec, path };
}

/**
 * The longest chain of `$ref`s followed from any operation's response body schema (a reference inside a
 * referenced schema adds one). Cycles count once. For tests and the bench's description of the document.
 */
export function maxResponseRefDepth(document: Json): number {
  const memo = new Map<string, number>();
  const resolve = (ref: string): unknown => {
    let node: unknown = document;
    for (const part of ref.replace(/^#\//, "").split("/")) {
      node = (node as Json | undefined)?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
    }
    return node;
  };
  const depthOf = (node: unknown, visiting: Set<string>): number => {
    if (Array.isArray(node)) return Math.max(0, ...node.map((child) => depthOf(child, visiting)));
    if (typeof node !== "object" || node === null) return 0;
    let deepest = 0;
    const ref = (node as Json).$ref;
    if (typeof ref === "string" && !visiting.has(ref)) {
      let depth = memo.get(ref);
      if (depth === undefined) {
        visiting.add(ref);
        depth = 1 + depthOf(resolve(ref), visiting);
        visiting.delete(ref);
        memo.set(ref, depth);
      }
      deepest = depth;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key !== "$ref") deepest = Math.max(deepest, depthOf(child, visiting));
    }
    return deepest;
  };
  let deepest = 0;
  for (const item of Object.values((document.paths ?? {}) as Json)) {
    for (const operation of Object.values(item as Json)) {
      const responses = (operation as Json)?.responses as Json | undefined;
      for (const response of Object.values(responses ?? {})) {
        deepest = Math.max(deepest, depthOf(response, new Set()));
      }
    }
  }
  return deepest;
}
