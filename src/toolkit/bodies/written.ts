/**
 * Where a write's resource lives, derived from the description's operations (never from fixed paths): a create
 * (`POST /things`) made `/things/{id}` when the description has a GET or a DELETE there; an update (`PUT
 * /things/{id}`) reads back at its own path; a created resource with no read of its own is found in its
 * collection's list. Operations that need more than that are named, by operationId, in
 * {@link readBackExceptions}. Also what follows from it: the cleanup ledger, and what a read can show.
 * @module
 */
import { type BodySchema, responseSchemaOf } from "../../generators/request-body.ts";
import type { LiveResponse } from "../../runner/contracts.ts";
import type { CaseContext } from "../../runner/suite-api.ts";
import { conventionsOf } from "../../spec/conventions.ts";
import type { OperationInfo } from "../../spec/types.ts";
import { type PathValue, pathOf } from "../operations.ts";
import { readBody, shape } from "../readers.ts";
import { idOfLocation, labelOf } from "../resources.ts";

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

/** A write to an operation at concrete path parameter values. */
export interface WriteAt {
  readonly operation: OperationInfo;
  readonly params: readonly PathValue[];
}

/**
 * Where a write's resource is when the derivation does not say, by operationId; each names operations by
 * operationId, called with the write's path parameter values (and `resource` with the answer's `id` after them).
 */
interface ReadBackException {
  /** The created resource lives at this operation's path. */
  readonly resource?: string;
  /** What was written reads back from this operation (default: the resource). */
  readonly read?: string;
  /** Sub-lists the write replaces, compared item by item: property name → the list's operation. */
  readonly lists?: Readonly<Record<string, string>>;
}

