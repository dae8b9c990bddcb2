/**
 * The operation index: every operation of the description in one dialect-neutral shape
 * ({@link OperationInfo}), found by operationId or by a concrete method and path.
 * @module
 */
import { type BodySchemas, bodySchemas, mediaTypeFor, type ResponseBody } from "./body-schemas.ts";
import { type ListShape, listShape } from "./list-shape.ts";
import { normalizedCopy } from "./normalize-schema.ts";
import { mergedParameters, type RawParameter } from "./parameters.ts";
import { createPathMatcher, type Route } from "./path-matcher.ts";
import { deref, isObject, valueAt } from "./pointer.ts";
import { operationPlace } from "./servers.ts";
import type {
  JsonSchema,
  OperationIndex,
  OperationInfo,
  ParameterInfo,
  ResponseInfo,
  SecurityInfo,
  ServerInfo,
  SpecDialect,
} from "./types.ts";
import { listOperations } from "./walk-operations.ts";

export interface IndexedOperations {
  readonly index: OperationIndex;
  /** Where each operation's body schemas are, by operationId (for the validators). */
  readonly bodies: ReadonlyMap<string, BodySchemas>;
}

export function indexOperations(
  document: unknown,
  dialect: SpecDialect,
  apiServers: readonly ServerInfo[],
): IndexedOperations {
  const operations: OperationInfo[] = [];
  const byId = new Map<string, OperationInfo>();
  const bodies = new Map<string, BodySchemas>();
  const routes: Route<OperationInfo>[] = [];

  for (const raw of listOperations(document)) {
    const parameters = mergedParameters(document, raw);
    const body = bodySchemas(document, dialect, raw, parameters);
    const place = operationPlace(raw.operation, raw.pathItem, apiServers);
    const pathTemplate = place.kind === "api" ? `${place.pathPrefix}${raw.pathTemplate}` : raw.pathTemplate;
    const operationId =
      typeof raw.operation.operationId === "string" && raw.operation.operationId !== ""
        ? raw.operation.operationId
        : `${raw.method} ${pathTemplate}`;
    const publicParameters = parameters
      .filter((parameter) => ["path", "query", "header", "cookie"].includes(parameter.in))
      .map((parameter) => parameterInfo(document, dialect, parameter));
    const shape = successListShape(document, dialect, body);
    const info: OperationInfo = {
      operationId,
      method: raw.method,
      pathTemplate,
      serverUrl: place.kind === "other" ? place.serverUrl : undefined,
      tags: stringList(raw.operation.tags),
      summary: typeof raw.operation.summary === "string" ? raw.operation.summary : "",
      deprecated: raw.operation.deprecated === true,
      security: securityOf(document, dialect, raw.operation.security),
      parameters: publicParameters,
      paginated: shape.paginated,
      filterableFields: shape.filterableFields,
      requestBody: body.request && {
        required: body.request.required,
        contentTypes: [...body.request.media.keys()],
      },
      responses: body.responses.map((response) => responseInfo(document, dialect, response)),
    };
    operations.push(info);
    if (!byId.has(operationId)) {
      byId.set(operationId, info);
      bodies.set(operationId, body);
    }
    const pathTypes = new Map(
      publicParameters
        .filter((parameter) => parameter.in === "path")
        .map((parameter) => [parameter.name, parameter]),
    );
    routes.push({
      method: raw.method,
      template: pathTemplate,
      value: info,
      convert: (name, value) => typedPathValue(pathTypes.get(name)?.schema, value),
    });
  }

  const matcher = createPathMatcher(routes);
  const all = Object.freeze(operations);
  return {
    index: {
      all: () => all,
      byId: (operationId) => byId.get(operationId),
      match(method, path) {
        const found = matcher.match(method, path);
        return found && { operation: found.value, pathParams: found.params };
      },
    },
    bodies,
  };
}

/** Integers become numbers, numbers too; a value that does not fit does not match. Others stay strings. */
function typedPathValue(schema: JsonSchema | undefined, value: string): string | number | undefined {
  const type = isObject(schema) ? schema.type : undefined;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes("integer")) return /^-?\d+$/.test(value) ? Number(value) : undefined;
  if (types.includes("number")) {
    return /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(value) ? Number(value) : undefined;
  }
  return value;
}

/** Swagger 2.0 keeps a parameter's schema keywords on the parameter itself. */
const swaggerSchemaKeys = [
  "type",
  "format",
  "items",
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "multipleOf",
  "x-nullable",
] as const;

function parameterInfo(document: unknown, dialect: SpecDialect, parameter: RawParameter): ParameterInfo {
  const value = parameter.value;
  let schema: unknown;
  if (dialect === "swagger-2.0") schema = pickSchemaKeys(value);
  else if (value.schema !== undefined) schema = value.schema;
  else if (isObject(value.content)) {
    const first = Object.values(value.content)[0];
    schema = isObject(first) ? first.schema : undefined;
  }
  return {
    name: parameter.name,
    in: parameter.in as ParameterInfo["in"],
    required: parameter.in === "path" || value.required === true,
    schema: schemaOut(document, dialect, schema),
    deprecated: value.deprecated === true,
  };
}

