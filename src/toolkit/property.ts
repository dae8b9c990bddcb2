/**
 * The one property runner of the suites: runs a generated property inside a case with `fc.check` (never
 * `fc.assert`: a falsified property is a result, not a crash), a seed derived from the run's seed and the
 * property's name (so one property replays alone), a bounded number of runs and a bounded number of evaluations
 * (shrinking included: every shrink step is a real request), progress through the run's hook, and a replay line.
 *
 * A property's predicate answers either a verdict (`true`, or what is wrong) or the expectations it checked:
 * - passing, each distinct expectation it checked is recorded once as passed (a verdict: `property: <name>`);
 * - falsified, the expectations of the final, shrunk counterexample are recorded (each pointing at its own
 *   exchange; a verdict at the exchange its {@link Falsified} names: the request that answered wrongly) and the
 *   case's reproduction: the seed, fast-check's path, the counterexample and the command that replays this one
 *   property from that path (`conform fuzz <campaign> --property <suite>/<case>/<name> --path <path>`). The first
 *   falsified property of a case gives the reproduction; later ones are logged;
 * - interrupted (the run's signal), nothing: the case ends skipped by the property and `interrupted` by the engine.
 *
 * A verdict that names its root cause ({@link Falsified.cause}) is recorded under the cause's name, not the
 * property's. With `--baseline`, a value whose failure a known cause explains counts as passing while the search
 * goes on (so a second defect in the same area is found, not hidden behind the known one); when no other defect
 * turns up, the known one is recorded as it was found, so it stays known rather than reported fixed.
 *
 * A run that replays one property (`t.replay`) runs that property alone, from fast-check's path; every other
 * property is not run (logged once per runner).
 * @module
 */
import fc from "fast-check";
import { shellQuote } from "../core/shell-quote.ts";
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { causeName, knownCause, type RootCause } from "./root-cause.ts";

/**
 * What is wrong with one value, with what shows it: the response that answered wrongly (the failure points at its
 * request, so its curl line shows the defect), and what was expected against what came back (without `actual`,
 * the counterexample stands for it).
 */
export interface Falsified {
  readonly message: string;
  readonly response?: LiveResponse;
  readonly expected?: unknown;
  readonly actual?: unknown;
  /**
   * What failed, apart from the property that found it: the falsification is recorded under its name (one failure
   * group whichever property or seed finds the defect), and with `--baseline` a known cause is passed over while
   * the property searches on for another defect.
   */
  readonly cause?: RootCause;
}

/** What a predicate says about one value: true, or what is wrong (in a line, or with what shows it). */
export type Verdict = true | string | Falsified;

/** One thing a property run checked, recorded as an assertion of the case. */
export interface Expectation {
  readonly name: string;
  readonly ok: boolean;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly message?: string;
  readonly response?: LiveResponse;
}

export interface PropertyOptions<T> {
  /** Unique within the case: the seed derives from it, and a verdict's assertion reads `property: <name>`. */
  readonly name: string;
  readonly arbitrary: fc.Arbitrary<T>;
  /** Runs when the run does not ask for a number (`conform fuzz --runs`, `suiteOptions.runs`). */
  readonly defaultRuns: number;
  /** At most this many runs whatever the run asks (operations rate-limited apart, billed ones). */
  readonly maxRuns?: number;
  /** Values tried before the generated ones (edges every run must see). */
  readonly examples?: readonly T[];
  /** Evaluations allowed beyond the runs, for shrinking (default 30; `suiteOptions.shrinks` wins). */
  readonly shrinks?: number;
  /** Sends one value and judges it. `fc.pre(false)` skips a value the target cannot take now. */
  readonly predicate: (value: T) => Promise<Verdict | readonly Expectation[]>;
  /** What a report may show of a value (write-only fields redacted). */
  readonly show?: (value: T) => unknown;
  /**
   * Narrows the root cause of the falsification it records to the part of the input at fault (a filter's smallest
   * part the target still answers wrongly), so the same defect is named the same whatever else the shrunk value
   * still holds. Called once per recorded falsification, not during the search.
   */
  readonly narrow?: (cause: RootCause) => Promise<RootCause>;
}

export interface PropertyOutcome<T> {
  readonly passed: boolean;
  /** False when no value could be judged (each skipped with `fc.pre`): nothing is recorded for the property. */
  readonly judged: boolean;
  readonly runs: number;
  readonly counterexample?: T;
}

