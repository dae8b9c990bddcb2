import { describe } from "vitest";
import type { AnsweredExchange } from "../../src/checks/types.ts";
import { validRequestAccepted } from "../../src/checks/valid-request-accepted.ts";
import type { RequestIntent } from "../../src/core/exchange.ts";
import { type ExchangeInit, exchange, runCheckCases } from "../helpers/exchanges.ts";

const valid: RequestIntent = { operationId: "getNodeBalancer", mode: "positive", scenario: "minimal-valid" };

function answered(init: ExchangeInit, intent: RequestIntent | null = valid): AnsweredExchange {
  const made = exchange({ path: "/nodebalancers/12", ...init });
  return intent ? { ...made, request: { ...made.request, intent } } : made;
}

const refusal = (field?: string) => ({ errors: [{ reason: "Not valid", ...(field ? { field } : {}) }] });

describe("valid-request-accepted", () => {
  runCheckCases(validRequestAccepted, [
    { name: "a 200 passes", exchange: answered({ status: 200 }), outcome: { status: "passed" } },
    { name: "a 204 passes", exchange: answered({ status: 204 }), outcome: { status: "passed" } },
    {
      name: "a request without intent passes whatever it got (nothing to judge)",
      exchange: answered({ status: 400, json: refusal() }, null),
      outcome: { status: "passed" },
    },
    {
      name: "a negative request is not this check's",
      exchange: answered({ status: 400 }, { ...valid, mode: "negative", broken: [] }),
      outcome: { status: "passed" },
    },
    {
      name: "a 400 fails, naming the operation, the reason and the field",
      exchange: answered({ status: 400, json: refusal("label") }),
      outcome: {
        status: "failed",
        message:
          "getNodeBalancer: GET /v4/nodebalancers/12: a request the description allows (minimal-valid) was refused with 400 (Not valid), naming label",
        expected: "2xx",
        actual: 400,
      },
    },
    {
      name: "a 409 fails",
      exchange: answered({ status: 409, json: refusal() }),
      outcome: { status: "failed" },
    },
    {
      name: "a 404 with every path value found in the target's answers fails",
      exchange: answered({ status: 404, json: refusal() }),
      outcome: { status: "failed" },
    },
    { name: "a 500 fails", exchange: answered({ status: 500 }), outcome: { status: "failed", actual: 500 } },
    {
      name: "a 401 is skipped (the token)",
      exchange: answered({ status: 401 }),
      outcome: { status: "skipped" },
    },
    {
      name: "a 403 is skipped (the token)",
      exchange: answered({ status: 403 }),
      outcome: { status: "skipped" },
    },
    { name: "a 429 is skipped", exchange: answered({ status: 429 }), outcome: { status: "skipped" } },
    {
      name: "a 404 where a path value was drawn from its schema is skipped",
      exchange: answered({ status: 404 }, { ...valid, drawnPath: ["nodeBalancerId"] }),
      outcome: { status: "skipped" },
    },
    {
      name: "a 500 where a path value was drawn still fails",
      exchange: answered({ status: 500 }, { ...valid, drawnPath: ["nodeBalancerId"] }),
      outcome: { status: "failed" },
    },
    {
      name: "a refusal naming only free-text fields is skipped",
      exchange: answered(
        { status: 400, json: refusal("root_pass") },
        { ...valid, unpinned: ["root_pass", "label"] },
      ),
      outcome: { status: "skipped" },
    },
    {
      name: "a refusal naming a field that is not free text fails",
      exchange: answered({ status: 400, json: refusal("port") }, { ...valid, unpinned: ["label"] }),
      outcome: { status: "failed" },
    },
    {
      name: "an undecidable request's refusal is skipped with the reason",
      exchange: answered({ status: 400 }, { ...valid, undecidable: "free-form object at /data" }),
      outcome: {
        status: "skipped",
        reason: "getNodeBalancer: GET /v4/nodebalancers/12 answered 400: free-form object at /data",
      },
    },
  ]);
});
