import { describe, expect, it } from "vitest";
import type { OperationPlan } from "../../src/core/events.ts";
import type { Exchange, RequestIntent } from "../../src/core/exchange.ts";
import { CoverageTally } from "../../src/runner/coverage-tally.ts";

let nextId = 0;
function exchange(
  operationId: string,
  status: number | undefined,
  request: { intent?: Partial<RequestIntent>; breaks?: string } = {},
): Exchange {
  const intent = request.intent
    ? ({ operationId, mode: "positive", scenario: "s", ...request.intent } as RequestIntent)
    : undefined;
  return {
    id: nextId++,
    request: {
      method: "GET",
      url: "http://127.0.0.1/x",
      headers: {},
      body: undefined,
      ...(intent ? { intent } : {}),
      ...(request.breaks ? { breaks: request.breaks } : {}),
    },
    response:
      status === undefined
        ? undefined
        : { status, headers: {}, json: undefined, text: "", truncated: false, bytes: 0 },
    error: status === undefined ? { code: "ECONNRESET", message: "reset" } : undefined,
    timings: { startedAt: 0, headersMs: 1, totalMs: 1 },
    operationId,
    retries: 0,
  };
}

const plan: OperationPlan[] = [
  { operationId: "list", method: "GET", path: "/things" },
  { operationId: "get", method: "GET", path: "/things/{id}" },
  {
    operationId: "login",
    method: "POST",
    path: "/oauth/token",
    notRequested: { reason: "other-server", detail: "its own server" },
  },
];

const negative = {
  mode: "negative" as const,
  broken: [{ in: "query" as const, at: "page", rule: "violate-bound" }],
};

describe("the coverage tally", () => {
  it.each([
    ["a valid request answered 2xx", [exchange("list", 200)], { valid: { sent: 1, accepted: 1 } }],
    ["a valid request refused", [exchange("list", 400)], { valid: { sent: 1, accepted: 0 } }],
    [
      "an invalid request (negative intent) refused with a 4xx",
      [exchange("list", 400, { intent: negative })],
      { valid: { sent: 0, accepted: 0 }, invalid: { sent: 1, refused: 1 } },
    ],
    [
      "an invalid request a suite wrote (breaks) accepted",
      [exchange("list", 200, { breaks: "page 0" })],
      { invalid: { sent: 1, refused: 0 } },
    ],
    [
      "an invalid request answered 5xx is not refused",
      [exchange("list", 500, { intent: negative })],
      { invalid: { sent: 1, refused: 0 } },
    ],
    [
      "a request without an answer counts, with no status",
      [exchange("list", undefined)],
      { requests: 1, statuses: [], valid: { sent: 1, accepted: 0 } },
    ],
  ])("%s", (_name, exchanges, expected) => {
    const tally = new CoverageTally();
    for (const one of exchanges) tally.observe(one, "suite");
    expect(tally.table(plan)[0]).toMatchObject({ requests: exchanges.length, ...expected });
  });

  it.each([
    [
      "a generated request with a found path value",
      exchange("get", 404, { intent: { drawnPath: [] } }),
      true,
    ],
    [
      "a generated request with its path value drawn",
      exchange("get", 200, { intent: { drawnPath: ["id"] } }),
      false,
    ],
    ["a suite's own request answered 2xx", exchange("get", 200), true],
    ["a suite's own request answered 404", exchange("get", 404), false],
    ["an invalid generated request", exchange("get", 400, { intent: { ...negative, drawnPath: [] } }), false],
  ])("chained: %s → %s", (_name, one, chained) => {
    const tally = new CoverageTally(new Map([["get", "/things/{id}"]]));
    tally.observe(one, "suite");
    expect(tally.table(plan)[1]?.chained).toBe(chained);
  });

  it("names the suites and checks that judged an operation, and keeps the plan's reason for one never requested", () => {
    const tally = new CoverageTally();
    tally.observe(exchange("list", 200), "lists");
    tally.observe(exchange("list", 200), "filters");
    tally.observe(exchange("list", 200), "lists");
    tally.judged("list", "status-code-documented");
    tally.judged("list", "body-matches-schema");
    const [list, get, login] = tally.table(plan);
    expect(list).toMatchObject({
      requests: 3,
      statuses: [200],
      suites: ["filters", "lists"],
      checks: ["body-matches-schema", "status-code-documented"],
    });
    expect(list?.notRequested).toBeUndefined();
    expect(get).toMatchObject({ requests: 0, notRequested: { reason: "not-reached" } });
    expect(login?.notRequested).toEqual(plan[2]?.notRequested);
    expect(tally.requested).toEqual(["list"]);
  });

  it.each([
    ["only invalid requests sent: says why none was valid", [negative], "writes need --allow-writes"],
    ["a valid request sent after all (another suite's): says nothing", [negative, {}], undefined],
    ["never requested: the reason not to request it says it all", [], undefined],
  ])("a create whose valid request was withheld, %s", (_name, intents, expected) => {
    const tally = new CoverageTally();
    for (const intent of intents) tally.observe(exchange("create", 400, { intent }), "operations");
    const create: OperationPlan = {
      operationId: "create",
      method: "POST",
      path: "/things",
      validWithheld: "writes need --allow-writes",
    };
    expect(tally.table([create])[0]?.validWithheld).toBe(expected);
  });
});
