import { describe, expect, it } from "vitest";
import type { Exchange } from "../../src/core/exchange.ts";
import { ObservedJudge } from "../../src/traffic/observed-judge.ts";
import { bundledSpec } from "../helpers/reference.ts";

const spec = await bundledSpec();
let nextId = 1;

interface Seen {
  readonly operationId: string;
  readonly method?: string;
  readonly path: string;
  readonly requestHeaders?: Record<string, string>;
  readonly requestBody?: unknown;
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly json?: unknown;
}

function seen(init: Seen): Exchange {
  const text = init.json === undefined ? "" : JSON.stringify(init.json);
  return {
    id: nextId++,
    request: {
      method: init.method ?? "GET",
      url: `http://127.0.0.1:1/v4${init.path}`,
      headers: init.requestHeaders ?? {},
      body: init.requestBody === undefined ? undefined : JSON.stringify(init.requestBody),
    },
    response: {
      status: init.status ?? 200,
      headers: { "content-type": "application/json", ...init.headers },
      json: init.json,
      text,
      truncated: false,
      bytes: text.length,
    },
    error: undefined,
    timings: { startedAt: Date.now(), headersMs: 1, totalMs: 1 },
    operationId: init.operationId,
    retries: 0,
  };
}

const types = (data: object[], extra: object = {}) => ({
  data,
  page: 1,
  pages: 1,
  results: data.length,
  ...extra,
});
const list = (path: string, json: unknown, requestHeaders: Record<string, string> = {}, status = 200) =>
  seen({ operationId: "getComputeTypes", path, json, requestHeaders, status });

const event = (id: number, entityId: number | string) => ({
  id,
  action: "compute_boot",
  created: "2025-01-02T03:06:00",
  username: "conform-user",
  seen: false,
  entity: { id: entityId, label: "web", type: "compute", url: `/v4/compute/instances/${entityId}` },
});
const feed = (data: object[], filter: object) =>
  seen({
    operationId: "getEvents",
    path: "/account/events",
    json: types(data),
    requestHeaders: { "x-filter": JSON.stringify(filter) },
  });

/** Outcome statuses per judgement for a sequence, the last exchange's. */
function verdicts(sequence: Exchange[], caller?: string): Record<string, string> {
  const judge = new ObservedJudge(spec);
  let last: Record<string, string> = {};
  for (const one of sequence) {
    last = Object.fromEntries(
      judge.judge(one, caller).map((result) => [result.checkId, result.outcome.status]),
    );
  }
  return last;
}

const page1 = Array.from({ length: 25 }, (_, index) => ({ id: `g6-${index}`, memory: index }));
const small = { id: "g6-a", memory: 1024 };
const big = { id: "g6-b", memory: 4096 };
const gt = { "x-filter": JSON.stringify({ memory: { "+gt": 1024 }, "+order_by": "memory" }) };
const limitHeaders = (remaining: number, reset = "2000000000") => ({
  "x-ratelimit-limit": "10",
  "x-ratelimit-remaining": String(remaining),
  "x-ratelimit-reset": reset,
});

