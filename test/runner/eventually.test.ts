/**
 * "Eventually" waits: they stop at the first accepted answer, give up at the deadline (with the last answer),
 * stop on abort, and space polls by the interval stretched to what the rate-limit window allows.
 */
import { describe, expect, it } from "vitest";
import type { LiveResponse, PacerClock } from "../../src/runner/contracts.ts";
import { eventually, formatDuration, pollDelay } from "../../src/runner/eventually.ts";

/** A clock whose sleeps pass at once, advancing time. */
function fakeClock(start = 1_000_000): PacerClock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

function answer(status: number, headers: Record<string, string> = {}, json: unknown = {}): LiveResponse {
  return {
    status,
    headers,
    json,
    parsed: json,
    text: JSON.stringify(json),
    exchange: {} as LiveResponse["exchange"],
  };
}

describe("pollDelay", () => {
  const now = 1_000_000;
  it.each([
    ["no rate-limit headers: the interval", answer(200), 500, 500],
    [
      "a window with plenty left: the interval",
      answer(200, { "x-ratelimit-remaining": "395", "x-ratelimit-reset": "1060" }),
      500,
      500,
    ],
    // 60 s left in the window, 10 requests left, 5 kept in hand: one poll every 12 s.
    [
      "a window nearly spent: spread the rest",
      answer(200, { "x-ratelimit-remaining": "10", "x-ratelimit-reset": "1060" }),
      500,
      12_000,
    ],
    [
      "a window spent but for the reserve: wait for its reset",
      answer(200, { "x-ratelimit-remaining": "5", "x-ratelimit-reset": "1030" }),
      500,
      30_000,
    ],
    [
      "a reset in the past: the interval",
      answer(200, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "999" }),
      500,
      500,
    ],
    [
      "unreadable headers: the interval",
      answer(200, { "x-ratelimit-remaining": "lots", "x-ratelimit-reset": "soon" }),
      500,
      500,
    ],
    ["a 429: its Retry-After", answer(429, { "retry-after": "7" }), 500, 7_000],
    ["a 429 without Retry-After: a second", answer(429), 500, 1_000],
  ])("%s", (_name, response, interval, expected) => {
    expect(pollDelay(response, now, interval)).toBe(expected);
  });
});

describe("eventually", () => {
  it("stops at the first accepted answer and says how long it took", async () => {
    const clock = fakeClock();
    let calls = 0;
    const outcome = await eventually(
      async () => answer(200, {}, { up: ++calls >= 3 ? 1 : 0 }),
      (response) => (response.json as { up: number }).up === 1,
      { deadlineMs: 10_000, intervalMs: 250, clock },
    );
    expect(outcome).toMatchObject({ ok: true, polls: 3, elapsedMs: 500 });
    expect(clock.slept).toEqual([250, 250]);
  });

  it("gives up at the deadline with the last answer, the last poll landing on the deadline", async () => {
    const clock = fakeClock();
    const outcome = await eventually(
      async () => answer(200, {}, { up: 0 }),
      () => false,
      {
        deadlineMs: 1_000,
        intervalMs: 300,
        clock,
      },
    );
    expect(outcome).toMatchObject({ ok: false, reason: "deadline", polls: 5, elapsedMs: 1_000 });
    expect(outcome.last?.json).toEqual({ up: 0 });
    expect(clock.slept).toEqual([300, 300, 300, 100]);
  });

  it("spaces polls by the rate-limit window, not only the interval", async () => {
    const clock = fakeClock(0);
    // A target allowing 12 requests per 10 s window, counting the polls.
    const perWindow = new Map<number, number>();
    const outcome = await eventually(
      async () => {
        const window = Math.floor(clock.now() / 10_000);
        const used = (perWindow.get(window) ?? 0) + 1;
        perWindow.set(window, used);
        return answer(used > 12 ? 429 : 200, {
          "x-ratelimit-remaining": String(Math.max(0, 12 - used)),
          "x-ratelimit-reset": String((window + 1) * 10),
        });
      },
      () => false,
      { deadlineMs: 60_000, intervalMs: 100, clock },
    );
    expect(outcome).toMatchObject({ ok: false, reason: "deadline" });
    // The interval alone would poll 600 times and hit 429s; the window keeps 5 requests in hand each time.
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(12 - 5 + 1);
    expect(outcome.polls).toBeGreaterThan(6);
  });

  it("stops when the run is interrupted", async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    let calls = 0;
    const outcome = await eventually(
      async () => {
        if (++calls === 2) controller.abort();
        return answer(200);
      },
      () => false,
      { deadlineMs: 60_000, intervalMs: 100, clock, signal: controller.signal },
    );
    expect(outcome).toMatchObject({ ok: false, reason: "aborted", polls: 2 });
  });

  it("lets the caller see every answer", async () => {
    const seen: number[] = [];
    let calls = 0;
    await eventually(
      async () => answer(200, {}, { n: ++calls }),
      (response) => (response.json as { n: number }).n === 3,
      {
        deadlineMs: 10_000,
        intervalMs: 10,
        clock: fakeClock(),
        onPoll: (response) => seen.push((response.json as { n: number }).n),
      },
    );
    expect(seen).toEqual([1, 2, 3]);
  });

  it("propagates a transport error (the case reports it as errored)", async () => {
    await expect(
      eventually(
        async () => {
          throw new Error("ECONNREFUSED");
        },
        () => true,
        { deadlineMs: 1_000, intervalMs: 10, clock: fakeClock() },
      ),
    ).rejects.toThrow(/ECONNREFUSED/);
  });

  it.each([
    [850, "850 ms"],
    [1_234, "1.23 s"],
    [0.4, "0 ms"],
  ])("formats %d ms as %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
