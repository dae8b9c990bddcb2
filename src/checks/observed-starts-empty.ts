/**
 * `observed-starts-empty`: an item the traffic creates has nothing under it until something is created there. A
 * list of a collection under the new item (one the description lets clients create in: it has a create operation),
 * read before any write at or under the item, is empty (cloud-api-v4.md endpoint 1: "the newly created load balancer
 * has no configuration profiles"). The create's body may give the children itself (a `configs` array sent with the
 * load balancer, as the real service takes): a collection named in that body is not judged, nor is a filtered list.
 * Per-run state: the items created and not written since (bounded).
 * @module
 */
import { failed, passed } from "../core/result.ts";
import { isAtOrUnder, isSuccess, isWrite, itemTouchOf, requestObject } from "./_internals/items.ts";
import { filterTextOf, isObject, remember } from "./_internals/observed.ts";
import { requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

interface Created {
  /** The create's request line (for messages). */
  readonly by: string;
  /** The fields the create's body sent: a child collection named there may have been filled by it. */
  readonly sent: ReadonlySet<string>;
}

/** The check's per-run state (exported: the registry's declared type names it). */
export interface NewItems {
  /** Item path → how it was created; dropped at the first write at or under it. */
  readonly items: Map<string, Created>;
}

export const observedStartsEmpty: CheckDefinition<NewItems> = {
  id: "observed-starts-empty",
  title: "A new item has nothing under it until the traffic creates something there",
  state: () => ({ items: new Map() }),
  check(context, exchange, state) {
    const touch = itemTouchOf(context, exchange);
    if (!touch || touch.resource.singleton) return undefined;
    if (isWrite(exchange)) {
      const at = touch.item ?? touch.collection;
      for (const item of state.items.keys()) if (isAtOrUnder(at, item)) state.items.delete(item);
      if (touch.role === "create" && touch.item !== undefined && isSuccess(exchange))
        remember(state.items, touch.item, {
          by: requestLine(exchange),
          sent: new Set(Object.keys(requestObject(exchange) ?? {})),
        });
      return undefined;
    }
    if (touch.role !== "list" || !touch.resource.parent || !touch.resource.create) return undefined;
    const cut = touch.collection.lastIndexOf("/");
    const created = state.items.get(touch.collection.slice(0, cut));
    const children = touch.collection.slice(cut + 1);
    if (!created || created.sent.has(children) || filterTextOf(context, exchange) !== undefined)
      return undefined;
    const { status, json } = exchange.response;
    if (status !== 200 || !isObject(json) || !Array.isArray(json.data)) return undefined;
    if (json.data.length === 0) return passed;
    return failed(
      `${requestLine(exchange)} lists ${json.data.length} item(s) under the item ${created.by} made, where the traffic created none`,
      { expected: 0, actual: json.data.length },
    );
  },
};
