/**
 * How the events suite reads the feed: an event's fields, the writes it made and what their events must show,
 * the feed's first page (filtered), the event of a write on an answer, waiting for the events of many writes
 * under one deadline, and judging an event's entity (id, type, label, a url that answers).
 * @module
 */
import {
  type CaseContext,
  call,
  type EventKind,
  eventActions,
  expectStatus,
  type LiveResponse,
  waitForAll,
} from "../../../src/index.ts";

export interface Entity {
  readonly id?: unknown;
  readonly label?: unknown;
  readonly type?: unknown;
  readonly url?: unknown;
}

export interface Event {
  readonly id?: unknown;
  readonly action?: unknown;
  readonly created?: unknown;
  readonly status?: unknown;
  readonly percent_complete?: unknown;
  readonly entity?: Entity | null;
}

/** A write the suite made, and what its event must show. */
export interface Write {
  readonly operationId: string;
  readonly entityId: number | string;
  /** The label the write gave, when the event's entity must carry it. */
  readonly label?: string;
}

export const recorded = "every write appears in the event feed with the action of its kind";

export function kindOf(t: CaseContext, operationId: string): EventKind {
  const kind = eventActions[operationId];
  return kind ?? t.skip(`the events table has no row for ${operationId}`);
}

/** The events of one page answered (an empty list when it is not one). */
export function eventsOf(response: LiveResponse | undefined): Event[] {
  const data = (response?.json as { data?: unknown } | undefined)?.data;
  return Array.isArray(data)
    ? (data.filter((item) => typeof item === "object" && item !== null) as Event[])
    : [];
}

/** Reads the feed's first page, filtered by `filter` when given (newest first: what was just written is on it). */
export function readFeed(t: CaseContext, filter?: object, token?: string): Promise<LiveResponse> {
  return call(t, "getEvents", {
    ...(filter === undefined ? {} : { filter }),
    ...(token === undefined ? {} : { token }),
  });
}

function sameId(a: unknown, b: unknown): boolean {
  return a !== undefined && a !== null && String(a) === String(b);
}

/** The event of `write` on an answer, if listed. */
export function eventOf(t: CaseContext, write: Write, response: LiveResponse | undefined): Event | undefined {
  const { action } = kindOf(t, write.operationId);
  return eventsOf(response).find(
    (event) => event.action === action && sameId(event.entity?.id, write.entityId),
  );
}

export function showFeed(response: LiveResponse | undefined): string {
  if (!response) return "no answer";
  if (response.status !== 200) return `HTTP ${response.status}`;
  const shown = eventsOf(response)
    .slice(0, 5)
    .map((event) => `${String(event.action)} ${String(event.entity?.type)} ${String(event.entity?.id)}`);
  return `${eventsOf(response).length} events (${shown.join(", ") || "none"})`;
}

export const writeKey = (write: Write) => `${write.operationId} of ${write.entityId}`;

/**
 * Waits for the events of all `writes` at once, under one deadline (each read filtered by its action); answers
 * the answer that listed each one, by write, and whether the feed showed none of them.
 */
export async function waitForEvents(t: CaseContext, writes: readonly Write[]) {
  const waited = await waitForAll(
    t,
    recorded,
    writes.map((write) => {
      const { action } = kindOf(t, write.operationId);
      return {
        key: writeKey(write),
        poll: () => readFeed(t, { action }),
        accept: (response: LiveResponse) => eventOf(t, write, response) !== undefined,
        describe: (response: LiveResponse | undefined) => `as ${action}: ${showFeed(response)}`,
      };
    }),
  );
  for (const write of writes) {
    const answer = waited.happened.get(writeKey(write));
    if (!answer) continue;
    const { action } = kindOf(t, write.operationId);
    const others = eventsOf(answer).filter((event) => event.action !== action);
    t.expect("a filter on action lists only events of that action", others.length === 0, {
      expected: action,
      actual: others.map((event) => event.action),
      response: answer,
    });
  }
  return waited;
}

/** Where the target's own `entity.url` leads, relative to the API's base; undefined when it is elsewhere. */
function relativeToBase(t: CaseContext, url: string): string | undefined {
  const base = new URL(t.target.baseUrl);
  const resolved = URL.parse(url, base.href);
  if (!resolved || resolved.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/$/, "");
  if (!resolved.pathname.startsWith(`${prefix}/`)) return undefined;
  return resolved.pathname.slice(prefix.length);
}

/** Judges the entity of `write`'s event: its id, type and label, and a url that answers 200 where it is a read. */
export async function judgeEntity(t: CaseContext, write: Write, event: Event): Promise<void> {
  const { action, entityType } = kindOf(t, write.operationId);
  const entity = event.entity ?? {};
  const named = `${action} of ${write.entityId}`;
  t.expect("an event's entity has the type of its resource", entity.type === entityType, {
    expected: entityType,
    actual: entity.type,
    message: `${named}: entity.type ${JSON.stringify(entity.type)}, expected ${entityType}`,
  });
  if (write.label !== undefined) {
    t.expect("an event's entity has the label of its resource", entity.label === write.label, {
      expected: write.label,
      actual: entity.label,
      message: `${named}: entity.label ${JSON.stringify(entity.label)}, expected ${write.label}`,
    });
  }
  const url = entity.url;
  if (typeof url !== "string") {
    t.expect("an event's entity has a url", false, { expected: "a URL", actual: url, message: named });
    return;
  }
  const path = relativeToBase(t, url);
  const read = path === undefined ? undefined : t.spec.operations.match("GET", path);
  if (path === undefined || !read) {
    t.log(`${named}: entity.url ${url} is no read the description declares: not requested`);
    return;
  }
  const answer = await t.api.get(path);
  expectStatus(t, "an event's entity url answers 200", answer, 200, `${named}: GET ${url}`);
}

export function instanceStatus(response: LiveResponse | undefined): string {
  const status = (response?.json as { status?: unknown } | undefined)?.status;
  return typeof status === "string" ? status : `HTTP ${response?.status ?? "none"}`;
}

export function showEvent(event: Event | undefined): string {
  return event
    ? `${String(event.action)} ${String(event.status)} at ${String(event.percent_complete)} percent`
    : "no event";
}
