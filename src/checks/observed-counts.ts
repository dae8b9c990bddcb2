/**
 * `observed-counts`: an item's `nodes_status` (a load balancer profile's) agrees with the nodes listed under it,
 * when a read of the item and a whole list of its children (one page, no filter) are seen with no write between:
 * `up + down` is the number listed, and `up` the number listed with status `UP` (`Unknown`, not yet probed, counts
 * as down). Node health may change between two requests with no write, so a disagreeing `up` alone is skipped with
 * the reason; it fails when the two reads of one kind around the other agree with each other and not with it.
 * `results`/`pages` across the pages of one list are `observed-pages`' (a list may grow between pages).
 * Per-run state: the last two sightings of each item (bounded) and the count of writes seen.
 * @module
 */
import { type CheckOutcome, failed, passed, skipped } from "../core/result.ts";
import { isWrite, itemTouchOf } from "./_internals/items.ts";
import { filterTextOf, isObject, remember } from "./_internals/observed.ts";
import type { CheckDefinition } from "./types.ts";

interface Sighting {
  readonly kind: "item" | "list";
  readonly up: number;
  readonly total: number;
  readonly writes: number;
}

/** The check's per-run state (exported: the registry's declared type names it). */
export interface Counts {
  /** Item path → its last sighting and the one before. */
  readonly seen: Map<string, { last: Sighting; before?: Sighting }>;
  writes: number;
}

export const observedCounts: CheckDefinition<Counts> = {
  id: "observed-counts",
  title: "A profile's nodes_status agrees with the nodes listed under it",
  state: () => ({ seen: new Map(), writes: 0 }),
  check(context, exchange, state) {
    const touch = itemTouchOf(context, exchange);
    if (!touch) return undefined;
    if (isWrite(exchange)) {
      state.writes += 1;
      return undefined;
    }
    const { response } = exchange;
    if (response.status !== 200 || !isObject(response.json)) return undefined;
    if (touch.role === "read" && touch.item !== undefined) {
      const counts = response.json.nodes_status;
      if (!isObject(counts) || typeof counts.up !== "number" || typeof counts.down !== "number")
        return undefined;
      return sighted(state, touch.item, {
        kind: "item",
        up: counts.up,
        total: counts.up + counts.down,
        writes: state.writes,
      });
    }
    if (touch.role !== "list" || !touch.resource.parent || filterTextOf(context, exchange) !== undefined)
      return undefined;
    const { data, pages } = response.json;
    if (
      !Array.isArray(data) ||
      pages !== 1 ||
      !data.every((node) => isObject(node) && typeof node.status === "string")
    )
      return undefined;
    const parent = touch.collection.slice(0, touch.collection.lastIndexOf("/"));
    const up = data.filter((node) => String(node.status).toUpperCase() === "UP").length;
    return sighted(state, parent, { kind: "list", up, total: data.length, writes: state.writes });
  },
};

/** A new sighting of an item's counts: judged against the last one of the other kind, with no write between. */
function sighted(state: Counts, item: string, now: Sighting): CheckOutcome | undefined {
  const known = state.seen.get(item);
  remember(state.seen, item, { last: now, ...(known ? { before: known.last } : {}) });
  const last = known?.last;
  if (!last || last.writes !== now.writes || last.kind === now.kind) return undefined;
  const [profile, listed] = now.kind === "item" ? [now, last] : [last, now];
  const detail = {
    expected: { listed: listed.total, up: listed.up },
    actual: { up: profile.up, down: profile.total - profile.up },
  };
  if (profile.total !== listed.total)
    return failed(
      `nodes_status counts ${profile.total} nodes, the list under it holds ${listed.total}`,
      detail,
    );
  if (profile.up === listed.up) return passed;
  const before = known?.before;
  if (before && before.writes === now.writes && before.kind === now.kind && before.up === now.up)
    return failed(`nodes_status says ${profile.up} up, the nodes listed with it say ${listed.up}`, detail);
  return skipped(
    `nodes_status says ${profile.up} up and the nodes listed ${listed.up}: a health check may have run between the two reads; judged when one is seen again`,
  );
}
