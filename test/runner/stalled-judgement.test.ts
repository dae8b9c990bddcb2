/**
 * Issue 36, point 1: a stall on our side between an answer and its judgement (a busy event loop, a loaded machine)
 * never counts against the target. The tiny server below answers, then blocks this process's event loop (client
 * and server share it) so the client reads the answer well after its `X-RateLimit-Reset` passed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitHeaders } from "../../src/checks/rate-limit-headers.ts";
import type { Exchange } from "../../src/core/exchange.ts";
import { SecretValues } from "../../src/core/redact.ts";
import type { CheckResult } from "../../src/core/result.ts";
import { CaseTally } from "../../src/runner/case-tally.ts";
import { ExchangeJudge } from "../../src/runner/exchange-judge.ts";
import { stubSpec } from "../helpers/exchanges.ts";
import { closeServer, listenOnLoopback, testClient } from "../helpers/loopback.ts";

/** Longer than Reset's lead (at most 1 s) plus the 1 s of skew allowed: judged from receipt, Reset has passed. */
const stallMs = 2500;
const blocker = new Int32Array(new SharedArrayBuffer(4));

const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const url = new URL(request.url ?? "/", "http://x");
  const nowSeconds = Math.floor(Date.now() / 1000);
  // `lead` seconds from now: 1 is the next second (the window resets within the second), -50 a Reset long past.
  const reset = nowSeconds + Number(url.searchParams.get("lead") ?? "1");
  response.sendDate = url.searchParams.get("date") !== "none";
  response.writeHead(200, {
    "content-type": "application/json",
    "x-ratelimit-limit": "10",
    "x-ratelimit-remaining": "9",
    "x-ratelimit-reset": String(reset),
  });
  response.end("{}");
  if (url.searchParams.get("stall") === "yes") Atomics.wait(blocker, 0, 0, stallMs);
});

let origin = "";
beforeAll(async () => {
  origin = await listenOnLoopback(server);
});
afterAll(() => closeServer(server));

async function judgedOnce(query: string): Promise<{ exchange: Exchange; results: CheckResult[] }> {
  const http = testClient({ timeoutMs: 10_000, requestDeadlineMs: 10_000, connections: 1 });
  try {
    const { exchange } = await http.send({ method: "GET", url: `${origin}/limited?${query}` });
    const results: CheckResult[] = [];
    new ExchangeJudge(stubSpec(), [rateLimitHeaders]).judge(
      exchange,
      new CaseTally(new SecretValues()),
      (result) => results.push(result),
    );
    return { exchange, results };
  } finally {
    await http.close();
  }
}

describe("time rules judged against the answer, not against when conform judged it", () => {
  it.each([
    ["judged against the answer's own Date", "stall=yes"],
    ["judged against the request's start without a Date", "stall=yes&date=none"],
  ])("a Reset still ahead when the target answered passes after a stall, %s", async (_how, query) => {
    const { exchange, results } = await judgedOnce(query);
    // The stall did happen between the answer and the client reading it.
    expect(exchange.timings.totalMs).toBeGreaterThanOrEqual(stallMs - 50);
    expect(results).toEqual([]);
  });

  it.each([
    ["before the answer's own Date", "lead=-50"],
    ["before the request was sent", "lead=-50&date=none"],
  ])("a Reset really past still fails: %s", async (against, query) => {
    const { results } = await judgedOnce(query);
    expect(results.map((result) => result.outcome)).toEqual([
      expect.objectContaining({
        status: "failed",
        message: expect.stringMatching(new RegExp(`^X-RateLimit-Reset \\d+ is 5\\d s ${against}$`)),
      }),
    ]);
  });
});
