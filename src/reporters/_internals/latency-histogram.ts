/**
 * A bounded latency histogram: fixed, roughly logarithmic buckets, so a run of a million exchanges takes the same
 * few hundred bytes as a run of ten. Percentiles are read from the buckets (the bucket's upper bound, capped by the
 * largest value seen): good to a bucket's width, which is what a report needs.
 * @internal
 */

/** Upper bounds, in ms, of every bucket but the last (which takes everything above). */
export const latencyBucketBounds: readonly number[] = Object.freeze([
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 30_000,
]);

export interface LatencyBucket {
  /** Upper bound in ms, inclusive; null for the last, unbounded bucket. */
  readonly leMs: number | null;
  readonly count: number;
}

export interface LatencySummary {
  readonly count: number;
  readonly minMs: number | null;
  readonly maxMs: number | null;
  readonly meanMs: number | null;
  readonly p50Ms: number | null;
  readonly p90Ms: number | null;
  readonly p99Ms: number | null;
  readonly buckets: readonly LatencyBucket[];
}

export class LatencyHistogram {
  readonly #counts = new Array<number>(latencyBucketBounds.length + 1).fill(0);
  #count = 0;
  #sum = 0;
  #min = Number.POSITIVE_INFINITY;
  #max = Number.NEGATIVE_INFINITY;

  record(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    let index = latencyBucketBounds.findIndex((bound) => ms <= bound);
    if (index === -1) index = latencyBucketBounds.length;
    this.#counts[index] = (this.#counts[index] ?? 0) + 1;
    this.#count += 1;
    this.#sum += ms;
    if (ms < this.#min) this.#min = ms;
    if (ms > this.#max) this.#max = ms;
  }

  /** Adds another histogram's values to this one (a copy: `new LatencyHistogram().merge(other)`). */
  merge(other: LatencyHistogram): this {
    for (const [index, count] of other.#counts.entries())
      this.#counts[index] = (this.#counts[index] ?? 0) + count;
    this.#count += other.#count;
    this.#sum += other.#sum;
    this.#min = Math.min(this.#min, other.#min);
    this.#max = Math.max(this.#max, other.#max);
    return this;
  }

  get count(): number {
    return this.#count;
  }

  /** The smallest bucket bound at or below which `fraction` of the values lie (capped by the largest value). */
  percentile(fraction: number): number | null {
    if (this.#count === 0) return null;
    const rank = Math.max(1, Math.ceil(fraction * this.#count));
    let seen = 0;
    for (const [index, count] of this.#counts.entries()) {
      seen += count;
      if (seen >= rank) return Math.min(latencyBucketBounds[index] ?? this.#max, this.#max);
    }
    return this.#max;
  }

  summary(): LatencySummary {
    const empty = this.#count === 0;
    const round = (value: number): number => Math.round(value * 1000) / 1000;
    return {
      count: this.#count,
      minMs: empty ? null : round(this.#min),
      maxMs: empty ? null : round(this.#max),
      meanMs: empty ? null : round(this.#sum / this.#count),
      p50Ms: this.percentile(0.5),
      p90Ms: this.percentile(0.9),
      p99Ms: this.percentile(0.99),
      buckets: this.#counts.map((count, index) => ({ leMs: latencyBucketBounds[index] ?? null, count })),
    };
  }
}
