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

/** What one page of the feed shows, read once for every write it may judge. */
export interface FeedPage {
  /** The page holds the whole feed (page 1 of 1). */
  readonly whole: boolean;
  /**
   * When the page is the end of the feed where the newest events are (page 1 newest first, the last page oldest
   * first): the stamp of its oldest event; undefined otherwise, or when an event's stamp cannot be read.
   */
  readonly newestEndReachesBackTo: number | undefined;
  /** `action entity-id` of each event listed. */
  readonly listed: ReadonlySet<string>;
}

const eventKey = (action: unknown, entityId: unknown) => `${String(action)} ${String(entityId)}`;

export function feedPageOf(exchange: AnsweredExchange, filter: FeedFilter): FeedPage | undefined {
  const { json } = exchange.response;
  if (!isObject(json)) return undefined;
  const page = numberOf(json.page, 1);
  const pages = numberOf(json.pages, 1);
  const events = eventsOf(json);
  const listed = new Set(
    events.flatMap((event) => {
      const id = isObject(event.entity) ? event.entity.id : undefined;
      return typeof id === "number" || typeof id === "string" ? [eventKey(event.action, id)] : [];
    }),
  );
  const orderedBy = isObject(filter) ? filter["+order_by"] : undefined;
  const descending = isObject(filter) && filter["+order"] === "desc";
  const byTime = orderedBy === "created" || orderedBy === "id";
  const newestEnd = orderedBy === undefined || (byTime && descending) ? page === 1 : byTime && page === pages;
  const stamps = events.map((event) =>
    typeof event.created === "string" ? utcInstant(event.created) : undefined,
  );
  const readable = events.length > 0 && stamps.every((stamp) => stamp !== undefined);
  return {
    whole: page === 1 && pages <= 1,
    newestEndReachesBackTo: newestEnd && readable ? Math.min(...(stamps as number[])) : undefined,
    listed,
  };
}

/**
 * Must the page list the event if the target recorded it? When it holds the whole feed, or when it is the newest
 * end of the feed and its oldest event is stamped before the second the write began.
 */
export function pageCovers(page: FeedPage, event: ExpectedEvent): boolean {
  if (page.whole) return true;
  const oldest = page.newestEndReachesBackTo;
  return oldest !== undefined && event.since !== undefined && oldest < wholeSecond(event.since);
}

/** Does the page list an event with the write's action and entity id? */
export const listsEvent = (page: FeedPage, event: ExpectedEvent) =>
  page.listed.has(eventKey(event.action, event.entityId));
