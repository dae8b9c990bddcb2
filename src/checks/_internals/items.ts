/**
 * What the stateful `observed-*` checks share: where an exchange lands among the description's resources
 * (`resourcesOf`): which item it reads, writes, deletes or acts on, which collection it lists or creates in, each
 * as a concrete path (`/nodebalancers/12/configs/3`) so that two exchanges about the same item meet.
 * Not a check: `src/checks/_internals/` holds no registered ids.
 * @module
 * @internal
 */
import { type Resource, resourcesOf } from "../../spec/resources.ts";
import type { ApiSpec, OperationInfo } from "../../spec/types.ts";
import type { AnsweredExchange, CheckContext } from "../types.ts";
import { isObject, observedOperation } from "./observed.ts";

export type ItemRole = "list" | "create" | "read" | "update" | "delete" | "action";

/** What an exchange does to which item or collection (concrete paths, no base path, no trailing slash). */
export interface ItemTouch {
  readonly role: ItemRole;
  readonly resource: Resource;
  /** The collection's concrete path (`/nodebalancers/12/configs`); for a singleton, its own. */
  readonly collection: string;
  /** The item's concrete path; for a create, from the id its answer gives; undefined when not known. */
  readonly item: string | undefined;
}

const roles = new WeakMap<ApiSpec, Map<OperationInfo, { resource: Resource; role: ItemRole }>>();

function roleOf(spec: ApiSpec, operation: OperationInfo) {
  let byOperation = roles.get(spec);
  if (!byOperation) {
    byOperation = new Map();
    for (const resource of resourcesOf(spec)) {
      for (const role of ["list", "create", "read", "update", "delete"] as const) {
        const found = resource[role];
        if (found) byOperation.set(found, { resource, role });
      }
      for (const action of resource.actions) byOperation.set(action, { resource, role: "action" });
    }
    roles.set(spec, byOperation);
  }
  return byOperation.get(operation);
}

const segmentsOf = (path: string) => path.split("/").filter((segment) => segment !== "");

/** The request path's last segments, as many as `template` has: the base path (`/v4`) dropped. */
function concrete(pathname: string, template: string): string[] {
  const count = segmentsOf(template).length;
  return segmentsOf(pathname).slice(-count || Number.POSITIVE_INFINITY);
}

/** Where an answered request of the API lands among the resources; undefined when it is none of theirs. */
export function itemTouchOf(context: CheckContext, exchange: AnsweredExchange): ItemTouch | undefined {
  const operation = observedOperation(context, exchange);
  if (!operation || operation.serverUrl !== undefined) return undefined;
  const found = roleOf(context.spec, operation);
  if (!found) return undefined;
  const { resource, role } = found;
  const at = concrete(new URL(exchange.request.url).pathname, operation.pathTemplate);
  const collectionDepth = segmentsOf(resource.path).length;
  const collection = `/${at.slice(0, collectionDepth).join("/")}`;
  if (resource.singleton) return { role, resource, collection, item: collection };
  if (role === "list") return { role, resource, collection, item: undefined };
  if (role === "create")
    return { role, resource, collection, item: createdItem(resource, collection, exchange) };
  if (at.length <= collectionDepth) return { role, resource, collection, item: undefined };
  return { role, resource, collection, item: `${collection}/${at[collectionDepth]}` };
}

/** The new item's path from the create's answer (its id field), when the answer gives it. */
function createdItem(resource: Resource, collection: string, exchange: AnsweredExchange): string | undefined {
  const body = exchange.response.json;
  const id = isObject(body) && resource.idField ? body[resource.idField.name] : undefined;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  return `${collection}/${encodeURIComponent(String(id))}`;
}

/** A request that may change what the target holds: anything but GET, HEAD and OPTIONS. */
export function isWrite(exchange: AnsweredExchange): boolean {
  return !/^(GET|HEAD|OPTIONS)$/i.test(exchange.request.method);
}

export const isSuccess = (exchange: AnsweredExchange) =>
  exchange.response.status >= 200 && exchange.response.status < 300;

/** The JSON object the request sent, if it sent one. */
export function requestObject(exchange: AnsweredExchange): Record<string, unknown> | undefined {
  const { body } = exchange.request;
  if (typeof body !== "string" || body === "") return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Is `path` the item at `item` or under it (its profiles, its nodes, its actions)? */
export const isAtOrUnder = (path: string, item: string) => path === item || path.startsWith(`${item}/`);