/** FNV-1a over text: a property's own seed from the run's seed and its name (stable across versions of Node). */
export function propertySeed(base: number, name: string): number {
  let hash = 0x811c9dc5;
  const text = `${base}:${name}`;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

function isExpectations(said: Verdict | readonly Expectation[]): said is readonly Expectation[] {
  return Array.isArray(said);
}

/** A verdict that is not `true` as a {@link Falsified}; undefined for `true`. */
function falsifiedOf(verdict: Verdict): Falsified | undefined {
  if (verdict === true) return undefined;
  return typeof verdict === "string" ? { message: verdict } : verdict;
}

const knownFalsified = "falsified by a defect the baseline knows (passed over while searching for another)";

/** What a falsified value showed: the expectations checked and the verdict, if the predicate gave one. */
interface Falsification {
  readonly expectations: readonly Expectation[];
  readonly verdict?: Falsified;
}

/** What the search for a counterexample has seen so far. */
interface Search<T> {
  evaluations: number;
  /** Every expectation checked, the first of each name. */
  readonly checked: Map<string, Expectation>;
  /** The last falsification (fast-check shrinks towards the smallest). */
  last?: Falsification;
  /** The first falsification by a defect the baseline knows, passed over. */
  known?: Falsification & { readonly value: T };
  thrown?: { readonly error: unknown };
}

function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Checks properties for one case; `campaign` is the `conform fuzz` campaign of the suite (its replay line).
 */
export class PropertyRunner {
  readonly #t: CaseContext;
  readonly #campaign: string;
  #reproduced = false;
  #notReplayedLogged = false;

  constructor(t: CaseContext, campaign: string) {
    this.#t = t;
    this.#campaign = campaign;
  }

  /** Checks each property in turn (bodies per operation, one property each). */
  async checkAll<T>(properties: readonly PropertyOptions<T>[]): Promise<void> {
    for (const property of properties) await this.check(property);
  }

  async check<T>(options: PropertyOptions<T>): Promise<PropertyOutcome<T>> {
    const t = this.#t;
    if (t.replay && !this.#replays(options.name)) return this.#notReplayed(t.replay);
    // What the run asks for (a positive integer, checked by the engine), else the property's default.
    const asked = t.propertyRuns ?? options.defaultRuns;
    const runs = Math.min(asked, options.maxRuns ?? Number.POSITIVE_INFINITY);
    const examples = options.examples ?? [];
    const numRuns = runs + examples.length;
    const budget = numRuns + (nonNegativeInteger(t.options.shrinks) ?? options.shrinks ?? 30);
    const search: Search<T> = { evaluations: 0, checked: new Map() };
    const details = await fc.check(
      fc.asyncProperty(options.arbitrary, (value) =>
        this.#judge(options, search, { numRuns, budget }, value),
      ),
      {
        seed: propertySeed(t.seed, options.name),
        numRuns,
        maxSkipsPerRun: 20,
        examples: examples.map((example) => [example] as [T]),
        // Replaying: straight to the counterexample fast-check's path leads to (shrinking goes on from there).
        ...(t.replay?.path ? { path: t.replay.path } : {}),
      },
    );
    t.hooks.progress?.(options.name, numRuns, numRuns);
    // Interrupted: nothing of the property is judged, neither a pass nor a counterexample (the failure fast-check
    // saw may be the abandoned request itself); the case ends `interrupted`.
    if (t.signal.aborted) return t.skip(`the run was interrupted during ${options.name}: not judged`);
    return this.#conclude(options, asked, search, details);
  }

  #notReplayed(replay: NonNullable<CaseContext["replay"]>): PropertyOutcome<never> {
    if (!this.#notReplayedLogged) {
      this.#notReplayedLogged = true;
      this.#t.log(`properties not run: the run replays ${replay.suite}/${replay.case}/${replay.property}`);
    }
    return { passed: false, judged: false, runs: 0 };
  }

  /** Judges one generated value: true when it passes (or is passed over), false when it falsifies the property. */
  async #judge<T>(
    options: PropertyOptions<T>,
    search: Search<T>,
    limits: { readonly numRuns: number; readonly budget: number },
    value: T,
  ): Promise<boolean> {
    const t = this.#t;
    // Past the budget (or interrupted) every value "passes": shrinking stops at the smallest failure so far.
    if (search.evaluations >= limits.budget || t.signal.aborted) return true;
    search.evaluations += 1;
    if (search.evaluations <= limits.numRuns)
      t.hooks.progress?.(options.name, search.evaluations, limits.numRuns);
    let said: Verdict | readonly Expectation[];
    try {
      said = await options.predicate(value);
    } catch (error) {
      // A value skipped with fc.pre sent nothing: it does not spend the budget.
      if (fc.PreconditionFailure.isFailure(error)) search.evaluations -= 1;
      else search.thrown = { error };
      throw error;
    }
    const verdict = isExpectations(said) ? undefined : falsifiedOf(said);
    const expectations = isExpectations(said)
      ? said
      : [{ name: `property: ${options.name}`, ok: said === true } satisfies Expectation];
    for (const expectation of expectations)
      if (!search.checked.has(expectation.name)) search.checked.set(expectation.name, expectation);
    if (expectations.every((expectation) => expectation.ok)) return true;
    if (verdict?.cause && knownCause(t, verdict.cause)) {
      // A known defect: kept to report, passed over so the search goes on for another one.
      search.known ??= { expectations, verdict, value };
      return true;
    }
    search.last = { expectations, ...(verdict ? { verdict } : {}) };
    return false;
  }

  /** What the search found, recorded: the expectations passed, or the counterexample (and a known defect passed over). */
  async #conclude<T>(
    options: PropertyOptions<T>,
    asked: number,
    search: Search<T>,
    details: fc.RunDetails<[T]>,
  ): Promise<PropertyOutcome<T>> {
    const t = this.#t;
    const { checked, known, last, thrown } = search;
    if (!details.failed && checked.size > 0) {
      for (const expectation of checked.values())
        t.expect(expectation.name, true, expectation.response ? { response: expectation.response } : {});
      // A known defect passed over, and no other found: recorded as found, so it stays known (not "fixed").
      if (known) await this.#record(options, asked, known, known.value, knownFalsified);
      return { passed: !known, judged: true, runs: details.numRuns };
    }
    if (thrown && !last) throw thrown.error;
    if (!last) {
      // Every value was skipped (fc.pre, each with its reason in the log): nothing was judged, so nothing is
      // recorded, neither a pass nor a failure. A case left with no assertion at all is skipped by the engine.
      t.log(`${options.name}: not judged: every generated value was skipped (${details.numSkips})`);
      return { passed: false, judged: false, runs: details.numRuns };
    }
    const counterexample = details.counterexample?.[0] as T;
    const falsified = `falsified after ${details.numRuns} run(s) and ${details.numShrinks} shrink(s)`;
    const path = details.counterexamplePath ?? undefined;
    await this.#record(options, asked, last, counterexample, falsified, path);
    if (known) await this.#record(options, asked, known, known.value, knownFalsified);
    return { passed: false, judged: true, runs: details.numRuns, counterexample };
  }

  /**
   * Records a falsification's expectations with its reproduction: a verdict that names its root cause under the
   * cause's name (its failure group is the defect's, whichever property found it), the others under their own.
   */
  async #record<T>(
    options: PropertyOptions<T>,
    asked: number,
    falsification: Falsification,
    counterexample: T,
    falsified: string,
    path?: string,
  ): Promise<void> {
    const t = this.#t;
    const shown = options.show ? options.show(counterexample) : counterexample;
    const reproduction = {
      seed: t.seed,
      ...(path ? { path } : {}),
      counterexample: shown,
      replay: this.#replay(asked, options.name, path),
    };
    for (const expectation of falsification.expectations) {
      const verdict = expectation.ok ? undefined : falsification.verdict;
      if (verdict) {
        const cause = verdict.cause && options.narrow ? await options.narrow(verdict.cause) : verdict.cause;
        // The verdict's own exchange (the request that answered wrongly), else the case's latest one.
        t.expect(cause ? causeName(cause) : expectation.name, false, {
          expected: verdict.expected,
          actual: "actual" in verdict ? verdict.actual : shown,
          // The assertion's name is the property's (or the cause's): the message says what happened.
          message: `${cause ? `${options.name} ` : ""}${falsified}: ${verdict.message}`,
          ...(verdict.response === undefined ? {} : { response: verdict.response }),
          reproduction,
        });
        continue;
      }
      t.expect(expectation.name, expectation.ok, {
        expected: expectation.expected,
        actual: expectation.actual,
        ...(expectation.message === undefined ? {} : { message: expectation.message }),
        ...(expectation.response === undefined ? {} : { response: expectation.response }),
        reproduction,
      });
    }
    // Each failure carries its own reproduction; the case's is its first falsified property's.
    if (!this.#reproduced) {
      this.#reproduced = true;
      t.reproduce(reproduction);
    }
  }

  /** Whether the run's replay names this case and property. */
  #replays(name: string): boolean {
    const { replay, suiteId, caseId } = this.#t;
    return replay?.suite === suiteId && replay.case === caseId && replay.property === name;
  }

  /**
   * The command that replays this one property with the same seed and runs, straight from fast-check's `path` to
   * the counterexample (the same values come out); every value shell-quoted, so it works as printed.
   */
  #replay(runs: number, name: string, path: string | undefined): string {
    const { target, suiteId, caseId } = this.#t;
    const where = target.embedded
      ? ""
      : ` --base-url ${shellQuote(target.baseUrl)}${target.writesAllowed ? " --allow-writes" : ""}`;
    const property = ` --property ${shellQuote(`${suiteId}/${caseId}/${name}`)}`;
    const from = path ? ` --path ${shellQuote(path)}` : "";
    return `conform fuzz ${shellQuote(this.#campaign)} --seed ${this.#t.seed} --runs ${runs}${property}${from}${where}`;
  }
}