describe("observed judgements", () => {
  it.each([
    ["a sound filtered answer", [list("/compute/types", types([big]), gt)], { "observed-filter": "passed" }],
    [
      "an item the filter excludes",
      [list("/compute/types", types([small, big]), gt)],
      { "observed-filter": "failed" },
    ],
    [
      "a sound answer to a nested field's dotted key (entity.id)",
      [feed([event(1, 12), event(2, 12)], { "entity.id": 12, "+order_by": "entity.type" })],
      { "observed-filter": "passed" },
    ],
    [
      "an event of another entity in the answer to entity.id",
      [feed([event(1, 12), event(2, 7)], { "entity.id": 12 })],
      { "observed-filter": "failed" },
    ],
    [
      "an event without an entity in the answer to entity.id",
      [feed([event(1, 12), { ...event(2, 12), entity: null }], { "entity.id": 12 })],
      { "observed-filter": "failed" },
    ],
    [
      "a dotted key the description does not mark, answered 200",
      [feed([event(1, 12)], { "entity.label": "web" })],
      { "observed-filter": "failed" },
    ],
    [
      "items out of +order_by order",
      [list("/compute/types", types([{ id: "c", memory: 8192 }, big]), gt)],
      { "observed-filter": "failed" },
    ],
    [
      "an unfilterable field answered 200",
      [list("/compute/types", types([]), { "x-filter": '{"nope":1}' })],
      { "observed-filter": "failed" },
    ],
    [
      "an unfilterable field refused naming X-Filter",
      [
        list(
          "/compute/types",
          { errors: [{ reason: "Cannot filter on nope", field: "X-Filter" }] },
          { "x-filter": '{"nope":1}' },
          400,
        ),
      ],
      { "observed-filter": "passed", "observed-error-field": "passed" },
    ],
    [
      "an unfilterable field refused naming no field",
      [
        list(
          "/compute/types",
          { errors: [{ reason: "Cannot filter on nope" }] },
          { "x-filter": '{"nope":1}' },
          400,
        ),
      ],
      { "observed-filter": "passed", "observed-error-field": "failed" },
    ],
    [
      "pages off by one",
      [list("/compute/types", types([small], { pages: 2 }))],
      { "observed-pages": "failed" },
    ],
    [
      "page_size out of bounds answered",
      [list("/compute/types?page_size=5", types([small]))],
      { "observed-pages": "failed" },
    ],
    [
      "an item on two pages of one walk",
      [
        list("/compute/types?page_size=25", types(page1, { results: 26, pages: 2 })),
        list("/compute/types?page=2&page_size=25", types([page1[3]!], { page: 2, results: 26, pages: 2 })),
      ],
      { "observed-pages": "failed" },
    ],
    [
      "the last item of a page again at the start of the next while results grew by one: the list changed, skipped",
      [
        list("/compute/types?page_size=25", types(page1, { results: 26, pages: 2 })),
        list(
          "/compute/types?page=2&page_size=25",
          types([page1[24]!, big], { page: 2, results: 27, pages: 2 }),
        ),
      ],
      { "observed-pages": "skipped" },
    ],
    [
      "an item again further on than results grew",
      [
        list("/compute/types?page_size=25", types(page1, { results: 26, pages: 2 })),
        list(
          "/compute/types?page=2&page_size=25",
          types([page1[3]!, big], { page: 2, results: 27, pages: 2 }),
        ),
      ],
      { "observed-pages": "failed" },
    ],
    [
      "two pages of one walk",
      [
        list("/compute/types?page_size=25", types(page1, { results: 26, pages: 2 })),
        list("/compute/types?page=2&page_size=25", types([big], { page: 2, results: 26, pages: 2 })),
      ],
      { "observed-pages": "passed" },
    ],
    [
      "Remaining goes down",
      [
        seen({ operationId: "getProfile", path: "/profile", json: {}, headers: limitHeaders(9) }),
        seen({ operationId: "getProfile", path: "/profile", json: {}, headers: limitHeaders(8) }),
      ],
      { "observed-rate-limit": "passed" },
    ],
    [
      "Remaining frozen",
      [
        seen({ operationId: "getProfile", path: "/profile", json: {}, headers: limitHeaders(10) }),
        seen({ operationId: "getProfile", path: "/profile", json: {}, headers: limitHeaders(10) }),
      ],
      { "observed-rate-limit": "failed" },
    ],
    [
      "a new window starts full",
      [
        seen({ operationId: "getProfile", path: "/profile", json: {}, headers: limitHeaders(0) }),
        seen({
          operationId: "getProfile",
          path: "/profile",
          json: {},
          headers: limitHeaders(9, "2000000060"),
        }),
      ],
      { "observed-rate-limit": "passed" },
      "token-a",
    ],
    [
      "scopes change for one token",
      [
        seen({ operationId: "getProfile", path: "/profile", json: {}, headers: { "x-oauth-scopes": "*" } }),
        seen({
          operationId: "getProfile",
          path: "/profile",
          json: {},
          headers: { "x-oauth-scopes": "linodes:read_only" },
        }),
      ],
      { "observed-scopes": "failed" },
      "token-a",
    ],
    [
      "X-Accepted-OAuth-Scopes without the scope needed",
      [
        seen({
          // getProfile takes any token (`*`); updateProfile needs account:read_write.
          operationId: "updateProfile",
          method: "PUT",
          path: "/profile",
          json: {},
          headers: { "x-accepted-oauth-scopes": "nope" },
        }),
      ],
      { "observed-scopes": "failed" },
    ],
    [
      "Remaining that does not go down for one known token",
      [
        seen({ operationId: "getProfile", path: "/profile", json: {}, headers: limitHeaders(9) }),
        seen({ operationId: "getProfile", path: "/profile", json: {}, headers: limitHeaders(9) }),
      ],
      { "observed-rate-limit": "failed" },
      "token-a",
    ],
    [
      "the deprecated path answers 299 with warnings",
      [
        seen({
          operationId: "createNodeBalancerNodeDeprecated",
          method: "POST",
          path: "/nodebalancers/1/configs/2/nodes/x",
          status: 299,
          json: { id: 1, warnings: ["deprecated"] },
        }),
      ],
      { "observed-deprecated": "passed" },
    ],
    [
      "the deprecated path answers 200",
      [
        seen({
          operationId: "createNodeBalancerNodeDeprecated",
          method: "POST",
          path: "/nodebalancers/1/configs/2/nodes/x",
          status: 200,
          json: { id: 1 },
        }),
      ],
      { "observed-deprecated": "failed" },
    ],
  ] as [string, Exchange[], Record<string, string>, string?][])("%s", (_name, sequence, expected, caller) => {
    expect(verdicts(sequence, caller)).toMatchObject(expected);
  });

  it("says why an item pushed on by a growing list is not judged as a repeat", () => {
    const judge = new ObservedJudge(spec);
    judge.judge(list("/compute/types?page_size=25", types(page1, { results: 26, pages: 2 })));
    const second = list(
      "/compute/types?page=2&page_size=25",
      types([page1[24]!, big], { page: 2, results: 27, pages: 2 }),
    );
    expect(judge.judge(second).find((result) => result.checkId === "observed-pages")?.outcome).toEqual({
      status: "skipped",
      reason:
        'item(s) "g6-24" showed again on page 2 of one walk while the list grew (results 27): the list changed under the walk, not judged as a repeat',
    });
  });

  it("names no judgement for an exchange no operation matched", () => {
    const judge = new ObservedJudge(spec);
    expect(judge.judge({ ...list("/nowhere", {}), operationId: undefined })).toEqual([]);
  });
});
