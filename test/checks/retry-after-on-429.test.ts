import { describe, expect, it } from "vitest";
import { parseHttpDate } from "../../src/checks/_internals/http-values.ts";
import { retryAfterOn429 } from "../../src/checks/retry-after-on-429.ts";
import { context, exchange, receivedAt, runCheckCases } from "../helpers/exchanges.ts";

const tooMany = (retryAfter: string | undefined) =>
  exchange({
    status: 429,
    json: { errors: [{ reason: "Too many requests" }] },
    headers: { "retry-after": retryAfter },
  });

describe("retry-after-on-429", () => {
  runCheckCases(retryAfterOn429, [
    {
      name: "a 429 without it in a recording that kept it on none of its answers is skipped",
      context: context({ headersKept: ["content-type"] }),
      exchange: tooMany(undefined),
      outcome: { status: "skipped" },
    },
    {
      name: "a 429 without it in a recording that kept it elsewhere fails",
      context: context({ headersKept: ["retry-after"] }),
      exchange: tooMany(undefined),
      outcome: { status: "failed" },
    },
    { name: "delay-seconds passes", exchange: tooMany("42"), outcome: { status: "passed" } },
    { name: "zero seconds passes", exchange: tooMany("0"), outcome: { status: "passed" } },
    {
      name: "an IMF-fixdate passes",
      exchange: tooMany("Thu, 02 Jan 2025 03:05:05 GMT"),
      outcome: { status: "passed" },
    },
    {
      name: "an RFC 850 date passes",
      exchange: tooMany("Thursday, 02-Jan-25 03:05:05 GMT"),
      outcome: { status: "passed" },
    },
    {
      name: "an asctime date passes",
      exchange: tooMany("Thu Jan  2 03:05:05 2025"),
      outcome: { status: "passed" },
    },
    {
      name: "a 429 without Retry-After fails",
      exchange: tooMany(undefined),
      outcome: { status: "failed", message: "429 without Retry-After", actual: undefined },
    },
    {
      name: "negative seconds fail",
      exchange: tooMany("-5"),
      outcome: {
        status: "failed",
        message: 'Retry-After "-5" is neither a non-negative number of seconds nor an HTTP-date',
        actual: "-5",
      },
    },
    { name: "fractional seconds fail", exchange: tooMany("1.5"), outcome: { status: "failed" } },
    {
      name: "an ISO 8601 date fails",
      exchange: tooMany("2025-01-02T03:05:05Z"),
      outcome: { status: "failed" },
    },
    {
      name: "a date that does not exist fails",
      exchange: tooMany("Fri, 31 Feb 2025 03:05:05 GMT"),
      outcome: { status: "failed" },
    },
    {
      name: "a 200 without Retry-After passes (nothing is required of it)",
      exchange: exchange(),
      outcome: { status: "passed" },
    },
    {
      name: "a 503 with a valid Retry-After passes",
      exchange: exchange({ status: 503, headers: { "retry-after": "120" } }),
      outcome: { status: "passed" },
    },
    {
      name: "a malformed Retry-After on a 503 fails",
      exchange: exchange({ status: 503, headers: { "retry-after": "soon" } }),
      outcome: {
        status: "failed",
        message: 'Retry-After "soon" is neither a non-negative number of seconds nor an HTTP-date',
      },
    },
  ]);

  it.each([
    ["Sun, 06 Nov 1994 08:49:37 GMT", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Sunday, 06-Nov-94 08:49:37 GMT", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Sun Nov  6 08:49:37 1994", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Sun, 06 Nov 1994 08:49:37 UTC", undefined],
    ["Sun, 06 Nov 1994 24:00:00 GMT", undefined],
    ["06 Nov 1994 08:49:37 GMT", undefined],
  ])("reads the HTTP-date %j (RFC 9110 §5.6.7)", (value, expected) => {
    expect(parseHttpDate(value, receivedAt)).toBe(expected);
  });
});
