/**
 * The bench's measuring kit: summary statistics over repetitions (median and spread), repetitions bounded by
 * count and by time, the machine's description, and number formatting for the table. Pure helpers are tested in
 * `test/bench/measure.test.ts`; nothing here asserts on time.
 * @module
 */
import { cpus, freemem, loadavg, platform, release, totalmem } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface Summary {
  /** Number of samples. */
  readonly n: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  /** (max - min) / median, in percent: how far apart the repetitions were (0 with one sample). */
  readonly spreadPct: number;
}

/** The median of the values (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) {
    return { n: 0, median: Number.NaN, min: Number.NaN, max: Number.NaN, mean: Number.NaN, spreadPct: 0 };
  }
  const min = Math.min(...values);
  const max = Math.max(...values);
  const mid = median(values);
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const spreadPct = mid === 0 ? 0 : ((max - min) / Math.abs(mid)) * 100;
  return { n: values.length, median: mid, min, max, mean, spreadPct };
}

export interface RepeatOptions {
  /** Unmeasured runs first (JIT warm-up). */
  readonly warmup: number;
  /** Measured runs wanted. */
  readonly reps: number;
  /** Stop starting measured runs after this long (at least `minReps` still run). */
  readonly maxMs: number;
  /** Measured runs that always happen, however long they take (default 1). */
  readonly minReps?: number;
}

export interface Repeated<T> {
  readonly samples: readonly T[];
  /** True when the time budget stopped the repetitions before `reps`. */
  readonly cutShort: boolean;
}

/**
 * Runs `run` `warmup` times unmeasured, then up to `reps` times, keeping what each measured run returns. Bounded
 * by count and time: measured runs stop once `maxMs` has passed since the first of them (after `minReps`).
 */
export async function repeat<T>(
  options: RepeatOptions,
  run: (rep: number) => Promise<T> | T,
  now: () => number = () => performance.now(),
): Promise<Repeated<T>> {
  for (let i = 0; i < options.warmup; i += 1) await run(-1 - i);
  const samples: T[] = [];
  const started = now();
  const minReps = Math.min(options.minReps ?? 1, options.reps);
  for (let rep = 0; rep < options.reps; rep += 1) {
    if (rep >= minReps && now() - started > options.maxMs) return { samples, cutShort: true };
    samples.push(await run(rep));
  }
  return { samples, cutShort: false };
}

let gc: (() => void) | undefined;

/**
 * A full garbage collection, so one repetition does not pay for the garbage of the one before (the spread of
 * allocation-heavy repetitions halves with it). Exposes `gc` at run time, without a command-line flag.
 * Not for throughput loops: a forced full collection also drops compiled code and type feedback, so the next
 * repetition runs half-cold (the runner measured 405-540 µs per request after it, 250-310 µs without).
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}

export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryBytes: number;
  readonly freeMemoryBytes: number;
  readonly node: string;
  readonly v8: string;
  readonly os: string;
  /** 1-minute load average when the bench started (other work on the machine skews the figures). */
  readonly loadAverage1m: number;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? "unknown",
    cores: list.length,
    memoryBytes: totalmem(),
    freeMemoryBytes: freemem(),
    node: process.version,
    v8: process.versions.v8,
    os: `${platform()} ${release()}`,
    loadAverage1m: loadavg()[0] ?? 0,
  };
}

/** `1.23 ms`, `456 ms`, `2.10 s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** `512 KB`, `1.05 MB`, `2.00 GB` (powers of 1024, as memory is counted). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return "n/a";
  const units = ["B", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0
    ? `${Math.round(value)} B`
    : `${value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2)} ${units[unit]}`;
}

/** `12 345/s`. */
export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return "n/a";
  return `${Math.round(perSecond).toLocaleString("en-US").replaceAll(",", " ")}/s`;
}

/** A summary as `median (min–max, ±spread%)` in the given unit formatter. */
export function formatSummary(summary: Summary, format: (value: number) => string): string {
  if (summary.n === 0) return "n/a";
  if (summary.n === 1) return `${format(summary.median)} (1 run)`;
  return `${format(summary.median)} (${format(summary.min)}–${format(summary.max)}, spread ${summary.spreadPct.toFixed(0)}%)`;
}

/** A plain-text table with a header row and left-aligned columns. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}
