/**
 * How a read of the account's event feed (`getEvents`) shows a write's event: whether its filter may exclude the
 * event, whether the page covers the write's time (the event, if recorded, must be on it), and whether it lists it.
 * The feed is newest first unless the filter orders it (the description's `getEvents`); times are the API's,
 * seconds precision, UTC. Not a check: `src/checks/_internals/` holds no registered ids.
 * @module
 * @internal
 */
import { utcInstant } from "../../spec/times.ts";
import type { AnsweredExchange } from "../types.ts";
import { isObject } from "./observed.ts";

/** The event a write must record: its action and entity (the entity's id as text, as ids are compared). */
export interface ExpectedEvent {
  readonly action: string;
  readonly entityType: string;
  readonly entityId: string;
  /**
   * The earliest instant (epoch ms) the event can be stamped with; undefined when the traffic's times are not
   * the target's (a recording that kept no `Date`): then only a page holding the whole feed covers the write.
   */
  readonly since: number | undefined;
}

/** A feed read's filter, parsed; undefined when it sent none, null when it is no JSON object. */
export type FeedFilter = Record<string, unknown> | null | undefined;

export function parseFilter(text: string | undefined): FeedFilter {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const sameId = (value: unknown, id: string) =>
  (typeof value === "number" || typeof value === "string") && String(value) === id;

/**
 * Can the filter not exclude the event? Only an order and the event's own action, entity id and type are
 * certain to keep it; any other key or operator might drop it, so such a read says nothing of the write.
 */
export function filterKeeps(filter: FeedFilter, event: ExpectedEvent): boolean {
  if (filter === undefined) return true;
  if (filter === null) return false;
  return Object.entries(filter).every(([key, value]) => {
    if (key === "+order_by" || key === "+order") return true;
    if (key === "action") return value === event.action;
    if (key === "entity.type") return value === event.entityType;
    if (key === "entity.id") return sameId(value, event.entityId);
    return false;
  });
}

const eventsOf = (json: unknown): Record<string, unknown>[] =>
  isObject(json) && Array.isArray(json.data) ? json.data.filter(isObject) : [];

const numberOf = (value: unknown, otherwise: number) =>
  typeof value === "number" && Number.isInteger(value) ? value : otherwise;

/** Seconds precision: an event stamped in the second the write began may sort either side of it. */
const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * Must the page list the event if the target recorded it? When it holds the whole feed, or when it is the end
 * of the feed where the newest events are (page 1 newest first, the last page oldest first) and its oldest event
 * is stamped before the second the write began.
 */
export function pageCovers(
  exchange: AnsweredExchange,
  filter: FeedFilter,
  since: number | undefined,
): boolean {
  const { json } = exchange.response;
  if (!isObject(json)) return false;
  const page = numberOf(json.page, 1);
  const pages = numberOf(json.pages, 1);
  if (page === 1 && pages <= 1) return true;
  const events = eventsOf(json);
  if (since === undefined || events.length === 0) return false;
  const orderedBy = isObject(filter) ? filter["+order_by"] : undefined;
  const descending = isObject(filter) && filter["+order"] === "desc";
  const byTime = orderedBy === "created" || orderedBy === "id";
  const newestEnd = orderedBy === undefined || (byTime && descending) ? page === 1 : byTime && page === pages;
  if (!newestEnd) return false;
  const stamps = events.map((event) =>
    typeof event.created === "string" ? utcInstant(event.created) : undefined,
  );
  if (stamps.some((stamp) => stamp === undefined)) return false;
  return Math.min(...(stamps as number[])) < wholeSecond(since);
}

/** Does the page list an event with the write's action and entity id? */
export function listsEvent(exchange: AnsweredExchange, event: ExpectedEvent): boolean {
  return eventsOf(exchange.response.json).some(
    (listed) =>
      listed.action === event.action && isObject(listed.entity) && sameId(listed.entity.id, event.entityId),
  );
}
