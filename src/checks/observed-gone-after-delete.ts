/**
 * `observed-gone-after-delete`: after a 2xx delete of an item, a later read of it is 404 and a later list of its
 * collection does not hold it. An item answered with status `deleting` is on its way out: skipped with the reason.
 * A create whose answer gives the same item again (an id reused) ends what is known of it. Per-run state: the items
 * deleted (bounded).
 * @module
 */
import { type CheckOutcome, failed, passed, skipped } from "../core/result.ts";
import { isSuccess, itemTouchOf } from "./_internals/items.ts";
import { isObject, remember } from "./_internals/observed.ts";
import { requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

/** The check's per-run state (exported: the registry's declared type names it). */
export interface Deleted {
  /** Deleted item path → the delete's request line (for messages). */
  readonly items: Map<string, string>;
}

export const observedGoneAfterDelete: CheckDefinition<Deleted> = {
  id: "observed-gone-after-delete",
  title: "After a delete, a read of the item is 404 and a list of its collection does not hold it",
  state: () => ({ items: new Map() }),
  check(context, exchange, state) {
    const touch = itemTouchOf(context, exchange);
    if (!touch || touch.resource.singleton) return undefined;
    const { item, role, collection } = touch;
    if (role === "list") return listed(state, collection, exchange.response.status, exchange.response.json);
    if (item === undefined) return undefined;
    if (role === "create") {
      if (isSuccess(exchange)) state.items.delete(item);
      return undefined;
    }
    if (role === "delete") {
      if (isSuccess(exchange)) remember(state.items, item, requestLine(exchange));
      return undefined;
    }
    const by = state.items.get(item);
    if (role !== "read" || by === undefined) return undefined;
    const { status, json } = exchange.response;
    if (status === 404) return passed;
    if (status !== 200) return undefined;
    if (isObject(json) && json.status === "deleting")
      return skipped(`the item read after ${by} is still deleting`);
    return failed(`a read after ${by} is answered ${status}`, { expected: 404, actual: status });
  },
};

/** A list of a collection an item was deleted from: the item is not on it. */
function listed(state: Deleted, collection: string, status: number, body: unknown): CheckOutcome | undefined {
  if (status !== 200 || !isObject(body) || !Array.isArray(body.data)) return undefined;
  const prefix = `${collection}/`;
  const gone = [...state.items.keys()].filter(
    (item) => item.startsWith(prefix) && !item.includes("/", prefix.length),
  );
  if (gone.length === 0) return undefined;
  const idOf = (item: string) => decodeURIComponent(item.slice(prefix.length));
  const byId = new Map(
    body.data.flatMap((entry) => (isObject(entry) ? [[String(entry.id), entry] as const] : [])),
  );
  const kept = gone.find((item) => byId.has(idOf(item)));
  if (kept === undefined) return passed;
  const entry = byId.get(idOf(kept));
  if (entry?.status === "deleting")
    return skipped(`the item listed after ${state.items.get(kept)} is still deleting`);
  return failed(`a list after ${state.items.get(kept)} still holds the item`, {
    expected: `no item ${idOf(kept)}`,
    actual: entry,
  });
}
