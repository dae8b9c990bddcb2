import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.ts";
import { assignShards, parseShard, suitesOfShard, suiteWeights } from "../../src/runner/shard.ts";

const suite = (id: string, cases: number) => ({ id, cases: { length: cases } });
const suites = [suite("a", 10), suite("b", 1), suite("c", 4), suite("d", 4), suite("e", 2)];

describe("parseShard", () => {
  it.each([
    ["1/2", { index: 1, count: 2 }],
    [" 3 / 3 ", { index: 3, count: 3 }],
  ])("reads %j", (text, shard) => {
    expect(parseShard(text)).toEqual(shard);
  });

  it.each(["0/2", "3/2", "1/0", "a/b", "1", "1/2/3", "-1/2"])("refuses %j naming the option", (text) => {
    expect(() => parseShard(text)).toThrow(ConfigError);
    expect(() => parseShard(text)).toThrow(/--shard/);
  });
});

describe("sharding", () => {
  it("puts every suite in exactly one shard, whole", () => {
    for (const count of [1, 2, 3, 5, 7]) {
      const ids = Array.from({ length: count }, (_, index) =>
        suitesOfShard(suites, { index: index + 1, count }).map((one) => one.id),
      ).flat();
      expect(ids.sort()).toEqual(["a", "b", "c", "d", "e"]);
    }
  });

  it("is the same whatever order the suites were found in", () => {
    const reversed = [...suites].reverse();
    for (const index of [1, 2, 3])
      expect(
        suitesOfShard(reversed, { index, count: 3 })
          .map((one) => one.id)
          .sort(),
      ).toEqual(
        suitesOfShard(suites, { index, count: 3 })
          .map((one) => one.id)
          .sort(),
      );
  });

  it("balances by case count without durations", () => {
    const assigned = assignShards(suites, 2, suiteWeights(suites, undefined));
    const load = (shard: number) =>
      suites.filter((one) => assigned.get(one.id) === shard).reduce((sum, one) => sum + one.cases.length, 0);
    // a (10) to shard 1; c, d, e (4 + 4 + 2) to shard 2; b (1) to the lower of two equal loads.
    expect([load(1), load(2)]).toEqual([11, 10]);
  });

  it("balances by an earlier report's durations, and weighs suites it does not name by its mean per case", () => {
    const durations = new Map([
      ["b", { durationMs: 9000, cases: 1 }],
      ["a", { durationMs: 1000, cases: 10 }],
    ]);
    const weights = suiteWeights(suites, durations);
    expect(weights.get("b")).toBe(9000);
    // (9000 + 1000) ms over 11 cases, times 4 cases.
    expect(weights.get("c")).toBeCloseTo((10_000 / 11) * 4);
    const assigned = assignShards(suites, 2, weights);
    expect(assigned.get("b")).not.toBe(assigned.get("c"));
    // b (9000 ms) alone, then c, d, e (about 9091 ms) on the other; a (1000 ms) joins b's lighter shard.
    expect(suites.filter((one) => assigned.get(one.id) === assigned.get("b")).map((one) => one.id)).toEqual([
      "a",
      "b",
    ]);
  });
});
