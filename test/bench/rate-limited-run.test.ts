import { describe, expect, it } from "vitest";
import type { WireAnswer } from "../../bench/rate-limited-child.ts";
import { provokedRateLimits, rateBound, rateLimitedGoal } from "../../bench/rate-limited-run.ts";

/** `count` answers of one caller and limit, in windows of `windowMs` starting at t0 (answered 5 ms after sending). */
function answers(
  caller: string,
  limit: number,
  count: number,
  windowMs: number,
  t0 = 1_000_000,
  status = 200,
): WireAnswer[] {
  return Array.from({ length: count }, (_, index) => {
    const window = Math.floor(index / limit);
    const start = t0 + window * windowMs;
    const sentAt = start + (index % limit);
    return {
      caller,
      method: "GET",
      path: "/v4/things",
      sentAt,
      answeredAt: sentAt + 5,
      status,
      limit,
      remaining: limit - 1 - (index % limit),
      reset: Math.ceil((start + windowMs) / 1000),
    };
  });
}

describe("rateBound", () => {
  it.each([
    // requests, limit, window: (ceil(n / limit) - 1) windows, the window bounded from below by Reset's seconds
    { count: 10, limit: 10, windowMs: 6000, windows: 0 },
    { count: 11, limit: 10, windowMs: 6000, windows: 1 },
    { count: 30, limit: 10, windowMs: 6000, windows: 2 },
    { count: 31, limit: 10, windowMs: 30_000, windows: 3 },
  ])(
    "$count requests at $limit per $windowMs ms need $windows full windows",
    ({ count, limit, windowMs, windows }) => {
      const bound = rateBound(answers("a", limit, count, windowMs, 1_000_400));
      const only = bound.classes[0]!;
      expect(only.requests).toBe(count);
      expect(only.windowMs.low).toBeLessThanOrEqual(windowMs);
      expect(only.windowMs.high).toBeGreaterThanOrEqual(windowMs);
      expect(only.windowMs.low).toBeGreaterThan(windowMs - 1000);
      expect(bound.boundMs).toBeLessThanOrEqual(windows * windowMs);
      expect(bound.boundMs).toBeGreaterThan(windows * (windowMs - 1000) - 1);
      expect(bound.binding === undefined).toBe(windows === 0);
    },
  );

  it("keeps callers and limits apart, names them, and takes the largest class's bound", () => {
    const bound = rateBound([
      ...answers("run", 200, 450, 6000),
      ...answers("run", 400, 300, 6000),
      ...answers("", 200, 100, 6000),
      ...answers("minted", 10, 11, 3000),
    ]);
    expect(bound.classes.map((one) => [one.caller, one.limit, one.requests])).toEqual([
      ["run token", 200, 450],
      ["token #1", 10, 11],
      ["run token", 400, 300],
      ["client address", 200, 100],
    ]);
    expect(bound.binding?.caller).toBe("run token");
    expect(bound.boundMs).toBe(bound.classes[0]!.boundMs);
  });

  it("counts neither 429s nor answers without the headers against a limit", () => {
    const refused = answers("a", 10, 5, 6000, 1_000_000, 429);
    const bare: WireAnswer = {
      caller: "a",
      method: "GET",
      path: "/x",
      sentAt: 1,
      answeredAt: 2,
      status: 200,
    };
    const bound = rateBound([...answers("a", 10, 10, 6000), ...refused, bare]);
    expect(bound.classes.map((one) => one.requests)).toEqual([10]);
    expect(bound.boundMs).toBe(0);
  });
});

describe("provokedRateLimits", () => {
  it.each<{ bySuite: Record<string, number>; provoked: number }>([
    { bySuite: {}, provoked: 0 },
    { bySuite: { "rate-limits": 3 }, provoked: 0 },
    { bySuite: { "rate-limits": 3, filters: 1, pagination: 2 }, provoked: 3 },
  ])("$bySuite: $provoked", ({ bySuite, provoked }) => {
    expect(provokedRateLimits(bySuite)).toBe(provoked);
  });
});

describe("rateLimitedGoal", () => {
  const result = (ratio: number, provoked429: number, problems: string[] = []) => {
    const bound = rateBound(answers("run", 10, 20, 6000));
    return {
      command: "x",
      windowScale: 0.1,
      wallMs: bound.boundMs / ratio,
      bound,
      ratio,
      provoked429,
      rateLimitedBySuite: {},
      requests: 20,
      exitCode: 0,
      counts: {},
      skipped: [],
      problems,
    };
  };
  it.each([
    { ratio: 0.9, provoked: 0, problems: [], met: true },
    { ratio: 0.8, provoked: 0, problems: [], met: false },
    { ratio: 0.9, provoked: 1, problems: [], met: false },
    { ratio: 0.9, provoked: 0, problems: ["killed"], met: null },
  ])("ratio $ratio, $provoked provoked, problems $problems: $met", ({ ratio, provoked, problems, met }) => {
    expect(rateLimitedGoal(result(ratio, provoked, problems)).met).toBe(met);
  });
  it("is not judged when the section did not run", () => {
    expect(rateLimitedGoal(undefined).met).toBeNull();
  });
});
