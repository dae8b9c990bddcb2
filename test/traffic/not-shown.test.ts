import { describe, expect, it } from "vitest";
import type { AnsweredExchange } from "../../src/checks/types.ts";
import type { OperationCoverage, TrafficRuleId } from "../../src/core/events.ts";
import { notShownOf, TrafficEvidence, trafficRules } from "../../src/traffic/not-shown.ts";
import { page, seen, spec } from "../helpers/observed.ts";

const token = { authorization: "Bearer [REDACTED]" };
const everyRule = trafficRules.map((rule) => rule.id);
const without = (...shown: TrafficRuleId[]) => everyRule.filter((id) => !shown.includes(id));

const balancers = (init: { query?: string; status?: number; headers?: Record<string, string> } = {}) =>
  seen({
    operationId: "getNodeBalancers",
    path: `/nodebalancers${init.query ?? ""}`,
    requestHeaders: init.headers ?? token,
    status: init.status ?? 200,
    json: init.status && init.status >= 400 ? { errors: [{ reason: "x" }] } : page([]),
  });

const createBalancer = (status: number) =>
  seen({
    operationId: "createNodeBalancer",
    method: "POST",
    path: "/nodebalancers",
    requestHeaders: token,
    status,
  });

const cases: {
  name: string;
  sequence: readonly AnsweredExchange[];
  recorded?: boolean;
  notShown: readonly TrafficRuleId[];
}[] = [
  { name: "no traffic shows no rule", sequence: [], notShown: everyRule },
  { name: "a plain read with a token shows none", sequence: [balancers()], notShown: everyRule },
  {
    name: "a 429 shows the rate limit",
    sequence: [balancers({ status: 429 })],
    notShown: without("rate-limit", "error-path"),
  },
  {
    name: "a 404 shows the error path",
    sequence: [balancers({ status: 404 })],
    notShown: without("error-path"),
  },
  {
    name: "a 5xx is no error path",
    sequence: [balancers({ status: 500 })],
    notShown: everyRule,
  },
  {
    name: "a request without a token shows the unauthenticated rule",
    sequence: [balancers({ headers: {}, status: 401 })],
    notShown: without("unauthenticated", "error-path"),
  },
  {
    name: "in a recording a request without Authorization shows nothing of it (the SDK may have dropped it)",
    sequence: [balancers({ headers: {}, status: 401 })],
    recorded: true,
    notShown: without("error-path"),
  },
  {
    name: "a public list without a token is no unauthenticated request",
    sequence: [seen({ operationId: "getComputeTypes", path: "/compute/types", json: page([]) })],
    notShown: everyRule,
  },
  {
    name: "a filtered list answered 2xx shows the filter",
    sequence: [balancers({ headers: { ...token, "x-filter": '{"label":"a"}' } })],
    notShown: without("filtered-list"),
  },
  {
    name: "a filtered list refused shows no filter",
    sequence: [balancers({ headers: { ...token, "x-filter": "{" }, status: 400 })],
    notShown: without("error-path"),
  },
  {
    name: "page 2 of a list shows a walk",
    sequence: [balancers({ query: "?page=1" }), balancers({ query: "?page=2&page_size=25" })],
    notShown: without("paginated-walk"),
  },
  {
    name: "page 1 only shows no walk",
    sequence: [balancers({ query: "?page=1" }), balancers({ query: "?page=abc" })],
    notShown: everyRule,
  },
  {
    name: "a write answered 2xx shows a write",
    sequence: [createBalancer(200)],
    notShown: without("write"),
  },
  {
    name: "a write refused shows no write",
    sequence: [createBalancer(400)],
    notShown: without("error-path"),
  },
  {
    name: "the login server's token endpoint shows the OAuth flow",
    sequence: [seen({ operationId: "createOAuthToken", method: "POST", path: "/oauth/token", status: 200 })],
    notShown: without("oauth-flow"),
  },
];

describe("rules the traffic did not show", () => {
  it.each(cases)("$name", ({ sequence, recorded, notShown }) => {
    const evidence = new TrafficEvidence(spec);
    for (const exchange of sequence) evidence.observe(exchange, recorded);
    expect(evidence.rulesNotShown().map((rule) => rule.id)).toEqual(notShown);
  });

  it("says what is missing and what stays unproven", () => {
    const rule = new TrafficEvidence(spec).rulesNotShown().find((one) => one.id === "rate-limit");
    expect(rule).toEqual({
      id: "rate-limit",
      missing: "no 429 seen",
      unproven: "the rate-limit rules (a 429's reason and Retry-After, the window's reset) are unproven",
    });
  });

  it("lists a rule only when the description has what it is about", () => {
    const publicOnly = {
      ...spec,
      operations: {
        ...spec.operations,
        all: () => spec.operations.all().filter((one) => one.operationId === "getRegions"),
      },
    };
    expect(new TrafficEvidence(publicOnly).rulesNotShown().map((rule) => rule.id)).toEqual([
      "rate-limit",
      "error-path",
      "paginated-walk",
    ]);
  });
});

const row = (operationId: string, statuses: number[]): OperationCoverage => ({
  operationId,
  method: "GET",
  path: `/${operationId}`,
  statuses,
  requests: statuses.length,
  valid: { sent: statuses.length, accepted: statuses.length },
  invalid: { sent: 0, refused: 0 },
  chained: false,
  suites: [],
  checks: [],
});

describe("notShownOf", () => {
  it("lists no check when no operation was answered (every one judged nothing, said once elsewhere)", () => {
    expect(notShownOf([row("a", [])], [], new Map([["auth-status", undefined]])).checks).toEqual([]);
  });

  it.each([
    {
      name: "every operation hit",
      coverage: [row("a", [200]), row("b", [404])],
      operations: { exercised: 2, total: 2, neverHit: [] },
    },
    {
      name: "the operations never answered, in the table's order",
      coverage: [row("a", []), row("b", [200]), row("c", [])],
      operations: { exercised: 1, total: 3, neverHit: ["a", "c"] },
    },
    { name: "an empty description", coverage: [], operations: { exercised: 0, total: 0, neverHit: [] } },
  ])("$name", ({ coverage, operations }) => {
    expect(notShownOf(coverage, [], new Map()).operations).toEqual(operations);
  });

  it("says why each check judged nothing", () => {
    const checks = new Map([
      ["observed-deprecated", undefined],
      ["auth-status", "its token is unknown"],
    ]);
    expect(notShownOf([row("a", [200])], [], checks).checks).toEqual([
      { checkId: "observed-deprecated", why: "no exchange was about it" },
      { checkId: "auth-status", why: "skipped: its token is unknown" },
    ]);
  });
});
