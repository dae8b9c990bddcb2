import { describe } from "vitest";
import { observedRateLimit } from "../../src/checks/observed-rate-limit.ts";
import { runSequenceCases, seen } from "../helpers/observed.ts";

const profile = (remaining: number, reset = "2000000000", status = 200) =>
  seen({
    operationId: "getProfile",
    path: "/profile",
    json: {},
    status,
    headers: {
      "x-ratelimit-limit": "10",
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-reset": reset,
    },
  });

describe("observed-rate-limit", () => {
  runSequenceCases(observedRateLimit, [
    {
      name: "Remaining going down passes",
      sequence: [profile(9), profile(8)],
      outcome: { status: "passed" },
    },
    {
      name: "Remaining frozen at the limit fails, tokens unknown",
      sequence: [profile(10), profile(10)],
      outcome: { status: "failed" },
    },
    {
      name: "one answer in a window, tokens unknown, says nothing yet",
      sequence: [profile(10)],
      outcome: undefined,
    },
    {
      name: "a new window starts full",
      sequence: [profile(0), profile(9, "2000000060")],
      outcome: { status: "passed" },
      caller: "token-a",
    },
    {
      name: "Remaining that does not go down for one known token fails",
      sequence: [profile(9), profile(9)],
      outcome: {
        status: "failed",
        message:
          "X-RateLimit-Remaining does not go down: 2 answers to one token in one window of 10, the lowest says 9 left",
      },
      caller: "token-a",
    },
    {
      name: "a 429 tells nothing of the window's count",
      sequence: [profile(9), profile(9, "2000000000", 429)],
      outcome: undefined,
      caller: "token-a",
    },
  ]);
});
