/**
 * Which operations the body suites write to, and what follows from a write: every operation of the spec on the
 * API server that takes a JSON request body (so the suites grow with the spec), its concrete path filled from the
 * fixtures, where a resource it created lives (to read it back and to put it on the cleanup ledger), and whether
 * what was sent reads back.
 *
 * Derived from the spec's paths: a create (`POST /things`) made `/things/{id}` when the spec has a GET (or a
 * DELETE) there; an update (`PUT /things/{id}`) reads back at its own path; a created resource with no read of its
 * own is found in its collection's list. Two operations of this API need more than that, named in
 * {@link readBackExceptions}.
 * @module
 */
import { type BodySchema, requestSchemaOf, responseSchemaOf } from "../../../src/generators/request-body.ts";
import type { CaseContext, LiveResponse } from "../../../src/index.ts";
import type { OperationInfo } from "../../../src/spec/types.ts";

/** Operations that create instances: rate-limited (10 per 30 s on the real service) and billed. */
export const costlyOperations: ReadonlySet<string> = new Set(["createComputeInstance", "allocateIP"]);

/** Operations on the API server with a JSON request body, creates first, updates next, actions last. */
export function jsonWriteOperations(t: CaseContext): OperationInfo[] {
  const writes = t.spec.operations
    .all()
    .filter(
      (operation) =>
        operation.serverUrl === undefined &&
        ["post", "put", "patch"].includes(operation.method) &&
        (operation.requestBody?.contentTypes ?? []).some(
          (type) => type.split(";")[0]?.trim() === "application/json",
        ) &&
        requestSchemaOf(t.spec, operation.operationId) !== undefined,
    );
  return writes
    .map((operation, index) => ({ operation, index, rank: writeRank(t, operation) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.operation);
}

/**
 * 0: creates, 1: updates, 2: actions (`POST .../{id}/rebuild`: no read at that path, a literal after an id),
 * which may replace what the others wrote to and so go last.
 */
function writeRank(t: CaseContext, operation: OperationInfo): number {
  if (operation.method !== "post") return 1;
  const segments = operation.pathTemplate.split("/").filter(Boolean);
  const readable = t.spec.operations
    .all()
    .some((other) => other.method === "get" && other.pathTemplate === operation.pathTemplate);
  const action =
    !readable && !(segments.at(-1) ?? "").startsWith("{") && (segments.at(-2) ?? "").startsWith("{");
  return action ? 2 : 0;
}

/** The operation's concrete path from named values, or the name of the first parameter with no value. */
export function concretePath(
  operation: OperationInfo,
  values: Readonly<Record<string, string | number | undefined>>,
): { readonly path: string } | { readonly missing: string } {
  let missing: string | undefined;
  const path = operation.pathTemplate.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) missing ??= name;
    return encodeURIComponent(String(value));
  });
  return missing === undefined ? { path } : { missing };
}

export function requestSchema(t: CaseContext, operation: OperationInfo): BodySchema {
  return requestSchemaOf(t.spec, operation.operationId)!;
}

/** Sends `body` as JSON with the operation's method. */
export function send(
  t: CaseContext,
  operation: OperationInfo,
  path: string,
  body: unknown,
): Promise<LiveResponse> {
  return t.api.request(operation.method.toUpperCase(), path, { json: body });
}

/** Where a write's answer says the resource is, and how to read it back. */
export interface Written {
  /** The resource's own path, when it can be read or deleted there. */
  readonly resourcePath: string | undefined;
  /** How to read what was written: a GET of a path, or an item of a list. */
  readonly read:
    | { readonly kind: "get"; readonly path: string; readonly operation: OperationInfo }
    | {
        readonly kind: "list";
        readonly path: string;
        readonly operation: OperationInfo;
        readonly id: unknown;
      }
    | undefined;
  /** Sub-lists to compare separately (`nodes` of a rebuild): property name → list path. */
  readonly lists?: Readonly<Record<string, string>>;
}

/**
 * Where a resource's id sits in a created resource's answer, for the path parameter `{name}` that follows its
 * collection: the property of that name when the answer has one (`{address}`), else `id`.
 */
function idFor(name: string, body: Record<string, unknown>): unknown {
  return body[name] ?? body.id;
}

/** Exceptions to the derivation, named by operationId (facts.md). */
export const readBackExceptions: Readonly<
  Record<
    string,
    (
      path: string,
      body: Record<string, unknown>,
    ) => { resource?: string; read?: string; lists?: Record<string, string> }
  >
