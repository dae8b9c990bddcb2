import { describe, expect, it } from "vitest";
import { BoundedMemo } from "../../src/core/bounded-memo.ts";

describe("BoundedMemo", () => {
  it.each<[string, (key: string) => unknown]>([
    ["a value", (key) => key.length],
    ["undefined", () => undefined],
    ["false", () => false],
  ])("computes each key once and remembers the answer (%s)", (_name, answer) => {
    const memo = new BoundedMemo<string, unknown>(10);
    let computed = 0;
    const ask = (key: string) =>
      memo.get(key, () => {
        computed += 1;
        return answer(key);
      });
    expect([ask("a"), ask("bb"), ask("a"), ask("bb")]).toEqual([
      answer("a"),
      answer("bb"),
      answer("a"),
      answer("bb"),
    ]);
    expect(computed).toBe(2);
  });

  it("empties itself when full, then computes again and stays right", () => {
    const memo = new BoundedMemo<number, number>(2);
    let computed = 0;
    const square = (key: number) =>
      memo.get(key, () => {
        computed += 1;
        return key * key;
      });
    expect([1, 2, 3, 1, 2, 3].map(square)).toEqual([1, 4, 9, 1, 4, 9]);
    expect(memo.size).toBeLessThanOrEqual(2);
    expect(computed).toBeGreaterThan(3);
  });
});
