/**
 * `observed-write-recorded`: a successful write that records an event (the API's table `eventActions`) is listed
 * in the account's event feed, with its action and entity id, by the feed reads that follow it. A read judges the
 * write only when it covers it: sent after the write's answer, by the same caller when both are known, with a
 * filter that cannot exclude the event, on a page that must hold it (`_internals/event-feed.ts`). Clients poll the
 * feed until the event appears and a service may record it a moment later, so each write is judged at the end of
 * the traffic by the LAST read covering it, never the first. A write no read covers is not judged. Skipped on
 * another API's description and on one with no events list. Per-run state: the writes (bounded).
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { eventActions } from "../spec/event-actions.ts";
import {
  type ExpectedEvent,
  type FeedFilter,
  feedPageOf,
  filterKeeps,
  listsEvent,
  pageCovers,
  parseFilter,
} from "./_internals/event-feed.ts";
import { isSuccess, isWrite, itemTouchOf } from "./_internals/items.ts";
import { filterTextOf, isObject, observedOperation, remember } from "./_internals/observed.ts";
import { requestLine } from "./_internals/spec-lookup.ts";
import { type AnsweredExchange, type CheckContext, type CheckDefinition, notRecorded } from "./types.ts";

/** The operation that lists the account's events. */
export const feedOperationId = "getEvents";

interface WriteSeen {
  readonly event: ExpectedEvent;
  readonly by: string;
  /** When its answer came: a read sent from then on is later. */
  readonly answeredAt: number;
  readonly caller: string | undefined;
  /** The last feed read covering the write, and whether it listed the event. */
  last?: { readonly exchange: AnsweredExchange; readonly listed: boolean };
}

/** The check's per-run state (exported: the registry's declared type names it). */
export interface WritesSeen {
  readonly writes: Map<number, WriteSeen>;
}

export const observedWriteRecorded: CheckDefinition<WritesSeen> = {
  id: "observed-write-recorded",
  title: "A write is listed in the event feed read after it, with its action and entity id",
  state: () => ({ writes: new Map() }),
  check(context, exchange, state) {
    const operation = observedOperation(context, exchange);
    if (!operation || !isSuccess(exchange)) return undefined;
    if (operation.operationId === feedOperationId && !isWrite(exchange)) {
      judgeRead(context, exchange, state);
      return undefined;
    }
    const kind = eventActions[operation.operationId];
    if (!kind || !isWrite(exchange)) return undefined;
    const { otherApi } = conventionsOf(context.spec);
    if (otherApi)
      return skipped(
        `the description is another API's (${otherApi}): which write records which event is not its`,
      );
    if (!context.spec.operations.byId(feedOperationId))
      return skipped(`the description has no events list (${feedOperationId}): no feed to find the write in`);
    const entityId = entityIdOf(context, exchange);
    if (entityId === undefined) return undefined;
    remember(state.writes, exchange.id, {
      event: { ...kind, entityId, since: earliestStamp(context, exchange) },
      by: requestLine(exchange),
      answeredAt: context.receivedAt,
      caller: context.caller,
    });
    return undefined;
  },
  end: (state) =>
    [...state.writes.values()].flatMap(({ last, event, by }) => {
      if (!last) return [];
      if (last.listed) return [{ outcome: passed, exchange: last.exchange }];
      const outcome = failed(
        `${by} recorded no ${event.action} event: the last read of the feed that must list it does not (${requestLine(last.exchange)})`,
        { expected: `${event.action} of ${event.entityType} ${event.entityId}`, actual: "not listed" },
      );
      return [{ outcome, exchange: last.exchange }];
    }),
};

/** A feed read: the last word so far on every earlier write it covers. */
function judgeRead(context: CheckContext, exchange: AnsweredExchange, state: WritesSeen): void {
  const filter: FeedFilter = parseFilter(filterTextOf(context, exchange));
  const page = feedPageOf(exchange, filter);
  if (!page) return;
  for (const write of state.writes.values()) {
    if (context.sentAt < write.answeredAt) continue;
    if (write.caller !== undefined && context.caller !== undefined && write.caller !== context.caller)
      continue;
    if (!filterKeeps(filter, write.event) || !pageCovers(page, write.event)) continue;
    write.last = { exchange, listed: listsEvent(page, write.event) };
  }
}

/** The entity a write's event names: what a POST made (its answer's id), else the item of its path. */
function entityIdOf(context: CheckContext, exchange: AnsweredExchange): string | undefined {
  const answer = exchange.response.json;
  const made = exchange.request.method.toUpperCase() === "POST" && isObject(answer) ? answer.id : undefined;
  if (typeof made === "number" || typeof made === "string") return String(made);
  const item = itemTouchOf(context, exchange)?.item;
  const last = item?.split("/").pop();
  return last ? decodeURIComponent(last) : undefined;
}

/**
 * The earliest time the target can stamp the write's event with, on its own clock: its answer's `Date` less the
 * exchange's duration (the request reached it no earlier), else when the request was sent; unknown when the
 * recording kept no `Date` and its times are made up.
 */
function earliestStamp(context: CheckContext, exchange: AnsweredExchange): number | undefined {
  const dated = Date.parse(exchange.response.headers.date ?? "");
  if (!Number.isNaN(dated)) return dated - (context.receivedAt - context.sentAt);
  return notRecorded(context, "date") ? undefined : context.sentAt;
}