/** The exceptions of this API (facts.md). */
const readBackExceptions: Readonly<Record<string, ReadBackException>> = {
  // The deprecated alias creates a node at the profile's path; the node lives with the profile's nodes.
  createNodeBalancerNodeDeprecated: { resource: "getNodeBalancerConfigNode" },
  // A rebuild changes the profile (read at its path) and replaces its nodes (read from its node list).
  rebuildNodeBalancerConfig: {
    read: "getNodeBalancerConfig",
    lists: { nodes: "getNodeBalancerConfigNodes" },
  },
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The operation (a GET, else a DELETE) at the path of what `create` makes (`/things/{name}` after `/things`), and
 * the name of that last path parameter; undefined when the description has none.
 */
export function createdResource(
  t: CaseContext,
  create: OperationInfo,
): { readonly operation: OperationInfo; readonly parameter: string } | undefined {
  const child = new RegExp(`^${escapeRegExp(create.pathTemplate)}/\\{([^}/]+)\\}$`);
  const candidates = t.spec.operations.all().filter((other) => child.test(other.pathTemplate));
  const operation =
    candidates.find((other) => other.method === "get") ??
    candidates.find((other) => other.method === "delete");
  return operation && { operation, parameter: child.exec(operation.pathTemplate)![1]! };
}

/** The path of operation `operationId` at `values`, or undefined when the description lacks it. */
function pathById(t: CaseContext, operationId: string, values: readonly PathValue[]): string | undefined {
  const operation = t.spec.operations.byId(operationId);
  return operation && pathOf(operation, ...values);
}

const isPathValue = (value: unknown): value is PathValue =>
  typeof value === "string" || typeof value === "number";

/** Where the resource a write's answer describes lives, and how to read it back. */
export function written(t: CaseContext, write: WriteAt, response: LiveResponse): Written {
  // JSON whatever its label: a mislabelled answer still says where what it made lives.
  const parsed = response.parsed;
  const body = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const path = pathOf(write.operation, ...write.params);
  const getAt = (at: string | undefined) => {
    const match = at === undefined ? undefined : t.spec.operations.match("GET", at);
    return match && at !== undefined
      ? { kind: "get" as const, path: at, operation: match.operation }
      : undefined;
  };
  // What the answer names it by: its id, else the last segment of its `Location`.
  const location = idOfLocation(response.headers.location);
  const exception = readBackExceptions[write.operation.operationId];
  if (exception) {
    const named = isPathValue(body.id) ? body.id : location;
    const resource =
      exception.resource && named !== undefined
        ? pathById(t, exception.resource, [...write.params, named])
        : undefined;
    const read = getAt(exception.read ? pathById(t, exception.read, write.params) : (resource ?? path));
    const lists = Object.entries(exception.lists ?? {}).flatMap(([name, operationId]) => {
      const at = pathById(t, operationId, write.params);
      return at === undefined ? [] : [[name, at] as const];
    });
    return {
      resourcePath: resource,
      read,
      ...(lists.length > 0 ? { lists: Object.fromEntries(lists) } : {}),
    };
  }
  if (write.operation.method !== "post") return { resourcePath: undefined, read: getAt(path) };
  // A create: `/things` made `/things/{x}`, named by the answer's property `x` when it has one (`address`), else `id`.
  const child = createdResource(t, write.operation);
  if (!child) return { resourcePath: undefined, read: undefined };
  const named = body[child.parameter] ?? body.id;
  const id = isPathValue(named) ? named : location;
  if (id === undefined) return { resourcePath: undefined, read: undefined };
  const resourcePath = pathOf(child.operation, ...write.params, id);
  const read = getAt(resourcePath);
  if (read) return { resourcePath, read };
  const list = getAt(path);
  return {
    resourcePath,
    read: list?.operation.paginated
      ? { kind: "list", path, operation: list.operation, id: body.id ?? id }
      : undefined,
  };
}

/**
 * Whether a successful write to `operation` makes a resource of its own that the description can delete (a create
 * whose resource path has a DELETE), by the description's paths.
 */
function makesDeletable(t: CaseContext, operation: OperationInfo): boolean {
  if (operation.method !== "post") return false;
  const exception = readBackExceptions[operation.operationId];
  const made = exception
    ? exception.resource && t.spec.operations.byId(exception.resource)
    : createdResource(t, operation)?.operation;
  return (
    !!made &&
    t.spec.operations
      .all()
      .some((other) => other.method === "delete" && other.pathTemplate === made.pathTemplate)
  );
}

/**
 * Puts what a write created on the cleanup ledger (when the description can delete it there). A create whose 2xx
 * named nothing (no id, no `Location`) goes on it as unidentified, by the label in `sent` (the body the suite sent,
 * as an object or as text), for the end of the run to list and `conform cleanup` to find.
 */
export function registerWritten(
  t: CaseContext,
  operation: OperationInfo,
  where: Written,
  sent?: unknown,
): void {
  if (!where.resourcePath) {
    if (makesDeletable(t, operation))
      t.cleanupUnidentified(
        `${operation.operationId} created something its answer did not name`,
        labelOf(sent),
      );
    return;
  }
  if (!t.spec.operations.match("DELETE", where.resourcePath)) return;
  t.cleanup(`${operation.operationId} created ${where.resourcePath}`, where.resourcePath);
}

/** A list page as `findInList` reads it (an answer of another shape holds nothing it could find). */
const listPage = shape.object({ data: shape.array(shape.record), pages: shape.optional(shape.integer) });

/** Reads a list's pages (the largest page size, at most `maxPages`) for the item with this id. */
export async function findInList(
  t: CaseContext,
  path: string,
  id: unknown,
  maxPages = 10,
): Promise<LiveResponse | undefined> {
  const pageSize = conventionsOf(t.spec).pageSize.max;
  for (let page = 1; page <= maxPages; page += 1) {
    const response = await t.api.get(path, { query: { page, page_size: pageSize } });
    if (response.status !== 200) return response;
    const read = readBody(response, listPage);
    if (!read.ok) return undefined;
    const item = read.value.data.find((entry) => entry.id === id);
    if (item) return { ...response, json: item };
    if ((read.value.pages ?? 1) <= page) return undefined;
  }
  return undefined;
}

/** The properties the read operation's success answer declares (what can be compared after a write). */
export function declaredInRead(t: CaseContext, read: OperationInfo, list: boolean): BodySchema | undefined {
  const schema = responseSchemaOf(t.spec, read.operationId, 200);
  if (!list) return schema;
  return schema?.properties?.data?.items;
}
