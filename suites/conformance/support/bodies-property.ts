/**
 * Runs one generated property of a body suite against the target with fast-check's `check` (not `assert`: a
 * failure is a value the case reports, never an exception), bounded in runs and in requests, and reports it:
 * - each run returns the expectations it checked; a run with a failed one fails the property, which fast-check
 *   then shrinks (every shrink step is a real request, so shrinking stops after `shrinks` more runs and keeps the
 *   smallest failure found so far);
 * - a failing property records the expectations of its final, shrunk counterexample as the case's assertions
 *   (each pointing at that run's exchange) and the reproduction: the property's seed and path, the counterexample
 *   (write-only values redacted) and the command that replays the run;
 * - a passing property records each expectation it checked once, as passed.
 * The seed of each property derives from the run's seed and the property's key, so one property replays alone.
 *
 * Options read (`t.options`, from a config file or `conform fuzz bodies`): `runs` (bodies per operation and
 * property), `shrinks` (extra runs shrinking may spend), `seed` (instead of the run's), `progress` (called after
 * each run: `(label, run, of) => void`).
 * @module
 */
import fc from "fast-check";
import type { CaseContext, LiveResponse } from "../../../src/index.ts";

export interface Expectation {
  readonly name: string;
  readonly ok: boolean;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly message?: string;
  readonly response?: LiveResponse;
}

export interface BodyProperty<T> {
  /** Unique within the suite: the seed derives from it (e.g. `one-rule:createNodeBalancer`). */
  readonly key: string;
  readonly arbitrary: fc.Arbitrary<T>;
  readonly runs: number;
  /** Sends one generated value and says what held. Call `fc.pre(false)` to skip a value the target cannot take now. */
  run(value: T): Promise<readonly Expectation[]>;
  /** What the report may show of a value (write-only fields redacted). */
  readonly show?: (value: T) => unknown;
}

/** Declares a property (its type parameter inferred from the arbitrary, so `run` gets typed values). */
export function bodyProperty<T>(property: BodyProperty<T>): BodyProperty<T> {
  return property;
}

export interface BodySettings {
  /** Generated bodies per operation and property (`suiteOptions.runs`). */
  readonly runs: number;
  /** Extra runs shrinking may spend after a failure (`suiteOptions.shrinks`). */
  readonly shrinks: number;
  /** The seed properties derive theirs from (`suiteOptions.seed`, else the run's). */
  readonly seed: number;
  readonly progress: ((label: string, run: number, of: number) => void) | undefined;
}

/** `suiteOptions.runs` and `suiteOptions.shrinks`, with small defaults that keep `npm start` quick. */
export function bodySettings(t: CaseContext, defaultRuns: number): BodySettings {
  const number = (key: string) => {
    const value = t.options[key];
    return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
  };
  const seed = t.options.seed;
  const progress = t.options.progress;
  return {
    runs: Math.max(1, number("runs") ?? defaultRuns),
    shrinks: number("shrinks") ?? 20,
    seed: typeof seed === "number" && Number.isInteger(seed) ? seed : t.seed,
    progress: typeof progress === "function" ? (progress as BodySettings["progress"]) : undefined,
  };
}

/** A 32-bit seed from the run's seed and a key (FNV-1a). */
export function seedFor(seed: number, key: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed}:${key}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

export interface PropertyOutcome {
  readonly failed: boolean;
  readonly reproduction?: { seed: number; path?: string; counterexample?: unknown; replay?: string };
}

/** Runs the property and records its assertions; answers whether it failed (and how to reproduce it). */
export async function checkProperty<T>(
  t: CaseContext,
  settings: BodySettings,
  property: BodyProperty<T>,
): Promise<PropertyOutcome> {
  const seed = seedFor(settings.seed, property.key);
  const budget = property.runs + settings.shrinks;
  const checked = new Map<string, Expectation>();
  let executions = 0;
  let last: { value: T; expectations: readonly Expectation[] } | { value: T; error: unknown } | undefined;
  const details = await fc.check(
    fc.asyncProperty(property.arbitrary, async (value) => {
      // Budget spent (or the run interrupted): treat further shrink candidates as passing, so fast-check keeps
      // the smallest failure it already has.
      if (executions >= budget || t.signal.aborted) return true;
      executions += 1;
      if (executions <= property.runs) settings.progress?.(property.key, executions, property.runs);
      let expectations: readonly Expectation[];
      try {
        expectations = await property.run(value);
      } catch (error) {
        if (fc.PreconditionFailure.isFailure(error)) throw error;
        last = { value, error };
        throw error;
      }
      for (const expectation of expectations)
        if (!checked.has(expectation.name)) checked.set(expectation.name, expectation);
      if (expectations.every((expectation) => expectation.ok)) return true;
      last = { value, expectations };
      return false;
    }),
    { seed, numRuns: property.runs, maxSkipsPerRun: 20 },
  );
  if (details.failed && !last) {
    if (details.errorInstance) throw details.errorInstance;
    // Every generated value was skipped (fc.pre): nothing was judged, which must not pass silently.
    t.expect(`${property.key}: generated bodies could be sent`, false, {
      message: `fast-check skipped every value (${details.numSkips} skipped): the target's state refused them all`,
    });
    return { failed: true };
  }
  if (!details.failed || !last) {
    for (const expectation of checked.values())
      t.expect(expectation.name, true, { response: expectation.response });
    return { failed: false };
  }
  if ("error" in last) throw last.error;
  for (const expectation of last.expectations) {
    t.expect(expectation.name, expectation.ok, {
      expected: expectation.expected,
      actual: expectation.actual,
      ...(expectation.message === undefined ? {} : { message: expectation.message }),
      ...(expectation.response === undefined ? {} : { response: expectation.response }),
    });
  }
  const reproduction = {
    seed: details.seed,
    ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
    counterexample: property.show ? property.show(last.value) : last.value,
    // The campaign replays every body property with this seed; this one's values come out the same.
    replay: `conform fuzz bodies --seed ${settings.seed} --runs ${settings.runs}${t.target.embedded ? "" : ` --base-url ${t.target.baseUrl} --allow-writes`}`,
  };
  t.log(
    `${property.key}: failed after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s); seed ${details.seed}, path ${details.counterexamplePath}`,
  );
  return { failed: true, reproduction };
}

/** Runs properties one after another; the case's reproduction is the first failing one's (the others are logged). */
export async function checkProperties<T>(
  t: CaseContext,
  settings: BodySettings,
  properties: readonly BodyProperty<T>[],
): Promise<void> {
  let reproduced = false;
  for (const property of properties) {
    const outcome = await checkProperty(t, settings, property);
    if (outcome.failed && outcome.reproduction && !reproduced) {
      t.reproduce(outcome.reproduction);
      reproduced = true;
    } else if (outcome.reproduction)
      t.log(`also failing: ${property.key} ${JSON.stringify(outcome.reproduction)}`);
  }
}
