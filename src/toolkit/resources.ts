/**
 * Resources a case creates: the request that creates one, with what it made registered on the run's cleanup
 * ledger before its answer is judged (also when the target should have refused it: a faulty target must not keep
 * the run's resources), from whatever the answer reveals, and secrets a case makes for them (a strong root password).
 * @module
 */
import { randomBytes } from "node:crypto";
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { type Resource, resourceOfOperation } from "../spec/resources.ts";
import type { OperationInfo } from "../spec/types.ts";
import { type CallOptions, call, type PathValue, pathOf, requireOperation } from "./operations.ts";
import { templateParameters } from "./path-values.ts";
import { isSuccess } from "./responses.ts";

/** What a create made, for the ledger: what it is, how it is deleted, the label the run gave it. */
export interface Made {
  /** What it is (`load balancer`): the ledger's entry is this, then the id, then `note` in parentheses. */
  readonly what: string;
  readonly note?: string;
  /** The path that deletes it, given its id. */
  readonly deletePath: (id: PathValue) => string;
  /** The label the run gave it (when it has one): what finds it when the answer does not say which it is. */
  readonly label: string | undefined;
  /** The answer's property that holds its id; `id` when not given. */
  readonly idKey?: string;
  /** Its resource kind in the description and the ids of what it lives under, for the ledger. */
  readonly kind?: { readonly resource: Resource; readonly parentIds: Readonly<Record<string, PathValue>> };
}

/**
 * Registers what a create made, before its answer is judged, from whatever the answer reveals: its body parsed as
 * JSON whatever its Content-Type says (the id), else its `Location` (the last segment of its path), else (a 2xx that
 * names nothing) by the label the run gave it, listed at the end as a cleanup failure. A refusal made nothing.
 * Answers the id, or undefined when the answer named none.
 */
export function registerMade(t: CaseContext, response: LiveResponse, made: Made): PathValue | undefined {
  if (!isSuccess(response)) return undefined;
  const body = response.parsed;
  const named =
    typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)[made.idKey ?? "id"]
      : undefined;
  const id = isId(named) ? named : idOfLocation(response.headers.location);
  const note = made.note === undefined ? "" : ` (${made.note})`;
  if (id === undefined) {
    t.cleanupUnidentified(`${made.what}${note}`, made.label);
    return undefined;
  }
  const { kind } = made;
  const ids = kind?.resource.idParameter && { ...kind.parentIds, [kind.resource.idParameter]: id };
  t.cleanup(
    `${made.what} ${id}${note}`,
    made.deletePath(id),
    ids ? { resource: kind.resource.path, ids } : undefined,
  );
  return id;
}

/** An id a path can carry (encoded): an integer, or a string of at most 200 characters. */
function isId(value: unknown): value is PathValue {
  if (typeof value === "number") return Number.isSafeInteger(value);
  return typeof value === "string" && value.length > 0 && value.length <= 200;
}

/** The id a `Location` header names: the last segment of its path (`/v4/nodebalancers/12` gives 12). */
export function idOfLocation(location: string | undefined): PathValue | undefined {
  if (location === undefined) return undefined;
  const segment = URL.parse(location, "http://base.invalid/")?.pathname.split("/").filter(Boolean).at(-1);
  if (segment === undefined) return undefined;
  const id = decodeURIComponent(segment);
  if (/^\d{1,15}$/.test(id)) return Number(id);
  return isId(id) ? id : undefined;
}

/** The label of a create's JSON body (an object, or its text), when it has one. */
export function labelOf(json: unknown): string | undefined {
  let body = json;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const label = typeof body === "object" && body !== null ? (body as { label?: unknown }).label : undefined;
  return typeof label === "string" ? label : undefined;
}

/**
 * Registers what `response` created for deletion through `remove`, its path filled with `params` and then the id
 * (see {@link registerMade}; `label`: the one the request gave it); answers the id when it is an integer.
 */
export function registerCreated(
  t: CaseContext,
  response: LiveResponse,
  what: string,
  remove: OperationInfo,
  params: readonly PathValue[] = [],
  label?: string,
): number | undefined {
  const resource = resourceOfOperation(t.spec, remove);
  const names = templateParameters(remove.pathTemplate);
  const parentIds = Object.fromEntries(params.map((value, index) => [names[index], value]));
  const id = registerMade(t, response, {
    what,
    label,
    deletePath: (id) => pathOf(remove, ...params, id),
    ...(resource ? { kind: { resource, parentIds } } : {}),
  });
  return typeof id === "number" ? id : undefined;
}

export interface Created {
  readonly response: LiveResponse;
  /** The id of what was created, or undefined when nothing was. */
  readonly id: number | undefined;
}

/** A create and the delete of what it makes, and the resource of the description they belong to. */
export interface CreateDelete {
  readonly create: OperationInfo;
  readonly remove: OperationInfo;
  readonly resource: Resource;
}

/**
 * The resource `operationId` belongs to (its create, read, update, delete, list or an action), as `resourcesOf`
 * derives it from the description: what a suite reaches its delete, read and list through. The case is skipped
 * when the description lacks the operation or it belongs to no resource.
 */
export function resourceOf(t: CaseContext, operationId: string): Resource {
  const operation = requireOperation(t, operationId);
  const resource = resourceOfOperation(t.spec, operation);
  return resource ?? t.skip(`the description shows no resource that ${operationId} belongs to`);
}

/**
 * The create `createId` and the delete of the resource it creates, found in the description (`aliasOf`: the
 * resource's own create, when `createId` is another way to make one, such as a deprecated alias path). The case
 * is skipped when either is missing: nothing is created that the run could not delete.
 */
export function requireCreateDelete(t: CaseContext, createId: string, aliasOf = createId): CreateDelete {
  const create = requireOperation(t, createId);
  const resource = resourceOf(t, aliasOf);
  if (resource.create?.operationId !== aliasOf) {
    const by = resource.create?.operationId ?? "no operation";
    return t.skip(`the description's ${resource.name} is created by ${by}, not ${aliasOf}`);
  }
  const remove =
    resource.delete ??
    t.skip(
      `the description has no delete for ${resource.name}: ${createId} would make what the run could not delete`,
    );
  return { create, remove, resource };
}

export interface CreateOptions extends CallOptions {
  /** The resource's own create, when the one called is another way to make one (a deprecated alias path). */
  readonly aliasOf?: string;
}

/**
 * Calls the create `createId` and registers what it created for deletion through its resource's delete (see
 * {@link requireCreateDelete}), whose path takes the same parameters and then the new id. Both are looked up first.
 */
export async function createRegistered(
  t: CaseContext,
  createId: string,
  what: string,
  options: CreateOptions = {},
): Promise<Created> {
  const { aliasOf, ...request } = options;
  const { remove } = requireCreateDelete(t, createId, aliasOf);
  const response = await call(t, createId, request);
  const label = labelOf(options.json);
  return { response, id: registerCreated(t, response, what, remove, options.params, label) };
}

/** Asserts under `name` that the request created something (a 2xx with an integer id); answers whether it did. */
export function expectCreated(
  t: CaseContext,
  name: string,
  created: Created,
): created is Created & { readonly id: number } {
  const { response, id } = created;
  return t.expect(name, id !== undefined, {
    expected: "2xx with an integer id",
    actual: response.status,
    response,
  });
}

/** A strong root password (random, 144 bits), registered as a secret so no report ever shows it. */
export function strongPassword(t: CaseContext): string {
  const password = `${randomBytes(18).toString("base64url")}-Cf9`;
  t.secret(password);
  return password;
}
