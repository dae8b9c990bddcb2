/**
 * Invariants every generator's test asserts, after fast-check's own `ArbitraryAssertions.ts`: the same seed gives
 * the same values; every value is what its provenance says (valid by construction, or invalid exactly as its
 * mutation says), judged by an independent oracle; and a failing property shrinks.
 */
import fc from "fast-check";
import { expect } from "vitest";
import type { Generated } from "../../src/generators/case-meta.ts";

/** Two samples with one seed are equal; another seed gives other values. */
export function assertSameSeedSameValues<T>(arbitrary: fc.Arbitrary<T>, numRuns = 50): void {
  const first = fc.sample(arbitrary, { seed: 42, numRuns });
  const again = fc.sample(arbitrary, { seed: 42, numRuns });
  const other = fc.sample(arbitrary, { seed: 43, numRuns });
  expect(again).toEqual(first);
  expect(other).not.toEqual(first);
}

/**
 * Every generated value passes `judge` (which returns what is wrong, or undefined). Runs as a property, so a
 * failure reports the shrunk value.
 */
export function assertEveryValue<T>(
  arbitrary: fc.Arbitrary<Generated<T>>,
  judge: (generated: Generated<T>) => string | undefined,
  numRuns = 300,
): void {
  const details = fc.check(
    fc.property(arbitrary, (generated) => judge(generated) === undefined),
    { seed: 7, numRuns },
  );
  const counterexample = details.counterexample?.[0];
  expect(
    details.failed ? `${counterexample ? judge(counterexample) : ""}: ${JSON.stringify(counterexample)}` : "",
  ).toBe("");
}

/** Every scenario listed is drawn at least once in `numRuns` values. */
export function assertCovers<T>(
  arbitrary: fc.Arbitrary<Generated<T>>,
  scenarios: readonly string[],
  numRuns = 500,
  pick: (generated: Generated<T>) => string = (generated) => generated.meta.scenario,
): void {
  const seen = new Set(fc.sample(arbitrary, { seed: 11, numRuns }).map(pick));
  expect(scenarios.filter((scenario) => !seen.has(scenario))).toEqual([]);
}

/**
 * A property that fails on some values shrinks to a counterexample that still fails and is no bigger (by its JSON
 * length) than the first failure found.
 */
export function assertShrinks<T>(arbitrary: fc.Arbitrary<T>, fails: (value: T) => boolean): T {
  let firstFailure: T | undefined;
  const details = fc.check(
    fc.property(arbitrary, (value) => {
      const failing = fails(value);
      if (failing && firstFailure === undefined) firstFailure = value;
      return !failing;
    }),
    { seed: 3, numRuns: 500 },
  );
  expect(details.failed).toBe(true);
  const shrunk = details.counterexample![0];
  expect(fails(shrunk)).toBe(true);
  expect(JSON.stringify(shrunk).length).toBeLessThanOrEqual(JSON.stringify(firstFailure).length);
  return shrunk;
}
