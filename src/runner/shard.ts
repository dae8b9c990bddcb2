/**
 * `--shard i/n`: a deterministic split of the selected suites over `n` machines. Suites stay whole (their cases
 * share state). The split depends only on the selection and the weights, so every machine computes the same one:
 * suites are weighed by their duration in an earlier report (`--durations report.json`) when it names them, by
 * their case count otherwise (a suite the report does not name weighs its cases times the report's mean per case),
 * then given, heaviest first, to the lightest shard so far (ties: the lower shard, the suite id).
 * @module
 */
import { ConfigError } from "../core/errors.ts";

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n); a ConfigError naming the option otherwise. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || !(count >= 1) || !(index >= 1) || index > count || count > 1000)
    throw new ConfigError(`--shard ${text}: give i/n with 1 ≤ i ≤ n ≤ 1000 (e.g. 1/2)`);
  return { index, count };
}

export interface Shardable {
  readonly id: string;
  readonly cases: { readonly length: number };
}

/** Each suite's weight: its earlier duration in ms when known, else its cases (scaled by the mean ms per case). */
export function suiteWeights(
  suites: readonly Shardable[],
  durations: ReadonlyMap<string, { readonly durationMs: number; readonly cases: number }> | undefined,
): Map<string, number> {
  const known = [...(durations?.values() ?? [])];
  const knownCases = known.reduce((sum, one) => sum + one.cases, 0);
  const perCase = knownCases > 0 ? known.reduce((sum, one) => sum + one.durationMs, 0) / knownCases : 1;
  return new Map(
    suites.map((suite) => {
      const earlier = durations?.get(suite.id);
      // At least 1 ms: suites that took no time (all skipped) still spread over the shards.
      return [
        suite.id,
        Math.max(1, earlier ? earlier.durationMs : Math.max(1, suite.cases.length) * perCase),
      ];
    }),
  );
}

/** Which shard (1-based) each suite goes to. */
export function assignShards(
  suites: readonly Shardable[],
  count: number,
  weights: ReadonlyMap<string, number>,
): Map<string, number> {
  const loads = Array.from({ length: count }, () => 0);
  const order = [...suites].sort(
    (a, b) => (weights.get(b.id) ?? 0) - (weights.get(a.id) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const assigned = new Map<string, number>();
  for (const suite of order) {
    let lightest = 0;
    for (let shard = 1; shard < count; shard++) if (loads[shard]! < loads[lightest]!) lightest = shard;
    loads[lightest]! += weights.get(suite.id) ?? 0;
    assigned.set(suite.id, lightest + 1);
  }
  return assigned;
}

/** The suites of `shard`, in their original order. */
export function suitesOfShard<T extends Shardable>(
  suites: readonly T[],
  shard: Shard,
  durations?: ReadonlyMap<string, { readonly durationMs: number; readonly cases: number }>,
): T[] {
  const assigned = assignShards(suites, shard.count, suiteWeights(suites, durations));
  return suites.filter((suite) => assigned.get(suite.id) === shard.index);
}
