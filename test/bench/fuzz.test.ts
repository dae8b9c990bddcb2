/**
 * Section 4's helpers: counting generated cases from the campaign's progress lines, sizing the long campaign
 * from the short one, thinning the memory timeline. No timing.
 */
import { describe, expect, it } from "vitest";
import { countCases, downsample, halfPeaks, runsFor } from "../../bench/fuzz.ts";

describe("countCases", () => {
  it("sums the runs announced by each property's progress line", () => {
    const stderr = [
      "fuzz filters: getNodeBalancers answers what the oracle says (40 runs)",
      "fuzz filters: getIPs: +and is the intersection, +or the union (40 runs)",
      "something else (99 runs) that is not a progress line",
      "fuzz filters: getEvents refuses invalid filters (12 runs)",
    ].join("\n");
    expect(countCases(stderr)).toBe(92);
  });

  it("is NaN when there is no progress line (the count is unknown, not zero)", () => {
    expect(countCases("conform: something went wrong\n")).toBeNaN();
  });
});

describe("runsFor", () => {
  it("scales the short campaign's runs to the target requests, with a 10 % margin", () => {
    expect(runsFor(50_000, { runs: 40, requests: 2800 }, 5000)).toBe(786);
  });

  it("stays within (short runs, max runs]", () => {
    expect(runsFor(50_000, { runs: 40, requests: 10 }, 5000)).toBe(5000);
    expect(runsFor(100, { runs: 40, requests: 100_000 }, 5000)).toBe(41);
    expect(runsFor(50_000, { runs: 40, requests: 0 }, 5000)).toBe(5000);
  });
});

describe("downsample", () => {
  it("keeps short series whole", () => {
    expect(downsample([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });

  it("keeps evenly spaced points, first and last included", () => {
    const thinned = downsample(
      Array.from({ length: 101 }, (_, index) => index),
      5,
    );
    expect(thinned).toEqual([0, 25, 50, 75, 100]);
  });
});

describe("halfPeaks", () => {
  const sample = (atMs: number, rssBytes: number) => ({ atMs, rssBytes, heapUsedBytes: 0 });

  it("gives the peak of each half, leaving the start-up out of the first", () => {
    const samples = [sample(0, 900), sample(10, 100), sample(40, 300), sample(60, 310), sample(100, 305)];
    expect(halfPeaks(samples, 0.1)).toEqual({ first: 300, second: 310 });
  });

  it("says NaN for a half without samples", () => {
    expect(halfPeaks([sample(0, 1)]).second).toBeNaN();
    expect(halfPeaks([]).first).toBeNaN();
  });
});
