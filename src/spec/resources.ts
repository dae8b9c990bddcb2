/**
 * The resources of a description, derived from its paths and operations alone: each collection (its list and
 * create), its item (read, update, delete), its actions (`POST /things/{id}/reboot`), the resource it lives under
 * and the path parameter linking them, and the field of the create's answer that holds a new item's id (the
 * answer's `links` first, then its schema's properties by the id parameter's name). A path without an item below it
 * and not answering a list is a singleton (`/profile`, `/things/{id}/ips`), unless all it takes is POSTs. Only the API's operations count (not the
 * login server's). Suites, the lifecycle chain and the cleanup find what to create and delete here.
 * @module
 */
import { deref, isObject } from "./pointer.ts";
import type { ApiSpec, OperationInfo } from "./types.ts";
import { listOperations, type RawOperation } from "./walk-operations.ts";

export interface Resource {
  /** Its literal segments joined by `/` (`nodebalancers/configs`): what people call it. */
  readonly name: string;
  /** The collection's path template, or a singleton's own; trailing slash removed. Each resource's key. */
  readonly path: string;
  /** The item's path template (`path` then `/{idParameter}`); undefined for a singleton. */
  readonly itemPath: string | undefined;
  readonly idParameter: string | undefined;
  readonly singleton: boolean;
  readonly list: OperationInfo | undefined;
  readonly create: OperationInfo | undefined;
  readonly read: OperationInfo | undefined;
  readonly update: OperationInfo | undefined;
  readonly delete: OperationInfo | undefined;
  /** POSTs under (or on) the item that are neither a create nor a collection: `reboot`, `rebuild`. */
  readonly actions: readonly OperationInfo[];
  /** The resource whose item this one's path starts with, and the path parameter naming that item. */
  readonly parent: { readonly path: string; readonly parameter: string } | undefined;
  /** The property of the create's answer holding a new item's id, and where that was learnt. */
  readonly idField: { readonly name: string; readonly from: "links" | "schema" } | undefined;
}

const trimmed = (template: string) => (template.length > 1 ? template.replace(/\/+$/, "") : template);
const segmentsOf = (template: string) => template.split("/").filter((segment) => segment !== "");
const parameterOf = (segment: string | undefined) => /^\{([^{}]+)\}$/.exec(segment ?? "")?.[1];
const parentOf = (template: string) => template.slice(0, Math.max(0, template.lastIndexOf("/")));

/** The property names an item may hold a path parameter's value in: `configId`, `config_id`, `id`, `config`. */
export function idFieldCandidates(parameter: string): string[] {
  const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  const candidates = [parameter, snake(parameter)];
  if (/(?:Id|_id|ID)$/.test(parameter) || parameter === "id") candidates.push("id");
  const bare = parameter.replace(/(?:Id|_id|ID)$/, "");
  candidates.push(bare, snake(bare));
  return [...new Set(candidates.filter((name) => name !== ""))];
}

interface Draft {
  path: string;
  itemPath: string | undefined;
  idParameter: string | undefined;
  atPath: OperationInfo[];
  atItem: OperationInfo[];
  actions: OperationInfo[];
}

/** Whether the operations at a path answer a list: a paginated envelope or a JSON array. */
function answersList(spec: ApiSpec, operations: readonly OperationInfo[]): boolean {
  const get = operations.find((operation) => operation.method === "get");
  if (!get) return false;
  return get.paginated || successSchemaType(spec, get) === "array";
}

