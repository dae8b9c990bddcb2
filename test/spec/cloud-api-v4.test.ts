/**
 * `specs/cloud-api-v4.yaml` is the contract for both sides: the checks judge targets by it and the reference
 * server implements it. These tests hold it to the API description (`cloud-api-v4.md`), the facts that fill its
 * gaps (`facts.md`) and the shared operation table (`notes/operations.md`), copied here as tables so a fresh
 * clone can run them.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

type Json = Record<string, unknown>;

const specPath = resolve(import.meta.dirname, "../../specs/cloud-api-v4.yaml");
const doc = parse(readFileSync(specPath, "utf8")) as Json;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function get(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    current = Array.isArray(current) ? current[Number(key)] : isObject(current) ? current[key] : undefined;
  }
  return current;
}

/** Follows local `$ref`s (`#/a/b`) until a value without one. */
function deref(value: unknown): unknown {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 20) throw new Error(`reference cycle at ${String(current.$ref)}`);
    const ref = current.$ref;
    if (!ref.startsWith("#/")) throw new Error(`non-local $ref ${ref}`);
    current = get(doc, ...ref.slice(2).split("/").map(unescapePointer));
  }
  return current;
}

function unescapePointer(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

const schemaRef = (name: string) => `#/components/schemas/${name}`;

function operation(method: string, path: string): Json {
  const found = get(doc, "paths", path, method);
  if (!isObject(found)) throw new Error(`no ${method.toUpperCase()} ${path} in the description`);
  return found;
}

/** Path-level and operation-level parameters, dereferenced. */
function parameters(method: string, path: string): Json[] {
  const pathLevel = get(doc, "paths", path, "parameters");
  const opLevel = operation(method, path).parameters;
  return [...(Array.isArray(pathLevel) ? pathLevel : []), ...(Array.isArray(opLevel) ? opLevel : [])]
    .map(deref)
    .filter(isObject);
}

function response(method: string, path: string, status: string): Json {
  const found = deref(get(operation(method, path), "responses", status));
  if (!isObject(found)) throw new Error(`${method.toUpperCase()} ${path} declares no ${status}`);
  return found;
}

/** Property names a schema admits, through `$ref`, `allOf`, `oneOf` and `anyOf`. */
function propertyNames(schema: unknown): Set<string> {
  const value = deref(schema);
  const names = new Set<string>();
  if (!isObject(value)) return names;
  if (isObject(value.properties)) for (const name of Object.keys(value.properties)) names.add(name);
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    const members = value[key];
    if (Array.isArray(members))
      for (const member of members) for (const n of propertyNames(member)) names.add(n);
  }
  return names;
}

/** Every sub-schema position of JSON Schema 2020-12 that holds schemas. */
function subSchemas(schema: Json): unknown[] {
  const children: unknown[] = [];
  for (const key of [
    "items",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "additionalProperties",
    "propertyNames",
  ]) {
    if (isObject(schema[key])) children.push(schema[key]);
  }
  for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
    const members = schema[key];
    if (Array.isArray(members)) children.push(...members);
  }
  for (const key of ["properties", "patternProperties", "dependentSchemas", "$defs"]) {
    const map = schema[key];
    if (isObject(map)) children.push(...Object.values(map));
  }
  return children;
}

/** Visits every schema reachable from the roots, following `$ref`s into components, each once. */
function walkSchemas(roots: readonly unknown[], visit: (schema: Json, where: string) => void): number {
  const seen = new Set<unknown>();
  const queue: { schema: unknown; where: string }[] = roots.map((schema, i) => ({
    schema,
    where: `root ${i}`,
  }));
  while (queue.length > 0) {
    const { schema, where } = queue.shift()!;
    if (!isObject(schema) || seen.has(schema)) continue;
    seen.add(schema);
    visit(schema, where);
    if (typeof schema.$ref === "string")
      queue.push({ schema: deref({ $ref: schema.$ref }), where: schema.$ref });
    for (const child of subSchemas(schema)) queue.push({ schema: child, where });
  }
  return seen.size;
}

/** Every response object of the description: those of operations and `components.responses`. */
function allResponses(): { where: string; response: Json }[] {
  const found: { where: string; response: Json }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const responses = get(op, "responses");
      if (!isObject(responses)) continue;
      for (const [status, value] of Object.entries(responses)) {
        const resolved = deref(value);
        if (isObject(resolved))
          found.push({ where: `${method.toUpperCase()} ${path} ${status}`, response: resolved });
      }
    }
  }
  for (const [name, value] of Object.entries(get(doc, "components", "responses") as Json)) {
    if (isObject(value)) found.push({ where: `components.responses.${name}`, response: value });
  }
  return found;
}

function responseSchemas(): unknown[] {
  return allResponses().flatMap(({ response: r }) =>
    Object.values(isObject(r.content) ? r.content : {}).map((media) => get(media, "schema")),
  );
}

// One ajv over the whole document: schemas compile with their `$ref`s kept (ARCHITECTURE.md), strict about keywords
// so that a misspelt one (`minlength`) fails here instead of silently weakening the contract.
const ajv = new Ajv2020.default({
  strict: true,
  strictTypes: false,
  strictRequired: false,
  allowUnionTypes: true,
  allErrors: true,
});
addFormats.default(ajv);
// The document's own top-level fields, and OpenAPI's schema keywords, are not JSON Schema: ajv leaves them alone.
ajv.addVocabulary(["openapi", "info", "servers", "tags", "paths", "components"]);
ajv.addVocabulary([
  "x-compute-filterable",
  "x-compute-filter-lenient",
  "x-compute-refused-without-field",
  "example",
  "discriminator",
  "xml",
  "externalDocs",
]);
ajv.addSchema(doc, "spec");
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

