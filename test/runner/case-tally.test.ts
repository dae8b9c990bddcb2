import { describe, expect, it } from "vitest";
import type { Exchange } from "../../src/core/exchange.ts";
import { SecretValues } from "../../src/core/redact.ts";
import { failed, passed, skipped } from "../../src/core/result.ts";
import { CaseTally, KeptBodies } from "../../src/runner/case-tally.ts";

const exchange = (id: number) => ({ id }) as Exchange;

describe("case tally", () => {
  it("counts passes, keeps failures with their exchange, and each distinct skip once", () => {
    const tally = new CaseTally(new SecretValues());
    for (let id = 1; id <= 10_000; id += 1) {
      tally.add({ checkId: "a", exchangeId: id, outcome: passed }, exchange(id));
      tally.add({ checkId: "b", exchangeId: id, outcome: skipped("does not apply") }, exchange(id));
    }
    tally.add({ checkId: "c", exchangeId: 7, outcome: failed("wrong") }, exchange(7));
    expect(tally.passed).toBe(10_000);
    expect(tally.failed).toBe(true);
    expect(tally.notable.map((result) => [result.checkId, result.outcome.status, result.exchangeId])).toEqual(
      [
        ["c", "failed", 7],
        ["b", "skipped", undefined],
      ],
    );
    expect(tally.exchanges.map((kept) => kept.id)).toEqual([7]);
  });

  it("counts a pass given without its result like one given with it", () => {
    const tally = new CaseTally(new SecretValues());
    tally.countPass();
    tally.add({ checkId: "a", exchangeId: 1, outcome: passed }, exchange(1));
    tally.countPass();
    expect(tally.passed).toBe(3);
    expect(tally.failed).toBe(false);
    expect(tally.notable).toEqual([]);
    expect(tally.exchanges).toEqual([]);
  });

  it("scrubs known secrets from what a failure quotes", () => {
    const secrets = new SecretValues();
    secrets.add("s3cret-token-value");
    const tally = new CaseTally(secrets);
    tally.add(
      { checkId: "assert:x", exchangeId: undefined, outcome: failed("got s3cret-token-value") },
      undefined,
    );
    expect(JSON.stringify(tally.notable)).not.toContain("s3cret-token-value");
    expect(tally.exchanges).toEqual([]);
  });
});

describe("kept bodies", () => {
  const answered = (id: number, text: string) =>
    ({
      id,
      response: { status: 500, headers: {}, text, json: { x: text }, truncated: false, bytes: text.length },
    }) as unknown as Exchange;

  it.each([
    ["within both bounds: kept whole", 10, 100, ["a".repeat(8)], [[8, false, true]]],
    ["above the per-exchange bound: cut, JSON dropped", 4, 100, ["a".repeat(8)], [[4, true, false]]],
    [
      "past the run's budget: the next bodies are cut, then dropped",
      8,
      12,
      ["a".repeat(8), "b".repeat(8), "c".repeat(8)],
      [
        [8, false, true],
        [4, true, false],
        [0, true, false],
      ],
    ],
  ] as const)("%s", (_name, perExchange, perRun, texts, expected) => {
    const bodies = new KeptBodies(perExchange, perRun);
    const kept = texts.map((text, index) => bodies.keep(answered(index + 1, text)));
    expect(
      kept.map((e) => [e.response?.text.length, e.response?.truncated, e.response?.json !== undefined]),
    ).toEqual(expected);
    // The size that came is still said.
    expect(kept.map((e) => e.response?.bytes)).toEqual(texts.map((text) => text.length));
  });

  it("applies to the exchanges a tally keeps for failures", () => {
    const tally = new CaseTally(new SecretValues(), undefined, new KeptBodies(3, 100));
    tally.add({ checkId: "c", exchangeId: 1, outcome: failed("wrong") }, answered(1, "abcdef"));
    expect(tally.exchanges[0]?.response).toMatchObject({ text: "abc", truncated: true, bytes: 6 });
  });
});