/** Groups the API's operations by path; each item path joins its collection; leaves of POSTs are actions. */
function drafts(spec: ApiSpec): Draft[] {
  const byPath = new Map<string, OperationInfo[]>();
  for (const operation of spec.operations.all()) {
    if (operation.serverUrl !== undefined) continue;
    const path = trimmed(operation.pathTemplate);
    byPath.set(path, [...(byPath.get(path) ?? []), operation]);
  }
  const paths = [...byPath.keys()];
  const itemOf = (path: string) =>
    paths.find((other) => parentOf(other) === path && parameterOf(segmentsOf(other).at(-1)) !== undefined);
  const isAction = (path: string, operations: readonly OperationInfo[]) =>
    parameterOf(segmentsOf(parentOf(path)).at(-1)) !== undefined &&
    itemOf(path) === undefined &&
    operations.every((operation) => operation.method === "post") &&
    paths.some((other) => other === parentOf(path));
  const found = new Map<string, Draft>();
  const draftAt = (path: string, itemPath: string | undefined) => {
    let draft = found.get(path);
    if (!draft) {
      const idParameter = itemPath === undefined ? undefined : parameterOf(segmentsOf(itemPath).at(-1));
      draft = { path, itemPath, idParameter, atPath: [], atItem: [], actions: [] };
      found.set(path, draft);
    }
    return draft;
  };
  const actions: [string, OperationInfo[]][] = [];
  for (const [path, operations] of byPath) {
    if (parameterOf(segmentsOf(path).at(-1)) !== undefined) {
      draftAt(parentOf(path), path).atItem.push(...operations);
    } else if (isAction(path, operations)) actions.push([path, operations]);
    else draftAt(path, itemOf(path)).atPath.push(...operations);
  }
  for (const [path, operations] of actions) {
    const owner = [...found.values()].find((draft) => draft.itemPath === parentOf(path));
    if (owner) owner.actions.push(...operations);
    else draftAt(path, undefined).atPath.push(...operations);
  }
  return [...found.values()].filter(
    (draft) => draft.atPath.length + draft.atItem.length > 0 || draft.actions.length > 0,
  );
}

const derived = new WeakMap<ApiSpec, readonly Resource[]>();

/** Every resource of the description, parents before children, in the description's order among equals. */
export function resourcesOf(spec: ApiSpec): readonly Resource[] {
  let resources = derived.get(spec);
  if (!resources) {
    resources = Object.freeze(derive(spec));
    derived.set(spec, resources);
  }
  return resources;
}

function derive(spec: ApiSpec): Resource[] {
  const all = drafts(spec);
  const resources = all.map((draft) => resourceOf(spec, draft, all));
  const depth = (resource: Resource) => segmentsOf(resource.path).length;
  return resources
    .map((resource, index) => ({ resource, index }))
    .sort((a, b) => depth(a.resource) - depth(b.resource) || a.index - b.index)
    .map((entry) => entry.resource);
}

function resourceOf(spec: ApiSpec, draft: Draft, all: readonly Draft[]): Resource {
  // A path of POSTs alone, with no item and no list, is a collection that only creates (`POST /keys`).
  const singleton =
    draft.itemPath === undefined &&
    !answersList(spec, draft.atPath) &&
    draft.atPath.some((operation) => operation.method !== "post");
  const at = (operations: readonly OperationInfo[], ...methods: string[]) =>
    methods.map((method) => operations.find((operation) => operation.method === method)).find(Boolean);
  const own = singleton ? draft.atPath : draft.atItem;
  const list = singleton ? undefined : at(draft.atPath, "get");
  const create = singleton ? undefined : at(draft.atPath, "post");
  const read = at(own, "get");
  const update = at(own, "put", "patch");
  const remove = at(own, "delete");
  const taken = new Set([list, create, read, update, remove]);
  const actions = [...draft.atPath, ...draft.atItem, ...draft.actions].filter(
    (operation) => !taken.has(operation) && operation.method === "post",
  );
  return {
    name: segmentsOf(draft.path)
      .filter((segment) => parameterOf(segment) === undefined)
      .join("/"),
    path: draft.path,
    itemPath: draft.itemPath,
    idParameter: draft.idParameter,
    singleton,
    list,
    create,
    read,
    update,
    delete: remove,
    actions,
    parent: parentResource(draft.path, all),
    idField:
      create && draft.idParameter !== undefined
        ? idFieldOf(spec, create, draft.idParameter, [read, update, remove])
        : undefined,
  };
}

/** The resource whose item path is the longest prefix of `path` ending in a parameter. */
function parentResource(path: string, all: readonly Draft[]): Resource["parent"] {
  const segments = segmentsOf(path);
  for (let end = segments.length - 1; end > 0; end -= 1) {
    const parameter = parameterOf(segments[end - 1]);
    if (parameter === undefined) continue;
    const prefix = `/${segments.slice(0, end).join("/")}`;
    const owner = all.find((draft) => draft.itemPath === prefix);
    return owner ? { path: owner.path, parameter } : undefined;
  }
  return undefined;
}

/** The operations as written, listed once per description. */
const written = new WeakMap<ApiSpec, RawOperation[]>();

