/**
 * Runs a generated property inside a suite case: `fc.check` (never `fc.assert`: a falsified property is a result,
 * not a crash) with a seed derived from the run's, a bounded number of runs, and a bounded number of evaluations
 * (shrinking included), so a case's requests stay bounded however the target answers. A falsified property
 * records a failed `t.expect` naming it, and the case's reproduction: the seed, fast-check's path, the shrunk
 * counterexample and the `conform fuzz` command that replays it.
 *
 * Options a suite reads (`t.options`, from a config file or `conform fuzz`): `runs` (runs per property), `seed`
 * (instead of the run's seed), `progress` (a function called after each run: `(label, run, of) => void`).
 * @module
 */
import fc from "fast-check";
import type { CaseContext } from "../../../src/index.ts";

/** What a property's predicate says about one value: true, or what is wrong. */
export type Verdict = true | string;

export interface PropertyOptions<T> {
  /** The property's name, as the failed assertion reads (`property: <name>`). */
  readonly name: string;
  readonly arbitrary: fc.Arbitrary<T>;
  readonly predicate: (value: T) => Promise<Verdict>;
  /** Runs when `t.options.runs` does not say. */
  readonly defaultRuns: number;
  /** Values tried before the generated ones (edges every run must see). */
  readonly examples?: readonly T[];
  /** Evaluations allowed beyond the runs, for shrinking (default 30). */
  readonly shrinkBudget?: number;
}

export interface PropertyOutcome<T> {
  readonly passed: boolean;
  readonly runs: number;
  readonly counterexample?: T;
  readonly explanation?: string;
}

/** FNV-1a over text: a property's own seed from the run's seed and its name (stable across versions of Node). */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The run's base seed: `t.options.seed` when a number, else the run's. */
export function baseSeed(t: CaseContext): number {
  return typeof t.options.seed === "number" ? t.options.seed : t.seed;
}

/** Runs per property: `t.options.runs` when a positive integer, else the default. */
export function runsFor(t: CaseContext, fallback: number): number {
  const runs = t.options.runs;
  return typeof runs === "number" && Number.isInteger(runs) && runs > 0 ? runs : fallback;
}

/**
 * Checks properties for one case; the first one falsified gives the case its reproduction, each falsified one
 * records a failed assertion.
 */
export class PropertyRunner {
  readonly #t: CaseContext;
  readonly #campaign: string;
  #reproduced = false;

  /** `campaign`: the `conform fuzz` campaign that replays this suite (`filters`, `pagination`). */
  constructor(t: CaseContext, campaign: string) {
    this.#t = t;
    this.#campaign = campaign;
  }

  async check<T>(options: PropertyOptions<T>): Promise<PropertyOutcome<T>> {
    const t = this.#t;
    const base = baseSeed(t);
    const seed = hash32(`${base}:${options.name}`) | 0;
    const examples = options.examples ?? [];
    const runs = runsFor(t, options.defaultRuns);
    const numRuns = runs + examples.length;
    const budget = numRuns + (options.shrinkBudget ?? 30);
    const progress = typeof t.options.progress === "function" ? t.options.progress : undefined;
    let evaluations = 0;
    let explanation: string | undefined;
    const details = await fc.check(
      fc.asyncProperty(options.arbitrary, async (value) => {
        // Past the budget (or interrupted) every value "passes": shrinking stops at the smallest failure so far.
        if (evaluations >= budget || t.signal.aborted) return true;
        evaluations += 1;
        if (evaluations <= numRuns) progress?.(options.name, evaluations, numRuns);
        const verdict = await options.predicate(value);
        if (verdict === true) return true;
        explanation = verdict;
        return false;
      }),
      { seed, numRuns, examples: examples.map((example) => [example] as [T]) },
    );
    progress?.(options.name, numRuns, numRuns);
    if (!details.failed) {
      t.expect(`property: ${options.name}`, true);
      return { passed: true, runs: details.numRuns };
    }
    const counterexample = details.counterexample?.[0] as T;
    const replay = `conform fuzz ${this.#campaign} --seed ${base} --runs ${runs}${t.target.embedded ? "" : ` --base-url ${t.target.baseUrl}`}`;
    if (!this.#reproduced) {
      this.#reproduced = true;
      t.reproduce({
        seed: base,
        ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
        counterexample,
        replay,
      });
    }
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : undefined;
    t.expect(`property: ${options.name}`, false, {
      message: `${options.name}: falsified after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s): ${explanation ?? error ?? "the predicate threw"}`,
      actual: counterexample,
    });
    return { passed: false, runs: details.numRuns, counterexample, ...(explanation ? { explanation } : {}) };
  }
}
