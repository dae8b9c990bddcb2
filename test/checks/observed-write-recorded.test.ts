import { describe, expect, it } from "vitest";
import { observedWriteRecorded } from "../../src/checks/observed-write-recorded.ts";
import type { AnsweredExchange, RecordingGaps } from "../../src/checks/types.ts";
import type { ApiSpec } from "../../src/spec/types.ts";
import { anotherApi, seen, spec } from "../helpers/observed.ts";

/** The write's second: its event is stamped `00:00:10`, events before it `00:00:05`. */
const t0 = Date.UTC(2026, 0, 1, 0, 0, 10);
const stamp = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, "0")}`;

const at = (exchange: AnsweredExchange, ms: number): AnsweredExchange => ({
  ...exchange,
  timings: { ...exchange.timings, startedAt: ms },
});

const createProfile = (ms = t0, status = 200) =>
  at(
    seen({
      operationId: "createNodeBalancerConfig",
      method: "POST",
      path: "/nodebalancers/1/configs",
      requestBody: { port: 80 },
      status,
      json: status === 200 ? { id: 7, port: 80 } : { errors: [{ reason: "port is taken", field: "port" }] },
    }),
    ms,
  );
const boot = () =>
  at(
    seen({ operationId: "bootComputeInstance", method: "POST", path: "/compute/instances/3/boot", json: {} }),
    t0,
  );
const allocate = () =>
  at(
    seen({
      operationId: "allocateIP",
      method: "POST",
      path: "/networking/ips",
      requestBody: { type: "ipv4", public: false, compute_id: 3 },
      json: { address: "192.168.1.9", type: "ipv4" },
    }),
    t0,
  );

interface FeedEvent {
  readonly action: string;
  readonly id: number | string;
  readonly second?: number;
}
const event = ({ action, id, second = 10 }: FeedEvent) => ({
  id: 100 + second,
  action,
  created: stamp(second),
  status: "finished",
  entity: { id, type: action.replace(/_[a-z]+$/, ""), label: "x", url: "/v4/x" },
});
const profileEvent: FeedEvent = { action: "nodebalancer_config_create", id: 7 };
const older: FeedEvent = { action: "nodebalancer_create", id: 1, second: 5 };

/** A read of the feed `ms` after the write, listing `events`, filtered by `filter`, on `page` of `pages`. */
const feed = (
  events: readonly FeedEvent[],
  options: {
    ms?: number;
    filter?: object;
    page?: number;
    pages?: number;
    headers?: Record<string, string>;
  } = {},
) =>
  at(
    seen({
      operationId: "getEvents",
      path: `/account/events${options.page ? `?page=${options.page}` : ""}`,
      requestHeaders: options.filter ? { "x-filter": JSON.stringify(options.filter) } : {},
      json: {
        data: events.map(event),
        page: options.page ?? 1,
        pages: options.pages ?? 1,
        results: events.length,
      },
    }),
    t0 + (options.ms ?? 1000),
  );

interface Judged {
  readonly sequence: readonly AnsweredExchange[];
  readonly callers?: readonly (string | undefined)[];
  readonly recording?: RecordingGaps;
  readonly spec?: ApiSpec;
}

/** The outcomes on each exchange, then the end hook's. */
function judge({ sequence, callers = [], recording, spec: against = spec }: Judged) {
  const state = observedWriteRecorded.state!();
  const onExchanges = sequence.map((exchange, index) => {
    const sentAt = exchange.timings.startedAt;
    const caller = callers[index];
    return observedWriteRecorded.check(
      {
        spec: against,
        operation: against.operations.byId(exchange.operationId!),
        sentAt,
        receivedAt: sentAt + 1,
        ...(caller ? { caller } : {}),
        ...(recording ? { recording } : {}),
      },
      exchange,
      state,
    );
  });
  return { onExchanges, atEnd: observedWriteRecorded.end!(state).map((finding) => finding.outcome) };
}

const filtered = { action: "nodebalancer_config_create" };
const newestFirst = { "+order_by": "created", "+order": "desc" };

describe("observed-write-recorded: judged at the end by the last feed read covering the write", () => {
  it.each([
    {
      name: "the feed read after a profile's creation lists its event: passed",
      sequence: [createProfile(), feed([profileEvent, older])],
      atEnd: [{ status: "passed" }],
    },
    {
      name: "the feed read after it lists no such event: failed, naming the write and the action",
      sequence: [createProfile(), feed([older])],
      atEnd: [
        {
          status: "failed",
          message: expect.stringMatching(
            /POST \/v4\/nodebalancers\/1\/configs recorded no nodebalancer_config_create/,
          ),
          expected: "nodebalancer_config_create of nodebalancer_config 7",
        },
      ],
    },
    {
      name: "a poll that sees the event only on its third read: passed",
      sequence: [
        createProfile(),
        feed([], { filter: filtered, ms: 100 }),
        feed([], { filter: filtered, ms: 200 }),
        feed([profileEvent], { filter: filtered, ms: 300 }),
      ],
      atEnd: [{ status: "passed" }],
    },
    {
      name: "the last covering read decides: listed, then gone from a later read: failed",
      sequence: [createProfile(), feed([profileEvent, older], { ms: 100 }), feed([older], { ms: 200 })],
      atEnd: [{ status: "failed" }],
    },
    {
      name: "an event with the action but another entity id is not the write's: failed",
      sequence: [createProfile(), feed([{ ...profileEvent, id: 8 }])],
      atEnd: [{ status: "failed" }],
    },
    {
      name: "a filter on the event's action, entity id and type, ordered, cannot exclude it: judged",
      sequence: [
        createProfile(),
        feed([], {
          filter: { ...filtered, "entity.id": 7, "entity.type": "nodebalancer_config", ...newestFirst },
        }),
      ],
      atEnd: [{ status: "failed" }],
    },
    {
      name: "a read sent before the write's answer says nothing of it",
      sequence: [feed([], { ms: -1000 }), createProfile()],
      atEnd: [],
    },
    {
      name: "a filter on another action cannot list it: not judged",
      sequence: [createProfile(), feed([], { filter: { action: "compute_boot" } })],
      atEnd: [],
    },
    {
      name: "a filter on another entity: not judged",
      sequence: [createProfile(), feed([], { filter: { "entity.id": 3 } })],
      atEnd: [],
    },
    {
      name: "a filter the check cannot read (a range on created) may exclude it: not judged",
      sequence: [createProfile(), feed([], { filter: { created: { "+gt": stamp(20) } } })],
      atEnd: [],
    },
    {
      name: "a failed write records nothing to look for",
      sequence: [createProfile(t0, 400), feed([older])],
      atEnd: [],
    },
    {
      name: "page 1 of many, newest first, reaching back before the write, lacking the event: failed",
      sequence: [createProfile(), feed([older], { pages: 3 })],
      atEnd: [{ status: "failed" }],
    },
    {
      name: "page 1 of many whose oldest event is of the write's second may not reach it: not judged",
      sequence: [createProfile(), feed([{ ...older, second: 10 }], { pages: 3 })],
      atEnd: [],
    },
    {
      name: "page 2 of a newest-first feed holds older events: not judged",
      sequence: [createProfile(), feed([older], { page: 2, pages: 3 })],
      atEnd: [],
    },
    {
      name: "the last page of an oldest-first feed reaching back before the write: judged",
      sequence: [
        createProfile(),
        feed([older], { page: 3, pages: 3, filter: { "+order_by": "created", "+order": "asc" } }),
      ],
      atEnd: [{ status: "failed" }],
    },
    {
      name: "a boot's event names the instance of its path",
      sequence: [boot(), feed([{ action: "compute_boot", id: 3 }])],
      atEnd: [{ status: "passed" }],
    },
    {
      name: "an allocated address's event names the address",
      sequence: [allocate(), feed([{ action: "ipaddress_allocate", id: "192.168.1.9" }])],
      atEnd: [{ status: "passed" }],
    },
  ])("$name", ({ sequence, atEnd }) => {
    expect(judge({ sequence }).atEnd).toEqual(atEnd.map((outcome) => expect.objectContaining(outcome)));
  });

  it("a read by another caller (another account, perhaps) does not judge the write; the same caller's does", () => {
    const sequence = [createProfile(), feed([older])];
    expect(judge({ sequence, callers: ["alice", "bob"] }).atEnd).toEqual([]);
    expect(judge({ sequence, callers: ["alice", "alice"] }).atEnd).toMatchObject([{ status: "failed" }]);
  });

  it("a recording without Date has made-up times: only a page holding the whole feed covers the write", () => {
    const recording = { headersKept: new Set(["content-type"]) };
    expect(judge({ sequence: [createProfile(), feed([older], { pages: 3 })], recording }).atEnd).toEqual([]);
    expect(judge({ sequence: [createProfile(), feed([older])], recording }).atEnd).toMatchObject([
      { status: "failed" },
    ]);
  });

  it("measures the write's time on the target's clock when its answer is dated", () => {
    // The target's clock is a minute behind: the write's event is stamped 00:00:10 less a minute.
    const dated = (exchange: AnsweredExchange) => ({
      ...exchange,
      response: {
        ...exchange.response,
        headers: { ...exchange.response.headers, date: new Date(t0 - 60_000).toUTCString() },
      },
    });
    const sequence = [dated(createProfile()), feed([older], { pages: 3 })];
    expect(judge({ sequence }).atEnd).toEqual([]);
  });

  it("skips a write on another API's description, and on one with no events list", () => {
    expect(judge({ sequence: [createProfile()], spec: anotherApi() }).onExchanges).toMatchObject([
      { status: "skipped", reason: expect.stringMatching(/another API's/) },
    ]);
    const operations = new Proxy(spec.operations, {
      get: (target, name) =>
        name === "byId"
          ? (id: string) => (id === "getEvents" ? undefined : target.byId(id))
          : Reflect.get(target, name, target),
    });
    expect(judge({ sequence: [createProfile()], spec: { ...spec, operations } }).onExchanges).toMatchObject([
      { status: "skipped", reason: expect.stringMatching(/no events list \(getEvents\)/) },
    ]);
  });
});
