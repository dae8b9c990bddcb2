import { describe, expect, it } from "vitest";
import type { Exchange } from "../../src/core/exchange.ts";
import { SecretValues } from "../../src/core/redact.ts";
import { failed, passed, skipped } from "../../src/core/result.ts";
import { CaseTally } from "../../src/runner/case-tally.ts";

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
