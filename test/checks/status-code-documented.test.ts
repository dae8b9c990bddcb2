import { describe } from "vitest";
import { statusCodeDocumented } from "../../src/checks/status-code-documented.ts";
import { context, exchange, operation, responseInfo, runCheckCases } from "../helpers/exchanges.ts";

const withRange = operation({ responses: [responseInfo("200"), responseInfo("4XX")] });
const withDefault = operation({ responses: [responseInfo("200"), responseInfo("default")] });
const lowerRange = operation({ responses: [responseInfo("200"), responseInfo("5xx")] });

describe("status-code-documented", () => {
  runCheckCases(statusCodeDocumented, [
    {
      name: "a documented exact status passes",
      exchange: exchange({ status: 200 }),
      outcome: { status: "passed" },
    },
    { name: "429 is documented", exchange: exchange({ status: 429 }), outcome: { status: "passed" } },
    {
      name: "a status under a documented range passes",
      context: context({ operation: withRange }),
      exchange: exchange({ status: 418 }),
      outcome: { status: "passed" },
    },
    {
      name: "a range written in lower case still matches",
      context: context({ operation: lowerRange }),
      exchange: exchange({ status: 503 }),
      outcome: { status: "passed" },
    },
    {
      name: "default covers any status",
      context: context({ operation: withDefault }),
      exchange: exchange({ status: 503 }),
      outcome: { status: "passed" },
    },
    {
      name: "an undocumented status fails, listing the documented ones",
      exchange: exchange({ status: 404 }),
      outcome: {
        status: "failed",
        message:
          "status 404 is not documented for getNodeBalancers (documented: 200, 400, 401, 403, 429, 500)",
        expected: ["200", "400", "401", "403", "429", "500"],
        actual: 404,
      },
    },
    {
      name: "a range does not cover another class",
      context: context({ operation: withRange }),
      exchange: exchange({ status: 500 }),
      outcome: { status: "failed", actual: 500 },
    },
    {
      // Issue 31: the headers suite says a HEAD 405 against its GET; this check said it a second time.
      name: "a HEAD answering what its GET does not document is left to the headers suite",
      exchange: exchange({ method: "HEAD", status: 405 }),
      outcome: {
        status: "skipped",
        reason: "HEAD getNodeBalancers: judged against its GET by the headers suite, not here",
      },
    },
    {
      name: "a HEAD answering a documented status passes",
      exchange: exchange({ method: "HEAD", status: 200 }),
      outcome: { status: "passed" },
    },
    {
      name: "no operation is skipped",
      context: context({ operation: undefined }),
      exchange: exchange({ method: "GET", path: "/nowhere?page=2", status: 404 }),
      outcome: { status: "skipped", reason: "no operation in the spec for GET /v4/nowhere" },
    },
  ]);
});
