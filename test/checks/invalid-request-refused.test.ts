import { describe } from "vitest";
import { invalidRequestRefused } from "../../src/checks/invalid-request-refused.ts";
import type { AnsweredExchange } from "../../src/checks/types.ts";
import type { RequestIntent } from "../../src/core/exchange.ts";
import { exchange, runCheckCases } from "../helpers/exchanges.ts";

const invalid: RequestIntent = {
  operationId: "createNodeBalancer",
  mode: "negative",
  scenario: "several-rules",
  broken: [
    { in: "body", at: "/port", rule: "violate-bound", detail: "above the maximum 65535" },
    { in: "query", at: "page_size", rule: "violate-bound" },
    { in: "path", at: "nodeBalancerId", rule: "change-type" },
  ],
};

function answered(status: number, intent: RequestIntent | null = invalid): AnsweredExchange {
  const made = exchange({ method: "POST", path: "/nodebalancers", status });
  return intent ? { ...made, request: { ...made.request, intent } } : made;
}

describe("invalid-request-refused", () => {
  runCheckCases(invalidRequestRefused, [
    { name: "a 400 passes", exchange: answered(400), outcome: { status: "passed" } },
    { name: "a 422 passes", exchange: answered(422), outcome: { status: "passed" } },
    { name: "a 404 passes (a broken path refused)", exchange: answered(404), outcome: { status: "passed" } },
    {
      name: "a request without intent passes (nothing to judge)",
      exchange: answered(200, null),
      outcome: { status: "passed" },
    },
    {
      name: "a positive request is not this check's",
      exchange: answered(200, { operationId: "x", mode: "positive", scenario: "minimal-valid" }),
      outcome: { status: "passed" },
    },
    {
      name: "a 200 fails, saying every rule broken and where",
      exchange: answered(200),
      outcome: {
        status: "failed",
        message:
          "createNodeBalancer: POST /v4/nodebalancers: a request breaking body /port: violate-bound (above the maximum 65535); query page_size: violate-bound; path nodeBalancerId: change-type accepted it (200)",
        expected: "4xx",
        actual: 200,
      },
    },
    { name: "a 500 fails", exchange: answered(500), outcome: { status: "failed", actual: 500 } },
    { name: "a 302 fails", exchange: answered(302), outcome: { status: "failed" } },
    { name: "a 401 is skipped", exchange: answered(401), outcome: { status: "skipped" } },
    { name: "a 429 is skipped", exchange: answered(429), outcome: { status: "skipped" } },
    {
      name: "an undecidable request's 200 is skipped",
      exchange: answered(200, { ...invalid, undecidable: "free-form" }),
      outcome: { status: "skipped" },
    },
  ]);
});