function pickSchemaKeys(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  for (const key of swaggerSchemaKeys) if (value[key] !== undefined) schema[key] = value[key];
  return schema;
}

/** A parameter or header schema as consumers get it: top-level `$ref` followed, normalised, nested `$ref`s kept. */
function schemaOut(document: unknown, dialect: SpecDialect, schema: unknown): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  const resolved = deref(document, schema) ?? schema;
  if (typeof resolved === "boolean") return resolved;
  return isObject(resolved) ? (normalizedCopy(resolved, dialect) as JsonSchema) : undefined;
}

function responseInfo(document: unknown, dialect: SpecDialect, response: ResponseBody): ResponseInfo {
  const value = response.value;
  const headers: ResponseInfo["headers"][number][] = [];
  if (isObject(value.headers)) {
    for (const [name, written] of Object.entries(value.headers)) {
      const header = deref(document, written);
      if (!isObject(header)) continue;
      headers.push({
        name: name.toLowerCase(),
        required: header.required === true,
        schema: schemaOut(
          document,
          dialect,
          dialect === "swagger-2.0" ? pickSchemaKeys(header) : header.schema,
        ),
      });
    }
  }
  return {
    status: response.status,
    description: response.description,
    contentTypes: [...response.media.keys()],
    headers,
    hasSchema: [...response.media.values()].some((pointer) => pointer !== undefined),
  };
}

/** The list shape of the 200 response's JSON body (or the first other 2xx when there is no 200). */
function successListShape(document: unknown, dialect: SpecDialect, body: BodySchemas): ListShape {
  const success =
    body.responses.find((response) => response.status === "200") ??
    body.responses.find((response) => /^2(?:\d\d|XX)$/i.test(response.status));
  if (!success) return { paginated: false, filterableFields: [] };
  const mediaType = mediaTypeFor(success.media, undefined);
  const pointer = mediaType === undefined ? undefined : success.media.get(mediaType);
  return listShape(document, dialect, pointer === undefined ? undefined : valueAt(document, pointer));
}

/**
 * Public when no requirement applies (`security: []`, none at all) or one of them is empty (`{}`: optional
 * auth). Scopes are those of OAuth 2 (and OpenID Connect) requirements, each alone enough; the document's
 * `security` applies where the operation has none.
 */
function securityOf(document: unknown, dialect: SpecDialect, operationSecurity: unknown): SecurityInfo {
  const root = isObject(document) ? document : {};
  const written = operationSecurity !== undefined ? operationSecurity : root.security;
  const requirements = (Array.isArray(written) ? written : []).filter(isObject);
  const definitions =
    dialect === "swagger-2.0"
      ? root.securityDefinitions
      : isObject(root.components)
        ? root.components.securitySchemes
        : undefined;
  const schemeType = (name: string) => {
    const scheme = isObject(definitions) ? deref(document, definitions[name]) : undefined;
    return isObject(scheme) ? scheme.type : undefined;
  };
  const isPublic =
    requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0);
  const schemes = new Set<string>();
  const scopes = new Set<string>();
  for (const requirement of requirements) {
    for (const [name, wanted] of Object.entries(requirement)) {
      schemes.add(name);
      if (isPublic || !Array.isArray(wanted)) continue;
      const type = schemeType(name);
      if (type !== "oauth2" && type !== "openIdConnect") continue;
      for (const scope of wanted) if (typeof scope === "string") scopes.add(scope);
    }
  }
  return { public: isPublic, scopes: [...scopes], schemes: [...schemes] };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * The documented response a status falls under: the exact code, then its range (`4XX`), then `default`
 * (OpenAPI 3.1 §4.8.16: an exact code takes precedence over a range, and `default` covers the rest).
 */
export function responseForStatus(operation: OperationInfo, status: number): ResponseInfo | undefined {
  const exact = String(status);
  const range = `${Math.floor(status / 100)}XX`;
  return (
    operation.responses.find((response) => response.status === exact) ??
    operation.responses.find((response) => response.status.toUpperCase() === range) ??
    operation.responses.find((response) => response.status === "default")
  );
}

/**
 * Why the description does not promise `header` on the answer of `operation` at `status` (no such answer
 * documented, or that answer documents no such header); undefined when it documents it there.
 */
export function headerNotDocumented(
  operation: OperationInfo,
  status: number,
  header: string,
): string | undefined {
  const answer = responseForStatus(operation, status);
  if (!answer) return `${operation.operationId} documents no ${status} answer`;
  const name = header.toLowerCase();
  if (!answer.headers.some((entry) => entry.name === name))
    return `the ${answer.status} answer of ${operation.operationId} documents no ${header} header`;
  return undefined;
}