/** The written operation and its first 2xx response object, found by operationId (else method and path). */
function successResponse(
  spec: ApiSpec,
  operation: OperationInfo,
): Readonly<Record<string, unknown>> | undefined {
  let raws = written.get(spec);
  if (!raws) {
    raws = listOperations(spec.document);
    written.set(spec, raws);
  }
  const raw =
    raws.find((candidate) => candidate.operation.operationId === operation.operationId) ??
    raws.find(
      (candidate) =>
        candidate.method === operation.method && operation.pathTemplate.endsWith(candidate.pathTemplate),
    );
  const responses = isObject(raw?.operation.responses) ? raw.operation.responses : {};
  const status = Object.keys(responses)
    .filter((key) => /^2(?:\d\d|XX)$/i.test(key))
    .sort()[0];
  const response = status === undefined ? undefined : deref(spec.document, responses[status]);
  return isObject(response) ? response : undefined;
}

/** The JSON schema of a success answer (OpenAPI's JSON content, Swagger's `schema`), `$ref` followed. */
function successSchema(
  spec: ApiSpec,
  operation: OperationInfo,
): Readonly<Record<string, unknown>> | undefined {
  const response = successResponse(spec, operation);
  if (!response) return undefined;
  let schema: unknown = response.schema;
  if (isObject(response.content)) {
    const json = Object.entries(response.content).find(([type]) => /json/i.test(type)) ?? [];
    schema = isObject(json[1]) ? json[1].schema : undefined;
  }
  const resolved = deref(spec.document, schema);
  return isObject(resolved) ? resolved : undefined;
}

function successSchemaType(spec: ApiSpec, operation: OperationInfo): unknown {
  return successSchema(spec, operation)?.type;
}

/**
 * Where the create's answer holds the new item's id: a link to the item's read, update or delete naming the id
 * parameter `$response.body#/<field>`, else the first of the parameter's candidate names among the answer's
 * properties (`allOf` members and `$ref`s followed).
 */
function idFieldOf(
  spec: ApiSpec,
  create: OperationInfo,
  idParameter: string,
  itemOperations: readonly (OperationInfo | undefined)[],
): Resource["idField"] {
  const ids = new Set(itemOperations.flatMap((operation) => (operation ? [operation.operationId] : [])));
  const links = successResponse(spec, create)?.links;
  for (const written of isObject(links) ? Object.values(links) : []) {
    const link = deref(spec.document, written);
    if (!isObject(link) || !isObject(link.parameters)) continue;
    if (typeof link.operationId === "string" && !ids.has(link.operationId)) continue;
    const value = link.parameters[idParameter];
    const field = typeof value === "string" ? /^\$response\.body#\/([^/]+)$/.exec(value)?.[1] : undefined;
    if (field !== undefined) return { name: field.replace(/~1/g, "/").replace(/~0/g, "~"), from: "links" };
  }
  const names = propertyNames(spec.document, successSchema(spec, create));
  const name = idFieldCandidates(idParameter).find((candidate) => names.has(candidate));
  return name === undefined ? undefined : { name, from: "schema" };
}

/** The property names a schema declares, through `$ref`s and `allOf`. */
function propertyNames(document: unknown, schema: unknown, depth = 0): Set<string> {
  const names = new Set<string>();
  const value = deref(document, schema);
  if (!isObject(value) || depth > 16) return names;
  if (isObject(value.properties)) for (const name of Object.keys(value.properties)) names.add(name);
  for (const member of Array.isArray(value.allOf) ? value.allOf : []) {
    for (const name of propertyNames(document, member, depth + 1)) names.add(name);
  }
  return names;
}

/** The resource an operation (its create, read, update, delete, list or action) belongs to. */
export function resourceOfOperation(spec: ApiSpec, operation: OperationInfo): Resource | undefined {
  return resourcesOf(spec).find(
    (resource) =>
      [resource.list, resource.create, resource.read, resource.update, resource.delete].includes(operation) ||
      resource.actions.includes(operation),
  );
}

/** The resource `path` names (a collection's or singleton's path, trailing slash ignored). */
export function resourceAt(resources: readonly Resource[], path: string): Resource | undefined {
  const key = trimmed(path);
  return resources.find((resource) => resource.path === key);
}

/** A resource's ancestors, the outermost first. */
export function ancestorsOf(resources: readonly Resource[], resource: Resource): Resource[] {
  const chain: Resource[] = [];
  let parent = resource.parent && resourceAt(resources, resource.parent.path);
  while (parent && !chain.includes(parent)) {
    chain.unshift(parent);
    parent = parent.parent && resourceAt(resources, parent.parent.path);
  }
  return chain;
}
