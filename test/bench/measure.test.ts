/**
 * The bench's pure helpers: median and spread, repetitions bounded by count and by time (with a fake clock),
 * formatting and the table. No timed assertion: nothing here depends on how fast the machine is.
 */
import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatMs,
  formatRate,
  formatSummary,
  median,
  renderTable,
  repeat,
  summarize,
} from "../../bench/measure.ts";

describe("median", () => {
  it("is the middle value of an odd count, whatever the order", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([7])).toBe(7);
  });

  it("is the mean of the two middle values of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("is NaN for no values, and does not reorder its input", () => {
    expect(median([])).toBeNaN();
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe("summarize", () => {
  it("gives median, min, max, mean and the spread as (max - min) / median", () => {
    expect(summarize([90, 100, 110, 120, 80])).toEqual({
      n: 5,
      median: 100,
      min: 80,
      max: 120,
      mean: 100,
      spreadPct: 40,
    });
  });

  it("has no spread with one sample, and NaNs with none", () => {
    expect(summarize([42])).toMatchObject({ n: 1, median: 42, spreadPct: 0 });
    expect(summarize([])).toMatchObject({ n: 0, spreadPct: 0 });
    expect(summarize([]).median).toBeNaN();
  });

  it("a zero median gives a zero spread rather than Infinity", () => {
    expect(summarize([0, 0, 1]).spreadPct).toBe(0);
  });
});

describe("repeat", () => {
  it("runs the warm-up unmeasured, then the measured repetitions in order", async () => {
    const calls: number[] = [];
    const result = await repeat({ warmup: 2, reps: 3, maxMs: 1000 }, (rep) => {
      calls.push(rep);
      return rep * 10;
    });
    expect(calls).toEqual([-1, -2, 0, 1, 2]);
    expect(result).toEqual({ samples: [0, 10, 20], cutShort: false });
  });

  it("stops starting repetitions once the time budget is spent, after the minimum", async () => {
    let now = 0;
    const result = await repeat(
      { warmup: 0, reps: 10, maxMs: 250, minReps: 2 },
      () => {
        now += 100;
        return now;
      },
      () => now,
    );
    // Starts at 0; after runs 1-3 the clock reads 300 > 250, so the 4th is not started.
    expect(result).toEqual({ samples: [100, 200, 300], cutShort: true });
  });

  it("always runs the minimum, however long each takes", async () => {
    let now = 0;
    const result = await repeat(
      { warmup: 0, reps: 5, maxMs: 10, minReps: 3 },
      () => {
        now += 1000;
        return 1;
      },
      () => now,
    );
    expect(result.samples).toHaveLength(3);
    expect(result.cutShort).toBe(true);
  });
});

describe("formatting", () => {
  it("formats times, sizes and rates for the table", () => {
    expect(formatMs(1.234)).toBe("1.23 ms");
    expect(formatMs(45.67)).toBe("45.7 ms");
    expect(formatMs(456.7)).toBe("457 ms");
    expect(formatMs(2100)).toBe("2.10 s");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.50 KB");
    expect(formatBytes(150 * 1024)).toBe("150 KB");
    expect(formatBytes(1.06 * 1024 * 1024)).toBe("1.06 MB");
    expect(formatRate(12345.4)).toBe("12 345/s");
    expect(formatMs(Number.NaN)).toBe("n/a");
  });

  it("formats a summary as median (min–max, spread)", () => {
    expect(formatSummary(summarize([1, 2, 3]), (value) => `${value}`)).toBe("2 (1–3, spread 100%)");
    expect(formatSummary(summarize([5]), (value) => `${value}`)).toBe("5 (1 run)");
    expect(formatSummary(summarize([]), (value) => `${value}`)).toBe("n/a");
  });

  it("renders a table with aligned columns", () => {
    expect(
      renderTable(
        ["a", "long header"],
        [
          ["value", "1"],
          ["x", "22"],
        ],
      ),
    ).toBe(["a      long header", "-----  -----------", "value  1", "x      22"].join("\n"));
  });
});
