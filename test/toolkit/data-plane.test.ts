import { describe, expect, it } from "vitest";
import type { CaseContext } from "../../src/runner/suite-api.ts";
import { balancerStandIn, dataPlane, endpointOf } from "../../src/toolkit/data-plane.ts";

/** Only what `dataPlane` reads of a case's context. */
function contextFor(baseUrl: string, embedded: boolean, options: Record<string, unknown> = {}): CaseContext {
  return {
    target: { baseUrl, authUrl: baseUrl, embedded, writesAllowed: true },
    options,
  } as unknown as CaseContext;
}

describe("dataPlane: where a run reaches a load balancer", () => {
  it.each([
    // target, embedded, --data-plane, balancer ipv4, host connected to (or the skip reason)
    ["https://127.0.0.1:1/v4", true, false, "198.18.3.1", "127.18.3.1"],
    ["https://127.0.0.1:1/v4", false, true, "198.18.3.1", "127.18.3.1"],
    ["https://api.example.net/v4", false, true, "203.0.113.5", "203.0.113.5"],
    ["https://127.0.0.1:1/v4", false, false, "198.18.3.1", /pass --data-plane/],
    ["https://api.example.net/v4", false, false, "203.0.113.5", /pass --data-plane/],
    ["https://127.0.0.1:1/v4", true, false, "203.0.113.5", undefined],
  ] as const)("%s (embedded %s, --data-plane %s): %s -> %s", (baseUrl, embedded, optIn, ipv4, expected) => {
    const plane = dataPlane(contextFor(baseUrl, embedded, optIn ? { dataPlane: true } : {}));
    if (expected instanceof RegExp) {
      expect(plane.unavailable).toMatch(expected);
      expect(plane.hostFor(ipv4)).toBeUndefined();
    } else {
      expect(plane.unavailable).toBeUndefined();
      expect(plane.hostFor(ipv4)).toBe(expected);
    }
  });

  it.each([
    ["127.18.3.1", 80, 20080],
    ["127.18.3.1", 443, 20443],
    ["127.18.3.1", 8080, 8080],
    ["203.0.113.5", 80, 80],
  ])("reaches %s port %i at port %i (a stand-in serves ports below 1024 20000 higher)", (host, port, at) => {
    expect(endpointOf(host, port)).toEqual({ host, port: at });
  });

  it("maps only 198.18.X.Y to its stand-in", () => {
    expect(balancerStandIn("198.18.0.1")).toBe("127.18.0.1");
    expect(balancerStandIn("198.19.0.1")).toBeUndefined();
  });
});