> = {
  // The deprecated alias creates a node at the profile's path; the node lives under `/nodes`.
  createNodeBalancerNodeDeprecated: (path, body) => ({ resource: `${path}/nodes/${body.id}` }),
  // A rebuild changes the profile (read at its path) and replaces its nodes (read from its node list).
  rebuildNodeBalancerConfig: (path) => {
    const profile = path.replace(/\/rebuild$/, "");
    return { read: profile, lists: { nodes: `${profile}/nodes` } };
  },
};

export function written(
  t: CaseContext,
  operation: OperationInfo,
  path: string,
  response: LiveResponse,
): Written {
  const body = (response.json ?? {}) as Record<string, unknown>;
  const getAt = (at: string) => {
    const match = t.spec.operations.match("GET", at);
    return match ? { kind: "get" as const, path: at, operation: match.operation } : undefined;
  };
  const exception = readBackExceptions[operation.operationId]?.(path, body);
  if (exception) {
    const resource = exception.resource;
    const read = getAt(exception.read ?? resource ?? path);
    return { resourcePath: resource, read, ...(exception.lists ? { lists: exception.lists } : {}) };
  }
  if (operation.method !== "post") return { resourcePath: undefined, read: getAt(path) };
  // A create: `/things` made `/things/{x}`.
  const child = t.spec.operations
    .all()
    .find(
      (other) =>
        (other.method === "get" || other.method === "delete") &&
        new RegExp(`^${escapeRegExp(operation.pathTemplate)}/\\{[^}/]+\\}$`).test(other.pathTemplate),
    );
  if (child) {
    const name = /\{([^}]+)\}$/.exec(child.pathTemplate)![1]!;
    const id = idFor(name, body);
    if (id === undefined || id === null) return { resourcePath: undefined, read: undefined };
    const resourcePath = `${path}/${encodeURIComponent(String(id))}`;
    const read = getAt(resourcePath);
    if (read) return { resourcePath, read };
    const list = getAt(path);
    return {
      resourcePath,
      read: list?.operation.paginated
        ? { kind: "list", path, operation: list.operation, id: body.id }
        : undefined,
    };
  }
  return { resourcePath: undefined, read: undefined };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Puts what a write created on the cleanup ledger (when the spec can delete it there). */
export function registerCreated(t: CaseContext, operation: OperationInfo, where: Written): void {
  if (!where.resourcePath || !t.spec.operations.match("DELETE", where.resourcePath)) return;
  t.cleanup(`${operation.operationId} created ${where.resourcePath}`, where.resourcePath);
}

/** Reads a list's pages (at most `maxPages`) for the item with this id. */
export async function findInList(
  t: CaseContext,
  path: string,
  id: unknown,
  maxPages = 10,
): Promise<LiveResponse | undefined> {
  for (let page = 1; page <= maxPages; page += 1) {
    const response = await t.api.get(path, { query: { page, page_size: 500 } });
    if (response.status !== 200) return response;
    const body = response.json as { data?: { id?: unknown }[]; pages?: number } | undefined;
    const item = body?.data?.find((entry) => entry.id === id);
    if (item) return { ...response, json: item };
    if ((body?.pages ?? 1) <= page) return undefined;
  }
  return undefined;
}

/** The properties the read operation's success answer declares (what can be compared after a write). */
export function declaredInRead(t: CaseContext, read: OperationInfo, list: boolean): BodySchema | undefined {
  const schema = responseSchemaOf(t.spec, read.operationId, 200);
  if (!list) return schema;
  return schema?.properties?.data?.items;
}

/** The `field`s of an error body (empty when none). */
export function errorFields(response: LiveResponse): string[] {
  const errors = (response.json as { errors?: { field?: unknown }[] } | undefined)?.errors;
  return Array.isArray(errors)
    ? errors.map((error) => error?.field).filter((field): field is string => typeof field === "string")
    : [];
}

/** A body as reports may show it: write-only values (passwords, keys) redacted, except at `keep` (broken on purpose). */
export function redactWriteOnly(schema: BodySchema, body: unknown, keep: readonly string[] = []): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const shown: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const name of Object.keys(shown)) {
    if (schema.properties?.[name]?.writeOnly && !keep.includes(`/${name}`)) shown[name] = "<REDACTED>";
  }
  return shown;
}
