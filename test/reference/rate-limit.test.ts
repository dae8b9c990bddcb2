/**
 * Rate limits by class of caller (rate-limit.ts) and the embedded target's settings (runner/target.ts): the
 * server's own token under its own rules, tokens under the description's with shrunk windows, addresses apart.
 */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/reference/clock.ts";
import {
  describedRateLimits,
  RateLimiter,
  scaleRateWindows,
  uniformRateLimits,
} from "../../src/reference/rate-limit.ts";
import { embeddedRateLimits, embeddedTimeScale } from "../../src/runner/target.ts";
import type { OperationInfo } from "../../src/spec/types.ts";
import { bundledSpec, startReference } from "../helpers/reference.ts";

const spec = await bundledSpec();
const operation = (id: string) => spec.operations.byId(id) as OperationInfo;

describe("rate-limit windows", () => {
  it.each([
    [1, { general: 60_000, list: 60_000, createInstance: 30_000 }],
    [0.02, { general: 1200, list: 1200, createInstance: 1000 }],
    [0.001, { general: 1000, list: 1000, createInstance: 1000 }],
  ])("scale %s keeps the limits and shrinks the windows, never below 1 s", (scale, windows) => {
    const scaled = scaleRateWindows(describedRateLimits, scale);
    expect(scaled.general).toEqual({ limit: 400, windowMs: windows.general });
    expect(scaled.list).toEqual({ limit: 200, windowMs: windows.list });
    expect(scaled.createInstance).toEqual({ limit: 10, windowMs: windows.createInstance });
  });

  it("the embedded target keeps the description's limits in windows shrunk by its time scale", () => {
    expect(embeddedRateLimits.rateLimits).toEqual(scaleRateWindows(describedRateLimits, embeddedTimeScale));
  });
});

describe("rate limits by class of caller", () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter(
    {
      token: uniformRateLimits(2, 1000),
      address: uniformRateLimits(3, 1000),
      own: uniformRateLimits(100, 1000),
      ownKey: "token:1",
    },
    clock,
  );
  const spend = (caller: string, count: number) =>
    Array.from({ length: count }, () => limiter.take(caller, operation("getProfile")).allowed);

  it.each([
    ["a token", "token:2", 2],
    ["an address", "ip:127.0.0.1", 3],
    ["the server's own token", "token:1", 100],
  ])("%s is refused past its own class's limit", (_name, caller, limit) => {
    expect(spend(caller, limit + 1)).toEqual([...Array(limit).fill(true), false]);
  });

  it("a swapped decision (a fault) can let everything through", () => {
    const lenient = new RateLimiter(
      {
        token: uniformRateLimits(1, 1000),
        address: uniformRateLimits(1, 1000),
        own: uniformRateLimits(1, 1000),
      },
      clock,
      () => () => true,
    );
    const decisions = [1, 2, 3].map(() => lenient.take("token:9", operation("getProfile")));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true]);
    expect(decisions.map((decision) => decision.remaining)).toEqual([0, 0, 0]);
  });
});

describe("the embedded settings on a server", async () => {
  const harness = await startReference(embeddedRateLimits);

  it("the server's own token is never paced; a minted token gets the description's creation limit", async () => {
    const own = await harness.call("POST", "/compute/instances", { json: {}, unchecked: true });
    expect(own.headers["x-ratelimit-limit"]).toBe("1000000000");
    const minted = await harness.call("POST", "/profile/tokens", { json: { scopes: "computes:read_write" } });
    const limited = await harness.call("POST", "/compute/instances", {
      json: {},
      token: minted.body.token,
      unchecked: true,
    });
    expect(limited.headers["x-ratelimit-limit"]).toBe("10");
    expect(Number(limited.headers["x-ratelimit-reset"]) * 1000 - Date.now()).toBeLessThanOrEqual(2000);
    const anonymous = await harness.call("GET", "/regions", { token: null });
    expect(anonymous.headers["x-ratelimit-limit"]).toBe("1000000");
  });
});
