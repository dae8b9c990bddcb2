import { describe, expect } from "vitest";
import { rateLimitHeaders } from "../../src/checks/rate-limit-headers.ts";
import {
  context,
  exchange,
  loginFormOperation,
  operation,
  receivedAt,
  responseInfo,
  runCheckCases,
  stubSpec,
} from "../helpers/exchanges.ts";

const now = Math.floor(receivedAt / 1000);
const limits = (limit: string, remaining: string, reset: string | number) => ({
  headers: {
    "x-ratelimit-limit": limit,
    "x-ratelimit-remaining": remaining,
    "x-ratelimit-reset": String(reset),
  },
});
const loginDocumentingLimits = operation({
  operationId: "createOAuthToken",
  serverUrl: "{auth_url}",
  responses: [
    responseInfo("200", { headers: ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"] }),
  ],
});

/** Another edition of the description, documenting no rate-limit header anywhere. */
const undocumented = operation({ responses: [responseInfo("200", { headers: [] })] });
const silentSpec = stubSpec({ operations: [undocumented] });
const noLimits = {
  headers: {
    "x-ratelimit-limit": undefined,
    "x-ratelimit-remaining": undefined,
    "x-ratelimit-reset": undefined,
  },
};

describe("rate-limit-headers", () => {
  runCheckCases(rateLimitHeaders, [
    {
      name: "absent from a recording that kept none of them is skipped, saying so",
      context: context({ headersKept: ["content-type"] }),
      exchange: exchange(noLimits),
      outcome: {
        status: "skipped",
        reason: "the recording kept no X-RateLimit-* header on any of its answers: they cannot be judged",
      },
    },
    {
      name: "a recording that kept only the limit has the limit judged, the rest not held against the target",
      context: context({ headersKept: ["x-ratelimit-limit"] }),
      exchange: exchange({
        headers: {
          "x-ratelimit-limit": "400",
          "x-ratelimit-remaining": undefined,
          "x-ratelimit-reset": undefined,
        },
      }),
      outcome: { status: "passed" },
    },
    {
      name: "a recording that kept -Remaining on other answers fails where it is missing",
      context: context({ headersKept: ["x-ratelimit-limit", "x-ratelimit-remaining"] }),
      exchange: exchange({
        headers: {
          "x-ratelimit-limit": "400",
          "x-ratelimit-remaining": undefined,
          "x-ratelimit-reset": undefined,
        },
      }),
      outcome: { status: "failed", message: "missing X-RateLimit-Remaining" },
    },
    {
      name: "absent where the description documents them nowhere is skipped, saying so",
      context: context({ spec: silentSpec, operation: undocumented }),
      exchange: exchange(noLimits),
      outcome: {
        status: "skipped",
        reason: "the description documents no X-RateLimit-* header on the API's answers",
      },
    },
    {
      name: "present where the description documents them nowhere are still judged",
      context: context({ spec: silentSpec, operation: undocumented }),
      exchange: exchange(limits("10", "11", now + 60)),
      outcome: { status: "failed" },
    },
    {
      name: "consistent headers pass",
      exchange: exchange(limits("400", "399", now + 60)),
      outcome: { status: "passed" },
    },
    {
      name: "the last request of a window passes",
      exchange: exchange(limits("10", "0", now + 30)),
      outcome: { status: "passed" },
    },
    {
      name: "a 429 with Remaining 0 passes",
      exchange: exchange({ status: 429, ...limits("5", "0", now + 12) }),
      outcome: { status: "passed" },
    },
    {
      name: "Reset 1 s in the past is clock skew",
      exchange: exchange(limits("400", "1", now - 1)),
      outcome: { status: "passed" },
    },
    {
      name: "Reset a day ahead passes",
      exchange: exchange(limits("400", "1", now + 86_400)),
      outcome: { status: "passed" },
    },
    {
      name: "Remaining above Limit fails",
      exchange: exchange(limits("10", "12", now + 60)),
      outcome: {
        status: "failed",
        message: "X-RateLimit-Remaining 12 exceeds X-RateLimit-Limit 10",
        actual: {
          "X-RateLimit-Limit": "10",
          "X-RateLimit-Remaining": "12",
          "X-RateLimit-Reset": String(now + 60),
        },
      },
    },
    {
      name: "a negative Remaining fails",
      exchange: exchange(limits("10", "-1", now + 60)),
      outcome: { status: "failed", message: "X-RateLimit-Remaining -1 is negative" },
    },
    {
      name: "a Limit of 0 fails",
      exchange: exchange(limits("0", "0", now + 60)),
      outcome: { status: "failed", message: "X-RateLimit-Limit 0 is below 1" },
    },
    {
      name: "a value that is not an integer fails",
      exchange: exchange(limits("400", "39.5", now + 60)),
      outcome: { status: "failed", message: 'X-RateLimit-Remaining "39.5" is not an integer' },
    },
    {
      name: "a Reset in the past fails",
      exchange: exchange(limits("400", "399", now - 90)),
      outcome: {
        status: "failed",
        message: `X-RateLimit-Reset ${now - 90} is 90 s before the request was sent`,
        expected: expect.stringContaining("1 s of skew allowed"),
      },
    },
    {
      name: "a Reset passed while conform was stalled after the answer came passes: judged from the request's start",
      context: context({ sentAt: receivedAt - 1000, receivedAt: receivedAt + 50_000 }),
      exchange: exchange(limits("400", "399", now + 1)),
      outcome: { status: "passed" },
    },
    {
      name: "a Reset at the answer's own Date passes, however late conform judged it",
      context: context({ sentAt: receivedAt + 60_000, receivedAt: receivedAt + 90_000 }),
      exchange: exchange({
        headers: { ...limits("400", "399", now).headers, date: new Date(receivedAt).toUTCString() },
      }),
      outcome: { status: "passed" },
    },
    {
      name: "a Reset 50 s before the answer's own Date fails, whatever conform's clock says",
      context: context({ sentAt: receivedAt - 120_000 }),
      exchange: exchange({
        headers: { ...limits("400", "399", now - 50).headers, date: new Date(receivedAt).toUTCString() },
      }),
      outcome: {
        status: "failed",
        message: `X-RateLimit-Reset ${now - 50} is 50 s before the answer's own Date`,
      },
    },
    {
      name: "a Reset more than a day ahead of the answer's own Date fails",
      exchange: exchange({
        headers: { ...limits("400", "399", now + 86_402).headers, date: new Date(receivedAt).toUTCString() },
      }),
      outcome: {
        status: "failed",
        message: `X-RateLimit-Reset ${now + 86_402} is more than a day ahead of the answer's own Date`,
      },
    },
    {
      name: "an unreadable Date is no reference: the request's start is",
      exchange: exchange({
        headers: { ...limits("400", "399", now - 90).headers, date: "yesterday" },
      }),
      outcome: {
        status: "failed",
        message: `X-RateLimit-Reset ${now - 90} is 90 s before the request was sent`,
      },
    },
    {
      name: "seconds-until-reset instead of epoch seconds fails with a hint",
      exchange: exchange(limits("400", "399", 42)),
      outcome: {
        status: "failed",
        message: expect.stringMatching(
          /^X-RateLimit-Reset 42 is \d+ h before the request was sent \(seconds until the reset instead of epoch seconds\?\)$/,
        ),
      },
    },
    {
      name: "a Reset in epoch milliseconds fails with a hint",
      exchange: exchange(limits("400", "399", (now + 60) * 1000)),
      outcome: {
        status: "failed",
        message: `X-RateLimit-Reset ${(now + 60) * 1000} is more than a day ahead (milliseconds instead of epoch seconds?)`,
      },
    },
    {
      name: "a missing header on an API response fails",
      exchange: exchange({ headers: { "x-ratelimit-reset": undefined } }),
      outcome: { status: "failed", message: "missing X-RateLimit-Reset" },
    },
    {
      name: "all missing on a status the operation does not document is skipped: only a documented answer promises them",
      exchange: exchange({ status: 404, ...noLimits }),
      outcome: {
        status: "skipped",
        reason: "getNodeBalancers documents no 404 answer, so no X-RateLimit-* header on it",
      },
    },
    {
      name: "all missing on a status documented by `default` with them fails",
      context: context({
        operation: operation({
          responses: [
            responseInfo("default", {
              headers: ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"],
            }),
          ],
        }),
      }),
      exchange: exchange({ status: 404, ...noLimits }),
      outcome: {
        status: "failed",
        message: "missing X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset",
      },
    },
    {
      name: "several problems are reported together",
      exchange: exchange({
        headers: {
          "x-ratelimit-limit": "ten",
          "x-ratelimit-remaining": "-3",
          "x-ratelimit-reset": undefined,
        },
      }),
      outcome: {
        status: "failed",
        message:
          'missing X-RateLimit-Reset; X-RateLimit-Limit "ten" is not an integer; X-RateLimit-Remaining -3 is negative',
      },
    },
    {
      name: "missing where a login-server response documents them fails",
      context: context({ operation: loginDocumentingLimits }),
      exchange: exchange({ headers: { "x-ratelimit-remaining": undefined } }),
      outcome: { status: "failed", message: "missing X-RateLimit-Remaining" },
    },
    {
      name: "present on a login-server response: judged",
      context: context({ operation: loginFormOperation() }),
      exchange: exchange(limits("5", "6", now + 10)),
      outcome: { status: "failed", message: "X-RateLimit-Remaining 6 exceeds X-RateLimit-Limit 5" },
    },
    {
      name: "absent on an undocumented login-server response is skipped",
      context: context({ operation: loginFormOperation() }),
      exchange: exchange({
        headers: {
          "x-ratelimit-limit": undefined,
          "x-ratelimit-remaining": undefined,
          "x-ratelimit-reset": undefined,
        },
      }),
      outcome: {
        status: "skipped",
        reason: "the 200 answer of getOAuthAuthorize documents no X-RateLimit-* header",
      },
    },
    {
      name: "absent without an operation is skipped",
      context: context({ operation: undefined }),
      exchange: exchange({
        path: "/nowhere",
        headers: {
          "x-ratelimit-limit": undefined,
          "x-ratelimit-remaining": undefined,
          "x-ratelimit-reset": undefined,
        },
      }),
      outcome: { status: "skipped", reason: "no operation in the spec for GET /v4/nowhere" },
    },
  ]);
});
