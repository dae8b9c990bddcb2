import { describe } from "vitest";
import { authStatus } from "../../src/checks/auth-status.ts";
import { runSequenceCases, seen } from "../helpers/observed.ts";

const invalidToken = { errors: [{ reason: "Invalid Token" }] };
const balancers = (authorization: string | undefined, status: number, json: unknown = invalidToken) =>
  seen({
    operationId: "getNodeBalancers",
    path: "/nodebalancers",
    requestHeaders: authorization === undefined ? {} : { authorization },
    status,
    json,
  });
const page = { data: [], page: 1, pages: 1, results: 0 };

describe("auth-status", () => {
  runSequenceCases(authStatus, [
    {
      name: "no token answered 401 Invalid Token passes",
      sequence: [balancers(undefined, 401)],
      outcome: { status: "passed" },
    },
    {
      name: "no token answered 403 fails",
      sequence: [balancers(undefined, 403, { errors: [{ reason: "Forbidden" }] })],
      outcome: {
        status: "failed",
        message: "getNodeBalancers with no token was answered 403: that is for a token without the scope",
      },
    },
    {
      name: "a malformed Authorization answered 403 fails",
      sequence: [balancers("Token [REDACTED]", 403, { errors: [{ reason: "Forbidden" }] })],
      outcome: { status: "failed", expected: 401, actual: 403 },
    },
    {
      name: "no token answered 200 fails",
      sequence: [balancers(undefined, 200, page)],
      outcome: {
        status: "failed",
        message: "getNodeBalancers needs a token: with no token it was answered 200",
      },
    },
    {
      name: "a 401 naming another reason fails",
      sequence: [balancers("Bearer [REDACTED]", 401, { errors: [{ reason: "Unauthorized" }] })],
      outcome: { status: "failed", message: "a 401 does not name the reason Invalid Token" },
    },
    {
      name: "a token answered 403 is not its business (a token without the scope)",
      sequence: [balancers("Bearer [REDACTED]", 403, { errors: [{ reason: "Forbidden" }] })],
      outcome: undefined,
    },
    {
      name: "no token answered 429 is not judged (limits come first)",
      sequence: [balancers(undefined, 429, { errors: [{ reason: "Too many requests" }] })],
      outcome: undefined,
    },
    {
      name: "a public operation without a token is not its business",
      sequence: [seen({ operationId: "getRegions", path: "/regions", json: page })],
      outcome: undefined,
    },
    {
      name: "no token answered 200 in a recording is skipped: it may have filtered the header out",
      sequence: [balancers(undefined, 200, page)],
      recording: {},
      outcome: { status: "skipped" },
    },
    {
      name: "no token answered 403 in a recording that kept the Authorization header elsewhere fails",
      sequence: [balancers(undefined, 403, { errors: [{ reason: "Forbidden" }] })],
      recording: { authorizationKept: true },
      outcome: { status: "failed", expected: 401, actual: 403 },
    },
    {
      name: "no token answered 403 in a cassette that filtered the Authorization header out is skipped",
      sequence: [balancers(undefined, 403, { errors: [{ reason: "Forbidden" }] })],
      recording: { authorizationKept: false, headersKept: new Set(["content-type"]) },
      outcome: { status: "skipped" },
    },
  ]);
});
