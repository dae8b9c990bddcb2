/**
 * The client's pacer per caller: a window one token spent holds that token's next request to the same operation,
 * not another token's (targets limit per token), and `pace: false` sends at once (a suite driving past a limit).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretValues } from "../../src/core/redact.ts";
import type { PacerClock } from "../../src/runner/contracts.ts";
import { HttpClient } from "../../src/runner/http-client.ts";
import { RatePacer } from "../../src/runner/rate-pacer.ts";

let origin = "";
// Every answer says its window is spent and resets in a minute.
const server = createServer((_request, response) => {
  response.writeHead(200, {
    "content-type": "application/json",
    "x-ratelimit-limit": "1",
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 60),
  });
  response.end("{}");
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A clock whose sleeps return at once and are counted. */
function recordingClock(): PacerClock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => Date.now(), sleep: async (ms) => void sleeps.push(ms) };
}

function client(clock: PacerClock) {
  return new HttpClient({
    timeoutMs: 2000,
    ca: undefined,
    insecure: false,
    connections: 4,
    maxResponseBytes: 1024,
    maxRetries: 0,
    maxWaitMs: 50,
    requestDeadlineMs: 5000,
    pacer: new RatePacer({ kind: "auto" }, clock),
    secrets: new SecretValues(),
    matchOperation: () => "getThing",
  });
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });

describe("pacing per caller", () => {
  it.each([
    ["the same token waits for its spent window", "token-a", undefined, 1],
    ["another token is not held by it", "token-b", undefined, 0],
    ["pace: false sends at once", "token-a", false, 0],
  ] as const)("%s", async (_name, second, pace, expectedSleeps) => {
    const clock = recordingClock();
    const http = client(clock);
    await http.send({ method: "GET", url: `${origin}/thing`, headers: as("token-a") });
    expect(clock.sleeps).toEqual([]);
    await http.send({ method: "GET", url: `${origin}/thing`, headers: as(second), pace });
    expect(clock.sleeps).toHaveLength(expectedSleeps);
    await http.close();
  });
});
