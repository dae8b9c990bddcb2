import { describe, expect, it } from "vitest";
import { parseRatePolicy, runConfigDefaults } from "../../src/runner/config.ts";
import type { PacerClock } from "../../src/runner/contracts.ts";
import { RatePacer } from "../../src/runner/rate-pacer.ts";

function fakeClock(): PacerClock & { slept: number[] } {
  let now = 1_000_000;
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

/** A clock whose sleeps end when the test moves it past their end. */
function manualClock(): PacerClock & { advance(ms: number): Promise<void> } {
  let now = 1_000_000;
  let sleepers: { until: number; wake: () => void }[] = [];
  return {
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ until: now + ms, wake })),
    async advance(ms) {
      const end = now + ms;
      // Step by step: a sleeper woken may sleep again (the pacer looks at the window again after a wait).
      while (now < end) {
        now = Math.min(end, now + 10);
        const due = sleepers.filter((sleeper) => sleeper.until <= now);
        sleepers = sleepers.filter((sleeper) => sleeper.until > now);
        for (const sleeper of due) sleeper.wake();
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

describe("rate policy parsing", () => {
  it.each([
    ["auto", { kind: "auto" }],
    ["5/s", { kind: "fixed", perSecond: 5 }],
    ["120/m", { kind: "fixed", perSecond: 2 }],
    ["0.5/s", { kind: "fixed", perSecond: 0.5 }],
    ["7200/h", { kind: "fixed", perSecond: 2 }],
    ["1800/h", { kind: "fixed", perSecond: 0.5 }],
  ])("%s", (text, expected) => {
    expect(parseRatePolicy(text)).toEqual(expected);
  });

  it.each(["", "fast", "0/s", "-1/s", "0/h", "5/d", "5"])("refuses %j", (text) => {
    expect(parseRatePolicy(text)).toBeUndefined();
  });
});

describe("rate pacer", () => {
  it.each([
    // A minute's window spent in its first second: Reset (whole seconds, rounded up) is 61 s away.
    [60_000, 61_000, /resets in 61\.\d s .*beyond the 60 s ceiling/],
    [90_000, 91_000, /resets in 91\.\d s .*beyond the 90 s ceiling/],
  ])(
    "refuses a wait past the ceiling %i ms, saying both to a tenth of a second",
    async (maxWaitMs, inMs, said) => {
      const clock = fakeClock();
      const pacer = new RatePacer({ kind: "auto" }, clock, undefined, maxWaitMs);
      const reset = (clock.now() + inMs) / 1000;
      pacer.observe("op", {
        "x-ratelimit-limit": "200",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
      });
      await expect(pacer.acquire("op")).rejects.toThrow(said);
    },
  );

  it("waits a spent minute's window under the default ceiling", async () => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "auto" }, clock, undefined, runConfigDefaults.maxWaitMs);
    const reset = (clock.now() + 61_000) / 1000;
    pacer.observe("op", {
      "x-ratelimit-limit": "200",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(reset),
    });
    await pacer.acquire("op");
    expect(clock.slept).toEqual([61_050]);
  });

  it("spaces requests evenly under a fixed budget", async () => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "fixed", perSecond: 4 }, clock);
    for (let index = 0; index < 4; index += 1) await pacer.acquire("op");
    expect(clock.slept).toEqual([250, 250, 250]);
  });

  it("holds requests when the target says the window is spent, until it resets", async () => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "auto" }, clock);
    await pacer.acquire("op");
    const reset = Math.ceil(clock.now() / 1000) + 10;
    pacer.observe("op", { "x-ratelimit-remaining": "1", "x-ratelimit-reset": String(reset) });
    await pacer.acquire("op");
    expect(clock.slept).toEqual([]);
    await pacer.acquire("op");
    expect(clock.slept).toHaveLength(1);
    expect(clock.now()).toBeGreaterThanOrEqual(reset * 1000);
  });

  it("keeps windows of different operations apart", async () => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "auto" }, clock);
    const reset = String(Math.ceil(clock.now() / 1000) + 60);
    pacer.observe("create", { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset });
    await pacer.acquire("list");
    expect(clock.slept).toEqual([]);
    await pacer.acquire("create");
    expect(clock.slept).toHaveLength(1);
  });

  it("announces a spent window once, however many requests it holds, and not a wait under a second", async () => {
    const clock = fakeClock();
    const waits: [string, number, string][] = [];
    const pacer = new RatePacer(
      { kind: "auto" },
      { now: clock.now, sleep: async () => {} },
      (key, ms, reason) => waits.push([key, ms, reason]),
    );
    const reset = Math.ceil(clock.now() / 1000) + 30;
    pacer.observe("op", { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) });
    await Promise.all([pacer.acquire("op"), pacer.acquire("op"), pacer.acquire("op")]);
    expect(waits).toEqual([["op", reset * 1000 - clock.now() + 50, "window"]]);
    const fixed = new RatePacer({ kind: "fixed", perSecond: 4 }, fakeClock(), (key, ms, reason) =>
      waits.push([key, ms, reason]),
    );
    for (let index = 0; index < 3; index += 1) await fixed.acquire("op");
    expect(waits).toHaveLength(1);
  });

  it("ignores answers without usable headers", async () => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "auto" }, clock);
    pacer.observe("op", { "x-ratelimit-remaining": "soon" });
    await pacer.acquire("op");
    expect(clock.slept).toEqual([]);
  });
});

