import { describe, expect, it } from "vitest";
import { parseRatePolicy } from "../../src/runner/config.ts";
import { type PacerClock, RatePacer } from "../../src/runner/rate-pacer.ts";

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

describe("rate policy parsing", () => {
  it.each([
    ["auto", { kind: "auto" }],
    ["5/s", { kind: "fixed", perSecond: 5 }],
    ["120/m", { kind: "fixed", perSecond: 2 }],
    ["0.5/s", { kind: "fixed", perSecond: 0.5 }],
  ])("%s", (text, expected) => {
    expect(parseRatePolicy(text)).toEqual(expected);
  });

  it.each(["", "fast", "0/s", "-1/s", "5/h", "5"])("refuses %j", (text) => {
    expect(parseRatePolicy(text)).toBeUndefined();
  });
});

describe("rate pacer", () => {
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