function validatorFor(pointer: string) {
  let validate = validators.get(pointer);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: `spec${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

function errorsOf(pointer: string, value: unknown): string {
  const validate = validatorFor(pointer);
  return validate(value) ? "" : ajv.errorsText(validate.errors);
}

const pagination = ["page", "page_size", "X-Filter"];

describe("specs/cloud-api-v4.yaml", () => {
  it("is a valid OpenAPI 3.1 description of release 4.176.0", async () => {
    const api = await SwaggerParser.validate(specPath);
    expect(api.info.version).toBe("4.176.0");
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it("serves the API from {base_url}, default https://localhost/v4", () => {
    expect(doc.servers).toEqual([
      expect.objectContaining({
        url: "{base_url}",
        variables: { base_url: { default: "https://localhost/v4" } },
      }),
    ]);
  });

  describe("every endpoint of the API description", () => {
    // Endpoint 5's path ends at the profile id in the description: it stays as a deprecated alias, and the
    // real path ends in /nodes. Endpoint 6 is written `/compute/instances/` there.
    it.each([
      {
        n: "1",
        method: "post",
        path: "/nodebalancers",
        params: [],
        body: ["region", "label", "client_conn_throttle"],
      },
      {
        n: "2",
        method: "post",
        path: "/nodebalancers/{nodeBalancerId}/configs",
        params: ["nodeBalancerId"],
        body: ["label", "port", "check", "protocol", "ssl_cert", "ssl_key"],
      },
      {
        n: "3",
        method: "get",
        path: "/nodebalancers/{nodeBalancerId}/configs/{configId}",
        params: ["nodeBalancerId", "configId"],
        body: [],
      },
      {
        n: "4",
        method: "put",
        path: "/nodebalancers/{nodeBalancerId}/configs/{configId}",
        params: ["nodeBalancerId", "configId"],
        body: ["protocol", "port", "ssl_cert", "ssl_key"],
      },
      {
        n: "5 (deprecated alias)",
        method: "post",
        path: "/nodebalancers/{nodeBalancerId}/configs/{configId}",
        params: ["nodeBalancerId", "configId"],
        body: ["label", "address"],
      },
      {
        n: "5",
        method: "post",
        path: "/nodebalancers/{nodeBalancerId}/configs/{configId}/nodes",
        params: ["nodeBalancerId", "configId"],
        body: ["label", "address"],
      },
      {
        n: "6",
        method: "post",
        path: "/compute/instances",
        params: [],
        body: ["region", "type", "image", "root_pass", "booted"],
      },
      { n: "7", method: "post", path: "/networking/ips", params: [], body: ["type", "public", "compute_id"] },
      {
        n: "8",
        method: "post",
        path: "/compute/instances/{computeId}/boot",
        params: ["computeId"],
        body: [],
      },
      { n: "9", method: "get", path: "/compute/types", params: pagination, body: [] },
      { n: "10", method: "get", path: "/regions", params: pagination, body: [] },
      {
        n: "11",
        method: "post",
        path: "/oauth/token",
        params: [],
        body: ["client_id", "client_secret", "code", "grant_type", "refresh_token"],
      },
    ])(
      "endpoint $n: $method $path declares exactly $params and body fields $body",
      ({ method, path, params, body }) => {
        expect(parameters(method, path).map((p) => p.name)).toEqual(params);
        const content = get(operation(method, path), "requestBody", "content");
        if (body.length === 0) {
          expect(content).toBeUndefined();
          return;
        }
        expect(isObject(content)).toBe(true);
        for (const media of Object.values(content as Json)) {
          expect([...propertyNames(get(media, "schema"))]).toEqual(expect.arrayContaining(body));
        }
      },
    );

    it("endpoint 3 answers nodes_status {up, down} and endpoint 11 takes both form encodings", () => {
      const profile = deref(
        get(response("get", "/nodebalancers/{nodeBalancerId}/configs/{configId}", "200"), "content"),
      );
      const schema = deref(get(profile, "application/json", "schema"));
      expect(get(schema, "properties", "nodes_status", "required")).toEqual(["up", "down"]);
      expect(Object.keys(get(operation("post", "/oauth/token"), "requestBody", "content") as Json)).toEqual([
        "application/x-www-form-urlencoded",
        "multipart/form-data",
      ]);
    });
  });

  describe("the operation table of notes/operations.md", () => {
    const nb = "/nodebalancers/{nodeBalancerId}";
    const cfg = `${nb}/configs/{configId}`;
    const node = `${cfg}/nodes/{nodeId}`;
    const ci = "/compute/instances/{computeId}";
    type Success = "200" | "empty" | "299" | "302" | "html";
    type Row = [
      operationId: string,
      method: string,
      path: string,
      scope: string,
      success: Success,
      list?: List,
    ];
    interface List {
      item: string;
      filterable: string[];
    }
    const public_ = "public";
    const anyToken = "any token";
    const rows: Row[] = [
      [
        "getNodeBalancers",
        "get",
        "/nodebalancers",
        "nodebalancers:read_only",
        "200",
        {
          item: "NodeBalancer",
          filterable: ["label", "region", "ipv4", "tags"],
        },
      ],
      ["createNodeBalancer", "post", "/nodebalancers", "nodebalancers:read_write", "200"],
      ["getNodeBalancer", "get", nb, "nodebalancers:read_only", "200"],
      ["updateNodeBalancer", "put", nb, "nodebalancers:read_write", "200"],
      ["deleteNodeBalancer", "delete", nb, "nodebalancers:read_write", "empty"],
      [
        "getNodeBalancerConfigs",
        "get",
        `${nb}/configs`,
        "nodebalancers:read_only",
        "200",
        {
          item: "NodeBalancerConfig",
          filterable: [],
        },
      ],
      ["createNodeBalancerConfig", "post", `${nb}/configs`, "nodebalancers:read_write", "200"],
      ["getNodeBalancerConfig", "get", cfg, "nodebalancers:read_only", "200"],
      ["updateNodeBalancerConfig", "put", cfg, "nodebalancers:read_write", "200"],
      ["deleteNodeBalancerConfig", "delete", cfg, "nodebalancers:read_write", "empty"],
      ["createNodeBalancerNodeDeprecated", "post", cfg, "nodebalancers:read_write", "299"],
      ["rebuildNodeBalancerConfig", "post", `${cfg}/rebuild`, "nodebalancers:read_write", "200"],
      [
        "getNodeBalancerConfigNodes",
        "get",
        `${cfg}/nodes`,
        "nodebalancers:read_only",
        "200",
        {
          item: "NodeBalancerNode",
          filterable: [],
        },
      ],
      ["createNodeBalancerConfigNode", "post", `${cfg}/nodes`, "nodebalancers:read_write", "200"],
      ["getNodeBalancerConfigNode", "get", node, "nodebalancers:read_only", "200"],
      ["updateNodeBalancerConfigNode", "put", node, "nodebalancers:read_write", "200"],
      ["deleteNodeBalancerConfigNode", "delete", node, "nodebalancers:read_write", "empty"],
      [
        "getComputeInstances",
        "get",
        "/compute/instances",
        "computes:read_only",
        "200",
        {
          item: "ComputeInstance",
          filterable: ["id", "label", "region", "image", "group", "tags", "ipv4"],
        },
      ],
      ["createComputeInstance", "post", "/compute/instances", "computes:read_write", "200"],
      ["getComputeInstance", "get", ci, "computes:read_only", "200"],
      ["updateComputeInstance", "put", ci, "computes:read_write", "200"],
      ["deleteComputeInstance", "delete", ci, "computes:read_write", "empty"],
      ["bootComputeInstance", "post", `${ci}/boot`, "computes:read_write", "empty"],
      ["rebootComputeInstance", "post", `${ci}/reboot`, "computes:read_write", "empty"],
      ["shutdownComputeInstance", "post", `${ci}/shutdown`, "computes:read_write", "empty"],
      ["getComputeInstanceIPs", "get", `${ci}/ips`, "computes:read_only", "200"],
      [
        "getIPs",
        "get",
        "/networking/ips",
        "ips:read_only",
        "200",
        {
          item: "IPAddress",
          // compute_id: accepted, its narrowing not promised (x-compute-filter-lenient, facts.md "Address").
          filterable: ["address", "prefix", "type", "rdns", "region", "compute_id"],
        },
      ],
      ["allocateIP", "post", "/networking/ips", "ips:read_write", "200"],
      ["getIP", "get", "/networking/ips/{address}", "ips:read_only", "200"],
      ["updateIP", "put", "/networking/ips/{address}", "ips:read_write", "200"],
      [
        "getComputeTypes",
        "get",
        "/compute/types",
        public_,
        "200",
        {
          item: "ComputeType",
          filterable: ["label", "disk", "class", "network_out", "memory", "transfer", "vcpus", "gpus"],
        },
      ],
      ["getComputeType", "get", "/compute/types/{typeId}", public_, "200"],
      ["getRegions", "get", "/regions", public_, "200", { item: "Region", filterable: [] }],
      ["getRegion", "get", "/regions/{regionId}", public_, "200"],
      // Any valid token, whatever its scopes (facts.md, "Profile"): an OAuth requirement naming no scope.
      ["getProfile", "get", "/profile", anyToken, "200"],
      ["updateProfile", "put", "/profile", "account:read_write", "200"],
      [
        "getPersonalAccessTokens",
        "get",
        "/profile/tokens",
        "account:read_only",
        "200",
        {
          item: "PersonalAccessToken",
          filterable: ["label", "created"],
        },
      ],
      ["createPersonalAccessToken", "post", "/profile/tokens", "account:read_write", "200"],
      ["deletePersonalAccessToken", "delete", "/profile/tokens/{tokenId}", "account:read_write", "empty"],
      [
        "getOAuthClients",
        "get",
        "/account/oauth-clients",
        "account:read_only",
        "200",
        {
          item: "OAuthClient",
          filterable: ["label", "public"],
        },
      ],
      ["createOAuthClient", "post", "/account/oauth-clients", "account:read_write", "200"],
      ["getOAuthClient", "get", "/account/oauth-clients/{clientId}", "account:read_only", "200"],
      ["updateOAuthClient", "put", "/account/oauth-clients/{clientId}", "account:read_write", "200"],
      ["deleteOAuthClient", "delete", "/account/oauth-clients/{clientId}", "account:read_write", "empty"],
      [
        "getEvents",
        "get",
        "/account/events",
        "events:read_only",
        "200",
        {
          item: "Event",
          filterable: ["id", "action", "created", "read", "entity.id", "entity.type"],
        },
      ],
      ["getOAuthAuthorize", "get", "/oauth/authorize", public_, "html"],
      ["postOAuthAuthorize", "post", "/oauth/authorize", public_, "302"],
      ["createOAuthToken", "post", "/oauth/token", public_, "200"],
    ];
    const isOAuthServer = (path: string) => path.startsWith("/oauth/");
    const apiHeaders = ["X-Spec-Version", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
    const scopeHeaders = ["X-OAuth-Scopes", "X-Accepted-OAuth-Scopes"];

    it("lists every operation of the description, and the description has no other", () => {
      const declared = Object.values(doc.paths as Json).flatMap((item) =>
        Object.values(item as Json).flatMap((op) =>
          isObject(op) && typeof op.operationId === "string" ? [op.operationId] : [],
        ),
      );
      expect(declared.toSorted()).toEqual(rows.map(([id]) => id).toSorted());
    });

    it.each(rows)("%s is %s %s with scope %s", (operationId, method, path, scope) => {
      const op = operation(method, path);
      expect(op.operationId).toBe(operationId);
      const oauth = scope === anyToken ? [] : [scope];
      expect(op.security).toEqual(scope === public_ ? [] : [{ personalAccessToken: [] }, { oauth }]);
      const serverUrls = Array.isArray(op.servers) ? op.servers.map((s) => get(s, "url")) : undefined;
      expect(serverUrls).toEqual(isOAuthServer(path) ? ["{auth_url}"] : undefined);
      if (isOAuthServer(path))
        expect(get(op, "servers", "0", "variables", "auth_url", "default")).toBe("https://localhost");
      expect(op.deprecated === true).toBe(operationId === "createNodeBalancerNodeDeprecated");
    });

    it.each(rows)("%s: its success answer", (_operationId, method, path, _scope, success) => {
      const responses = get(operation(method, path), "responses") as Json;
      const successes = Object.keys(responses).filter(
        (status) => status.startsWith("2") || status.startsWith("3"),
      );
      const expectedStatus = { "200": "200", empty: "200", html: "200", "299": "299", "302": "302" }[success];
      expect(successes).toEqual([expectedStatus]);
      const answer = response(method, path, expectedStatus);
      const content = isObject(answer.content) ? answer.content : {};
      if (success === "302") {
        expect(content).toEqual({});
        expect(get(deref(get(answer, "headers", "Location")), "required")).toBe(true);
      } else if (success === "html") {
        expect(Object.keys(content)).toEqual(["text/html"]);
      } else {
        expect(Object.keys(content)).toEqual(["application/json"]);
        const schema = get(content, "application/json", "schema");
        if (success === "empty") expect(schema).toEqual({ $ref: schemaRef("Empty") });
        if (success === "299") {
          expect(errorsOf(schemaRef("NodeBalancerNodeDeprecated"), { id: 1 })).toMatch(/warnings/);
          expect(schema).toEqual({ $ref: schemaRef("NodeBalancerNodeDeprecated") });
        }
      }
    });

    it.each(rows)(
      "%s: paginated lists use the shared envelope, the three parameters and filterable fields",
      (_operationId, method, path, _scope, _success, list) => {
        const names = parameters(method, path).map((p) => p.name);
        if (list === undefined) {
          for (const name of pagination) expect(names).not.toContain(name);
          expect(JSON.stringify(get(operation(method, path), "responses"))).not.toContain(
            schemaRef("PaginatedList"),
          );
          return;
        }
        const schema = get(response(method, path, "200"), "content", "application/json", "schema");
        expect(names).toEqual(expect.arrayContaining(pagination));
        for (const name of pagination) {
          const declared = (get(operation(method, path), "parameters") as unknown[]).find(
            (p) => deref(p) === get(doc, "components", "parameters", name),
          );
          expect(declared, `${name} is the shared components.parameters.${name}`).toBeDefined();
        }
        expect(get(schema, "allOf", "0")).toEqual({ $ref: schemaRef("PaginatedList") });
        expect(get(schema, "allOf", "1", "properties", "data", "items")).toEqual({
          $ref: schemaRef(list.item),
        });
        const item = deref({ $ref: schemaRef(list.item) });
        // A marked property of the item, or of an object property of it (named by the dotted path).
        const marked = Object.entries(get(item, "properties") as Json).flatMap(([name, property]) => [
          ...(get(property, "x-compute-filterable") === true ? [name] : []),
          ...Object.entries((get(deref(property), "properties") ?? {}) as Json)
            .filter(([, nested]) => get(nested, "x-compute-filterable") === true)
            .map(([child]) => `${name}.${child}`),
        ]);
        expect(marked.toSorted()).toEqual(list.filterable.toSorted());
      },
    );

    it.each(rows)("%s: its error answers", (_operationId, method, path, scope) => {
      const responses = get(operation(method, path), "responses") as Json;
      const errors = Object.keys(responses).filter((status) => /^[45]/.test(status));
      const hasPathParams = path.includes("{");
      const takesInput =
        get(operation(method, path), "requestBody") !== undefined ||
        parameters(method, path).some((p) => p.in !== "path");
      if (isOAuthServer(path)) {
        const expected = method === "get" ? ["400", "500"] : ["400", "401", "500"];
        expect(errors).toEqual(expected);
        for (const status of expected) {
          expect(get(responses[status], "$ref")).toMatch(/^#\/components\/responses\/OAuth/);
        }
        return;
      }
      const expected = [
        ...(takesInput || method === "post" || method === "put" ? ["400"] : []),
        ...(scope === public_ ? [] : ["401", "403"]),
        ...(hasPathParams ? ["404"] : []),
        "429",
        "500",
      ];
      expect(errors).toEqual(expected);
      const shared: Record<string, string> = {
        "400": "BadRequest",
        "401": "Unauthorized",
        "403": "Forbidden",
        "404": "NotFound",
        "429": "TooManyRequests",
        "500": "InternalServerError",
      };
      for (const status of expected) {
        expect(responses[status]).toEqual({ $ref: `#/components/responses/${shared[status]}` });
      }
    });

    it.each(rows)("%s: its answers declare the API's headers", (_operationId, method, path, scope) => {
      const responses = get(operation(method, path), "responses") as Json;
      for (const [status, value] of Object.entries(responses)) {
        const headers = Object.keys((get(deref(value), "headers") as Json | undefined) ?? {});
        if (isOAuthServer(path)) {
          expect(headers).toEqual(status === "302" ? ["Location"] : []);
          continue;
        }
        expect(headers, status).toEqual(expect.arrayContaining(apiHeaders));
        const scoped = scope !== public_ && (status.startsWith("2") || status === "401" || status === "403");
        for (const name of scopeHeaders) expect(headers.includes(name), `${status} ${name}`).toBe(scoped);
        expect(headers.includes("Retry-After"), `${status} Retry-After`).toBe(status === "429");
      }
    });
  });

  describe("parameters", () => {
    it.each([
      ["nodeBalancerId", "path", { type: "integer", minimum: 1 }],
      ["configId", "path", { type: "integer", minimum: 1 }],
      ["nodeId", "path", { type: "integer", minimum: 1 }],
      ["computeId", "path", { type: "integer", minimum: 1 }],
      ["tokenId", "path", { type: "integer", minimum: 1 }],
      ["typeId", "path", { type: "string" }],
      ["regionId", "path", { type: "string" }],
      ["clientId", "path", { type: "string" }],
      ["address", "path", { type: "string", format: "ipv4" }],
      ["page", "query", { type: "integer", minimum: 1, default: 1 }],
      ["page_size", "query", { type: "integer", minimum: 25, maximum: 500, default: 100 }],
      ["client_id", "query", { type: "string" }],
    ])("%s is a %s parameter with %o", (name, location, schema) => {
      const parameter = get(doc, "components", "parameters", name);
      expect(get(parameter, "name")).toBe(name);
      expect(get(parameter, "in")).toBe(location);
      expect(get(parameter, "schema")).toMatchObject(schema);
      expect(get(parameter, "required")).toBe(location === "path" || name === "client_id");
    });

    it("X-Filter is a JSON object in a header", () => {
      const filter = get(doc, "components", "parameters", "X-Filter");
      expect(get(filter, "in")).toBe("header");
      expect(get(filter, "name")).toBe("X-Filter");
      expect(get(filter, "content", "application/json", "schema", "type")).toBe("object");
    });

    it("the authorization request: response_type code|token defaults to code, with scopes, redirect_uri, state", () => {
      const names = parameters("get", "/oauth/authorize").map((p) => p.name);
      expect(names).toEqual(["client_id", "response_type", "scopes", "redirect_uri", "state"]);
      expect(deref(get(doc, "components", "parameters", "response_type", "schema"))).toMatchObject({
        enum: ["code", "token"],
        default: "code",
      });
      expect([...propertyNames({ $ref: schemaRef("OAuthAuthorizeForm") })]).toEqual([
        "username",
        "password",
        "client_id",
        "response_type",
        "scopes",
        "redirect_uri",
        "state",
      ]);
      expect(get(operation("post", "/oauth/authorize"), "requestBody", "content")).toHaveProperty([
        "application/x-www-form-urlencoded",
      ]);
    });
  });

  describe("security", () => {
    const areas = [
      "account",
      "databases",
      "domains",
      "events",
      "firewall",
      "images",
      "ips",
      "computes",
      "lke",
      "longview",
      "nodebalancers",
      "object_storage",
      "stackscripts",
      "volumes",
    ];
    const scopes = [
      ...areas.flatMap((area) => [`${area}:read_only`, `${area}:read_write`]),
      "vpc:read_write",
    ];

    it("offers a personal access token (HTTP bearer) and OAuth", () => {
      expect(get(doc, "components", "securitySchemes", "personalAccessToken")).toMatchObject({
        type: "http",
        scheme: "bearer",
      });
      expect(get(doc, "components", "securitySchemes", "oauth", "type")).toBe("oauth2");
    });

    it.each([
      [
        "authorizationCode",
        { tokenUrl: "https://localhost/oauth/token", refreshUrl: "https://localhost/oauth/token" },
      ],
      ["implicit", {}],
    ])("the OAuth %s flow lists every scope of the description, each described", (flow, urls) => {
      const declared = get(doc, "components", "securitySchemes", "oauth", "flows", flow) as Json;
      expect(declared).toMatchObject({ authorizationUrl: "https://localhost/oauth/authorize", ...urls });
      expect(Object.keys(declared.scopes as Json).toSorted()).toEqual(scopes.toSorted());
      for (const description of Object.values(declared.scopes as Json)) expect(description).toMatch(/\w{3}/);
    });

    it.each([
      ["*", true],
      ["nodebalancers:read_write", true],
      ["nodebalancers:read_only computes:read_write vpc:read_write", true],
      ["vpc:read_only", false],
      ["nodebalancers:write", false],
      ["nodebalancers:read_only,computes:read_only", false],
      ["* nodebalancers:read_only", false],
      ["", false],
    ])("scope list %j valid: %s", (value, valid) => {
      expect(errorsOf(schemaRef("ScopeList"), value) === "").toBe(valid);
    });
  });

  describe("schemas follow facts.md", () => {
    const withExtra = (name: string, extra: Json = {}) => ({ ...exampleOf(name), ...extra });
    it.each([
      // load balancers
      ["NodeBalancer", withExtra("NodeBalancer", { undocumented: { anything: 1 } }), true],
      ["NodeBalancer", withExtra("NodeBalancer", { client_conn_throttle: 21 }), false],
      ["NodeBalancer", withExtra("NodeBalancer", { label: "a b c" }), false],
      ["NodeBalancer", withExtra("NodeBalancer", { label: "ok-label\n" }), false],
      // times as the service writes them: UTC, no designator; an explicit Z or +00:00 is the same; no other offset
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-01-02T03:04:05" }), true],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-01-02T03:04:05Z" }), true],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-01-02T03:04:05+00:00" }), true],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-01-02T03:04:05+02:00" }), false],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-01-02T03:04:05-05:00" }), false],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-13-02T03:04:05" }), false],
      // Issue 31: dates that do not exist.
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-04-31T03:04:05" }), false],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-02-29T03:04:05" }), false],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "1900-02-29T03:04:05" }), false],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2024-02-29T03:04:05" }), true],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2000-02-29T03:04:05" }), true],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-12-31T23:59:59Z" }), true],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-06-30T03:04:05" }), true],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-06-31T03:04:05" }), false],
      ["NodeBalancer", withExtra("NodeBalancer", { created: "2025-01-02 03:04:05" }), false],
      ["PersonalAccessToken", withExtra("PersonalAccessToken", { expiry: null }), true],
      ["PersonalAccessToken", withExtra("PersonalAccessToken", { expiry: "2026-01-02T03:04:05" }), true],
      [
        "PersonalAccessToken",
        withExtra("PersonalAccessToken", { expiry: "2026-01-02T03:04:05+01:00" }),
        false,
      ],
      ["Event", withExtra("Event", { created: "2025-01-02T03:06:00" }), true],
      ["Event", withExtra("Event", { created: "2025-01-02T03:06:00+02:00" }), false],
      ["NodeBalancerCreateRequest", { label: "lb-1" }, false],
      ["NodeBalancerCreateRequest", { region: "us-east" }, true],
      // profiles
      [
        "NodeBalancerConfig",
        withExtra("NodeBalancerConfig", { ssl_key: "-----BEGIN PRIVATE KEY-----" }),
        false,
      ],
      ["NodeBalancerConfig", withExtra("NodeBalancerConfig", { ssl_cert: null, ssl_key: null }), true],
      ["NodeBalancerConfig", withExtra("NodeBalancerConfig", { protocol: "udp" }), false],
      ["NodeBalancerConfig", withExtra("NodeBalancerConfig", { nodes_status: { up: 1 } }), false],
      ["NodeBalancerConfigRequest", { port: 0 }, false],
      ["NodeBalancerConfigRequest", { port: 65536 }, false],
      ["NodeBalancerConfigRequest", { check_timeout: 31 }, false],
      ["NodeBalancerConfigRequest", { check: "tcp" }, false],
      ["NodeBalancerConfigRequest", { protocol: "https", ssl_cert: "cert" }, false],
      ["NodeBalancerConfigRequest", { protocol: "https", ssl_cert: "cert", ssl_key: "key" }, true],
      ["NodeBalancerConfigRebuildRequest", { port: 80 }, false],
      ["NodeBalancerConfigRebuildRequest", { nodes: [{ label: "web-1", address: "192.168.1.2:80" }] }, true],
      // nodes
      ["NodeCreateRequest", { label: "web-1", address: "192.168.210.120:8080" }, true],
      ["NodeCreateRequest", { label: "web-1", address: "10.0.0.1:1" }, true],
      ["NodeCreateRequest", { label: "web-1", address: "172.31.255.255:65535" }, true],
      ["NodeCreateRequest", { label: "web-1", address: "192.168.210.120" }, false],
      ["NodeCreateRequest", { label: "web-1", address: "203.0.113.5:80" }, false],
      ["NodeCreateRequest", { label: "web-1", address: "172.32.0.1:80" }, false],
      ["NodeCreateRequest", { label: "web-1", address: "192.168.1.2:0" }, false],
      ["NodeCreateRequest", { label: "web-1", address: "192.168.1.2:65536" }, false],
      ["NodeCreateRequest", { label: "web-1", address: "192.168.1.256:80" }, false],
      ["NodeCreateRequest", { label: "w1", address: "192.168.1.2:80" }, false],
      [
        "NodeCreateRequest",
        { label: "web.1_a-b", address: "192.168.1.2:80", weight: 255, mode: "backup" },
        true,
      ],
      ["NodeCreateRequest", { label: "web-1", address: "192.168.1.2:80", weight: 0 }, false],
      ["NodeCreateRequest", { address: "192.168.1.2:80" }, false],
      ["NodeBalancerNode", withExtra("NodeBalancerNode", { status: "UP" }), true],
      ["NodeBalancerNode", withExtra("NodeBalancerNode", { status: "up" }), false],
      ["NodeBalancerNode", withExtra("NodeBalancerNode", { address: "192.168.210.120" }), false],
      // instances
      ["ComputeInstanceCreateRequest", { region: "us-east" }, false],
      ["ComputeInstanceCreateRequest", { region: "us-east", type: "g6-standard-2" }, true],
      // An image without a credential is valid by schema: the service refuses it with its own single reason
      // (`Must provide valid root_pass, ...`, no field), which a schema rule would bury under four generic errors.
      [
        "ComputeInstanceCreateRequest",
        { region: "us-east", type: "g6-nanode-1", image: "compute/debian12" },
        true,
      ],
      [
        "ComputeInstanceCreateRequest",
        { region: "r", type: "t", image: "i", authorized_keys: ["ssh-ed25519 AAAA"] },
        true,
      ],
      ["ComputeInstanceCreateRequest", { region: "r", type: "t", image: "i", root_pass: "123456" }, false],
      [
        "ComputeInstanceCreateRequest",
        { region: "r", type: "t", image: "i", root_pass: "x".repeat(129) },
        false,
      ],
      ["ComputeInstanceCreateRequest", { region: "r", type: "t", label: "web--1" }, false],
      ["ComputeInstanceCreateRequest", { region: "r", type: "t", label: "-web1" }, false],
      ["ComputeInstanceCreateRequest", { region: "r", type: "t", label: "a.b_c-d" }, true],
      ["ComputeInstanceCreateRequest", { region: "r", type: "t", label: `a${"b".repeat(63)}` }, true],
      ["ComputeInstanceCreateRequest", { region: "r", type: "t", label: `a${"b".repeat(64)}` }, false],
      ["ComputeInstance", withExtra("ComputeInstance", { status: "exploded" }), false],
      ["ComputeInstance", withExtra("ComputeInstance", { image: null, ipv6: null }), true],
      ["ComputeInstance", withExtra("ComputeInstance", { label: "a__b" }), false],
      // addresses
      ["IPAddressCreateRequest", { type: "ipv4", public: false, compute_id: 1 }, true],
      ["IPAddressCreateRequest", { type: "ipv6", public: false, compute_id: 1 }, false],
      ["IPAddressCreateRequest", { type: "ipv4", public: false }, false],
      ["IPAddressCreateRequest", { type: "ipv4", compute_id: 1 }, false],
      ["IPAddressCreateRequest", { public: true, compute_id: 1 }, false],
      ["IPAddress", withExtra("IPAddress", { address: "not-an-ip" }), false],
      // catalogue
      ["ComputeType", withExtra("ComputeType", { class: "tiny" }), false],
      ["ComputeType", withExtra("ComputeType", { memory: 1024.5 }), true],
      ["Region", withExtra("Region", { status: "down" }), false],
      // tokens and clients
      ["PersonalAccessTokenCreateRequest", { label: "x".repeat(101) }, false],
      ["PersonalAccessTokenCreateRequest", { label: "ci", scopes: "*", expiry: null }, true],
      ["PersonalAccessTokenCreated", withExtra("PersonalAccessToken", { token: undefined }), false],
      ["OAuthClientCreateRequest", { label: "app" }, false],
      ["OAuthClientCreateRequest", { label: "x".repeat(513), redirect_uri: "https://a.example/cb" }, false],
      ["OAuthClientCreated", withExtra("OAuthClient", { secret: "<REDACTED>" }), false],
      ["OAuthClient", withExtra("OAuthClient", { secret: "<REDACTED>" }), true],
      ["Event", withExtra("Event", { username: null, entity: null }), true],
      // OAuth login server
      ["OAuthTokenRequest", { client_id: "c", client_secret: "s", code: "x" }, true],
      [
        "OAuthTokenRequest",
        { grant_type: "authorization_code", client_id: "c", client_secret: "s", code: "x" },
        true,
      ],
      [
        "OAuthTokenRequest",
        { grant_type: "refresh_token", client_id: "c", client_secret: "s", refresh_token: "r" },
        true,
      ],
      [
        "OAuthTokenRequest",
        { grant_type: "refresh_token", client_id: "c", client_secret: "s", code: "x" },
        false,
      ],
      ["OAuthTokenRequest", { client_id: "c", code: "x" }, false],
      ["TokenResponse", withExtra("TokenResponse", { token_type: "Bearer" }), false],
      ["TokenResponse", withExtra("TokenResponse", { access_token: "abc" }), false],
      ["TokenResponse", withExtra("TokenResponse", { refresh_token: undefined }), true],
      ["ErrorResponse", { errors: [] }, false],
      ["ErrorResponse", { errors: [{ field: "label" }] }, false],
      ["ErrorResponse", { errors: [{ reason: "Not found" }] }, true],
      ["Warnings", { warnings: [] }, false],
    ])("%s %j valid: %s", (name, value, valid) => {
      const json = JSON.parse(JSON.stringify(value)) as unknown;
      expect(errorsOf(schemaRef(name), json) === "", errorsOf(schemaRef(name), json)).toBe(valid);
    });

    it.each([
      ["NodeBalancerConfig", "ssl_cert"],
      ["NodeBalancerConfig", "ssl_key"],
    ])("%s.%s is <REDACTED> or null, and says so", (name, property) => {
      const schema = get(doc, "components", "schemas", name, "properties", property);
      expect(schema).toMatchObject({ type: ["string", "null"], enum: ["<REDACTED>", null] });
      expect(get(schema, "description")).toMatch(/<REDACTED>.*null/);
    });

    it.each([
      ["NodeBalancer", ["id", "hostname", "ipv4", "created", "updated"]],
      ["NodeBalancerConfig", ["id", "nodes_status"]],
      ["NodeBalancerNode", ["id", "status"]],
      ["ComputeInstance", ["id", "status", "created", "updated"]],
      ["PersonalAccessToken", ["id", "created", "token"]],
      ["OAuthClient", ["id", "secret"]],
    ])("%s marks server-set fields %j readOnly", (name, fields) => {
      for (const field of fields) {
        expect(
          get(doc, "components", "schemas", name, "properties", field, "readOnly"),
          `${name}.${field}`,
        ).toBe(true);
      }
    });

    it("root_pass is write-only, 7..128 characters; booted defaults to true", () => {
      expect(
        get(doc, "components", "schemas", "ComputeInstanceCreateRequest", "properties", "root_pass"),
      ).toMatchObject({
        writeOnly: true,
        minLength: 7,
        maxLength: 128,
      });
      expect(
        get(doc, "components", "schemas", "ComputeInstanceCreateRequest", "properties", "booted", "default"),
      ).toBe(true);
      expect(get(doc, "components", "schemas", "ComputeInstanceCreateRequest", "required")).toEqual([
        "region",
        "type",
      ]);
    });

    it("no response schema forbids properties the real service adds", () => {
      const closed: string[] = [];
      const visited = walkSchemas(responseSchemas(), (schema, where) => {
        if (schema.additionalProperties === false || schema.unevaluatedProperties === false)
          closed.push(where);
      });
      expect(visited).toBeGreaterThan(100);
      expect(closed).toEqual([]);
    });

    it("the walk would find a closed response schema", () => {
      const closed: string[] = [];
      walkSchemas(
        [{ allOf: [{ properties: { a: { type: "object", additionalProperties: false } } }] }],
        (schema) => {
          if (schema.additionalProperties === false) closed.push("found");
        },
      );
      expect(closed).toEqual(["found"]);
    });

    it("every pattern is anchored", () => {
      const unanchored: string[] = [];
      const roots = [...Object.values(get(doc, "components", "schemas") as Json)];
      for (const kind of ["parameters", "headers"]) {
        for (const value of Object.values(get(doc, "components", kind) as Json))
          roots.push(get(value, "schema"));
      }
      walkSchemas(roots, (schema, where) => {
        const pattern = schema.pattern;
        if (typeof pattern === "string" && !(pattern.startsWith("^") && pattern.endsWith("$"))) {
          unanchored.push(`${where}: ${pattern}`);
        }
      });
      expect(unanchored).toEqual([]);
    });
  });

  describe("examples", () => {
    const requestSchemas = [
      "NodeBalancerCreateRequest",
      "NodeBalancerUpdateRequest",
      "NodeBalancerConfigRequest",
      "NodeBalancerConfigRebuildRequest",
      "NodeCreateRequest",
      "NodeUpdateRequest",
      "ComputeInstanceCreateRequest",
      "ComputeInstanceUpdateRequest",
      "IPAddressCreateRequest",
      "IPAddressUpdateRequest",
      "PersonalAccessTokenCreateRequest",
      "ProfileUpdateRequest",
      "OAuthClientCreateRequest",
      "OAuthClientUpdateRequest",
      "OAuthAuthorizeForm",
      "OAuthTokenRequest",
    ];
    const responseSchemaNames = [
      "NodeBalancer",
      "NodeBalancerConfig",
      "NodeBalancerNode",
      "NodeBalancerNodeDeprecated",
      "ComputeInstance",
      "ComputeInstanceIPs",
      "IPAddress",
      "ComputeType",
      "Region",
      "Profile",
      "UtcDateTime",
      "PersonalAccessToken",
      "PersonalAccessTokenCreated",
      "OAuthClient",
      "OAuthClientCreated",
      "Event",
      "TokenResponse",
      "Warnings",
      "ErrorResponse",
      "PaginatedList",
    ];

    it.each([...requestSchemas, ...responseSchemaNames])("%s has examples, each valid against it", (name) => {
      const examples = get(doc, "components", "schemas", name, "examples");
      expect(Array.isArray(examples) && examples.length > 0).toBe(true);
      for (const example of examples as unknown[]) expect(errorsOf(schemaRef(name), example)).toBe("");
    });

    it("every request body of the API is one of the request schemas", () => {
      const bodies = new Set<string>();
      for (const item of Object.values(doc.paths as Json)) {
        for (const op of Object.values(item as Json)) {
          for (const media of Object.values((get(op, "requestBody", "content") as Json | undefined) ?? {})) {
            bodies.add(String(get(media, "schema", "$ref")).replace("#/components/schemas/", ""));
          }
        }
      }
      expect([...bodies].toSorted()).toEqual(requestSchemas.toSorted());
    });

    it("every example anywhere in the description is valid against its schema", () => {
      const checked: string[] = [];
      const pointer = (tokens: readonly string[]) =>
        `#/${tokens.map((t) => t.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;
      const check = (tokens: readonly string[], value: unknown) => {
        const at = pointer(tokens);
        checked.push(at);
        expect(errorsOf(at, value), at).toBe("");
      };
      const visit = (value: unknown, tokens: readonly string[]): void => {
        if (Array.isArray(value)) {
          for (const [i, item] of value.entries()) visit(item, [...tokens, String(i)]);
          return;
        }
        if (!isObject(value)) return;
        // An `examples` array is the JSON Schema keyword: each entry must match the schema holding it.
        if (Array.isArray(value.examples)) for (const example of value.examples) check(tokens, example);
        // `example` beside a `schema`: a media type, a parameter or a header.
        if ("example" in value && isObject(value.schema)) check([...tokens, "schema"], value.example);
        for (const [key, child] of Object.entries(value)) {
          if (key !== "example" && key !== "examples") visit(child, [...tokens, key]);
        }
      };
      visit(doc, []);
      expect(checked.length).toBeGreaterThan(80);
    });
  });
});

function exampleOf(name: string): Json {
  const example = get(doc, "components", "schemas", name, "examples", "0");
  if (!isObject(example)) throw new Error(`${name} has no example`);
  return example;
}