/** Rate-limit headers of one answer: `limit`, `remaining`, reset `inSeconds` after the clock's second. */
function answer(clock: PacerClock, limit: number | undefined, remaining: number, inSeconds: number) {
  return {
    ...(limit === undefined ? {} : { "x-ratelimit-limit": String(limit) }),
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": String(Math.ceil(clock.now() / 1000) + inSeconds),
  };
}

/** Sends one request through the pacer (acquire, the answer, settle); resolves when it was let through. */
async function send(pacer: RatePacer, key: string, headers?: Record<string, string>) {
  await pacer.acquire(key);
  if (headers) pacer.observe(key, headers);
  pacer.settle(key);
}

describe("rate pacer: windows per limit class", () => {
  const token = (op: string, caller = "t1") => `${op}\u0000${caller}`;

  it.each([
    // what listA's answer said (limit), the other operation's answer (limit), caller: held or not
    { name: "the same limit, the same caller: one window", other: 10, caller: "t1", held: true },
    { name: "another limit: another class", other: 200, caller: "t1", held: false },
    { name: "no limit header: a window of its own", other: undefined, caller: "t1", held: false },
    { name: "another caller: its own windows", other: 10, caller: "t2", held: false },
  ])("$name", async ({ other, caller, held }) => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "auto" }, clock);
    // listB joins with an answer that leaves room, then listA spends the class's window.
    await send(pacer, token("listB", caller), answer(clock, other, 5, 30));
    await send(pacer, token("listA"), answer(clock, 10, 0, 30));
    await pacer.acquire(token("listB", caller));
    expect(clock.slept.length > 0).toBe(held);
  });

  it("counts requests to any operation of the class against its one window", async () => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "auto" }, clock);
    await send(pacer, token("a"), answer(clock, 10, 3, 30));
    await send(pacer, token("b"), answer(clock, 10, 2, 30));
    // Two left: one to a, one to b go at once; the third waits for the reset.
    await send(pacer, token("a"));
    await send(pacer, token("b"));
    expect(clock.slept).toEqual([]);
    await pacer.acquire(token("a"));
    expect(clock.slept).toHaveLength(1);
  });

  it("subtracts the class's requests in flight from what an answer says remains", async () => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "auto" }, clock);
    await send(pacer, token("a"), answer(clock, 10, 9, 30));
    // Four in flight (not answered), then the first of them is answered: 5 remain as the target counted it,
    // three more are coming: two may go.
    for (let index = 0; index < 4; index += 1) await pacer.acquire(token("a"));
    pacer.observe(token("a"), answer(clock, 10, 5, 30));
    pacer.settle(token("a"));
    await pacer.acquire(token("b"));
    await pacer.acquire(token("a"));
    await pacer.acquire(token("a"));
    expect(clock.slept).toEqual([]);
    // The answer said 5, less the 3 others in flight: 2, which the two requests to a spent (b has not joined
    // the class yet: its first request goes unpaced). Taking the answer's 5 as is would let this one go.
    await pacer.acquire(token("a"));
    expect(clock.slept).toHaveLength(1);
  });

  it("after a reset, lets up to the limit go before the new window's first answer, then holds the rest", async () => {
    const clock = manualClock();
    const pacer = new RatePacer({ kind: "auto" }, clock);
    await send(pacer, token("a"), answer(clock, 3, 0, 2));
    // Three held for the reset: they go after it, counted in the window that follows.
    const held = [pacer.acquire(token("a")), pacer.acquire(token("a")), pacer.acquire(token("a"))];
    expect(held.every((promise) => promise !== undefined)).toBe(true);
    // A fourth: the window after the reset is full already; it waits past the reset and looks again.
    let fourthWent = false;
    const fourth = pacer.acquire(token("a"))?.then(() => {
      fourthWent = true;
    });
    await clock.advance(2100);
    await Promise.all(held);
    expect(fourthWent).toBe(false);
    // The new window's first answer: the target counted one of the three, two in flight, nothing left.
    pacer.observe(token("a"), answer(clock, 3, 2, 2));
    for (let index = 0; index < 3; index += 1) pacer.settle(token("a"));
    await clock.advance(100);
    expect(fourthWent).toBe(false);
    // It goes once the new window resets (its Reset: 2 s after the second of its first answer, rounded up).
    await clock.advance(3100);
    await fourth;
    expect(fourthWent).toBe(true);
  });

  it("ignores a late answer of a window that has passed", async () => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "auto" }, clock);
    await send(pacer, token("a"), answer(clock, 10, 5, 30));
    pacer.observe(token("a"), answer(clock, 10, 0, -5));
    await pacer.acquire(token("a"));
    expect(clock.slept).toEqual([]);
  });

  it("never sleeps while the window has room (no idle waiting)", async () => {
    const clock = fakeClock();
    const pacer = new RatePacer({ kind: "auto" }, clock);
    await send(pacer, token("a"), answer(clock, 200, 199, 30));
    for (let index = 0; index < 198; index += 1) await send(pacer, token(index % 2 ? "a" : "b"));
    expect(clock.slept).toEqual([]);
  });
});
