/**
 * The API's conventions in one place: what every operation shares (page sizes, the error envelope, the filter
 * header, the headers every answer carries), read from the loaded description wherever it states them, and the
 * facts the description cannot state (reason texts, CORS lists, region capabilities), each named once.
 *
 * Checks, oracles' callers and suites ask here instead of writing `25`, `"errors"` or `"X-Filter"` themselves, so
 * another edition of the description (other bounds, another header name) is judged by what it says.
 * @module
 */
import { deref, isObject, pointerOf, valueAt } from "./pointer.ts";
import type { ApiSpec, OperationInfo } from "./types.ts";

export interface PageSizeBounds {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

export interface ErrorEnvelope {
  /** The body's array of errors (`errors`). */
  readonly list: string;
  /** Each error's always-present text (`reason`). */
  readonly reason: string;
  /** Each error's optional input field (`field`). */
  readonly field: string;
}

export interface ApiConventions {
  /** From the `page_size` parameter's schema (minimum, maximum, default) of the paginated lists. */
  readonly pageSize: PageSizeBounds;
  /** From the schema of the description's error answers (4xx). */
  readonly errorEnvelope: ErrorEnvelope;
  /**
   * Set when the description's 4xx answers have a JSON schema and none is an array-of-errors envelope (another API's
   * `{id, message}`): what they are instead. Checks of the envelope then skip, saying so: `body-matches-schema`
   * judges those answers by their own schema.
   */
  readonly otherErrorShape: string | undefined;
  /** The request header of a list's filter (the lists' header parameter), else the described `X-Filter`. */
  readonly filterHeader: string;
  /**
   * Header names (lower-case) the description documents on the API server's answers: a check of a header that is
   * documented nowhere is skipped with the reason, not failed.
   */
  readonly documentedHeaders: ReadonlySet<string>;
  /**
   * Set when the description is another API's (its title is not {@link describedTitle}): the facts no schema
   * states (CORS lists, `Vary`) are this API's, so the checks of them skip, saying so.
   */
  readonly otherApi: string | undefined;
}

/** The title every edition of this API's description carries (`info.title`). */
export const describedTitle = "Cloud Infrastructure API";

/** What the description says when the loaded one says nothing: "Collections: pagination", "Limits". */
export const describedPageSize: PageSizeBounds = Object.freeze({ min: 25, max: 500, default: 100 });
export const describedFilterHeader = "X-Filter";
export const describedErrorEnvelope: ErrorEnvelope = Object.freeze({
  list: "errors",
  reason: "reason",
  field: "field",
});

/**
 * Facts of the API the description cannot state in a schema (cloud-api-v4.md and facts.md), each named once.
 */
export const apiFacts = Object.freeze({
  /** 401 reason, with `X-OAuth-Scopes: unknown` (facts.md "Conventions"). */
  invalidTokenReason: "Invalid Token",
  unknownScopes: "unknown",
  notFoundReason: "Not found",
  tooManyRequestsReason: "Too many requests",
  /** The reason of a filter on a field that cannot be filtered; the error's field is the filter header. */
  cannotFilterOn: (field: string) => `Cannot filter on ${field}`,
  /** `X-Accepted-OAuth-Scopes` of a public operation. */
  publicAcceptedScopes: "*",
  /** The scope that is every area read_write (facts.md "Scopes"). */
  everyScope: "*",
  /** Access tokens last two hours ("OAuth 2.0"). */
  accessTokenLifetimeSeconds: 7200,
  /** The longest rate-limit window the description names: "800 requests per two minutes". */
  longestRateWindowMs: 120_000,
  /** "Other response headers": CORS lists, lower-case. */
  cors: Object.freeze({
    methods: Object.freeze(["head", "get", "options", "post", "put", "delete"]),
    requestHeaders: Object.freeze([
      "authorization",
      "origin",
      "x-requested-with",
      "content-type",
      "accept",
      "x-filter",
    ]),
    exposed: Object.freeze(["x-oauth-scopes", "x-accepted-oauth-scopes", "x-status"]),
  }),
  /** `Vary` names these request headers. */
  vary: Object.freeze(["authorization", "x-filter"]),
  /** Region capabilities (facts.md "Region"). */
  capabilities: Object.freeze({ balancers: "NodeBalancers", instances: "Linodes" }),
  /** An image every target of this API offers (facts.md "Instance"). */
  defaultImage: "compute/debian12",
});

const memo = new WeakMap<ApiSpec, ApiConventions>();

/** The conventions of a loaded description (read once per description). */
export function conventionsOf(spec: ApiSpec): ApiConventions {
  let found = memo.get(spec);
  if (!found) {
    found = readConventions(spec);
    memo.set(spec, found);
  }
  return found;
}

function readConventions(spec: ApiSpec): ApiConventions {
  const operations = spec.operations.all();
  const lists = operations.filter((operation) => operation.paginated);
  return {
    pageSize: pageSizeOf(lists),
    ...errorEnvelopeOf(spec, operations),
    filterHeader: filterHeaderOf(lists),
    documentedHeaders: new Set(
      operations
        .filter((operation) => operation.serverUrl === undefined)
        .flatMap((operation) => operation.responses.flatMap((response) => response.headers))
        .map((header) => header.name.toLowerCase()),
    ),
    otherApi: (spec.title ?? "").startsWith(describedTitle) ? undefined : `"${spec.title || "untitled"}"`,
  };
}

function numberAt(schema: unknown, key: string): number | undefined {
  const value = isObject(schema) ? schema[key] : undefined;
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function pageSizeOf(lists: readonly OperationInfo[]): PageSizeBounds {
  for (const list of lists) {
    const schema = list.parameters.find(
      (entry) => entry.in === "query" && entry.name === "page_size",
    )?.schema;
    if (schema === undefined) continue;
    return {
      min: numberAt(schema, "minimum") ?? describedPageSize.min,
      max: numberAt(schema, "maximum") ?? describedPageSize.max,
      default: numberAt(schema, "default") ?? describedPageSize.default,
    };
  }
  return describedPageSize;
}

function filterHeaderOf(lists: readonly OperationInfo[]): string {
  const names = lists.flatMap((list) =>
    list.parameters.filter((entry) => entry.in === "header" && /filter/i.test(entry.name)).map((e) => e.name),
  );
  return names[0] ?? describedFilterHeader;
}

/**
 * The envelope of the first 4xx answer with a JSON schema: its required array property, whose items require one
 * string property (the reason) and declare another optional one (the field).
 */
function errorEnvelopeOf(
  spec: ApiSpec,
  operations: readonly OperationInfo[],
): Pick<ApiConventions, "errorEnvelope" | "otherErrorShape"> {
  const document = spec.document;
  let otherErrorShape: string | undefined;
  for (const operation of operations) {
    if (operation.serverUrl !== undefined) continue;
    for (const response of operation.responses) {
      if (!/^4/.test(response.status) || !response.hasSchema) continue;
      const schema = schemaOfResponse(document, operation, response.status);
      const found = envelopeOfSchema(document, schema);
      if (found) return { errorEnvelope: found, otherErrorShape: undefined };
      otherErrorShape ??= shapeOfSchema(document, schema, `${operation.operationId} ${response.status}`);
    }
  }
  // A description that shows no error schema at all is judged by the envelope this API describes.
  return { errorEnvelope: describedErrorEnvelope, otherErrorShape };
}

/** `getThings 404 answers {id, message}`: an error schema that is not an envelope, named by its properties. */
function shapeOfSchema(document: unknown, schema: unknown, where: string): string | undefined {
  if (!isObject(schema)) return undefined;
  const properties = deref(document, schema.properties);
  const names = isObject(properties) ? Object.keys(properties) : [];
  return names.length > 0
    ? `${where} answers {${names.join(", ")}}`
    : `${where} answers a schema without properties`;
}

function schemaOfResponse(document: unknown, operation: OperationInfo, status: string): unknown {
  const path = ["paths", operation.pathTemplate, operation.method, "responses", status];
  const response = deref(document, valueAt(document, pointerOf(path)));
  if (!isObject(response)) return undefined;
  const content = deref(document, response.content);
  if (isObject(content)) {
    const json = Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
    return isObject(json) ? deref(document, json.schema) : undefined;
  }
  return deref(document, response.schema);
}

function envelopeOfSchema(document: unknown, schema: unknown): ErrorEnvelope | undefined {
  if (!isObject(schema)) return undefined;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const properties = deref(document, schema.properties);
  if (!isObject(properties)) return undefined;
  for (const name of required) {
    if (typeof name !== "string") continue;
    const list = deref(document, properties[name]);
    if (!isObject(list) || list.type !== "array") continue;
    const item = deref(document, list.items);
    if (!isObject(item)) continue;
    const itemProperties = deref(document, item.properties);
    const itemRequired = Array.isArray(item.required) ? (item.required as unknown[]) : [];
    const reason = itemRequired.find((entry): entry is string => typeof entry === "string");
    if (!reason || !isObject(itemProperties)) continue;
    const field = Object.keys(itemProperties).find((entry) => !itemRequired.includes(entry));
    return { list: name, reason, field: field ?? describedErrorEnvelope.field };
  }
  return undefined;
}
