/**
 * Section 4: a fuzz campaign, `conform fuzz filters` against the embedded reference server, in fresh child
 * processes (as a user runs it): cases/s and requests/s, and whether memory stays flat up to 50,000 requests.
 *
 * Two campaigns with the same seed: a short one (`--runs 40`, a few thousand requests), which calibrates the
 * requests per run, then a long one sized for at least 50,000 requests, whose RSS is sampled every 250 ms. Memory
 * is flat when the long campaign's peak RSS in its second half is within 15 % of its peak in its first half
 * (after the first 10 %, start-up): what a campaign keeps must not grow with its length (exchanges of passing
 * cases are not kept), while the heap may settle at any size. The requests are spread evenly enough over the
 * campaign's time for its halves to stand for its first and second 25,000 requests; the bytes retained per
 * request of the second half say how far from flat it is. Cases are the generated cases (property runs), counted
 * from the campaign's own progress lines on stderr (`fuzz filters: <property> (<N> runs)`).
 *
 * Until `conform fuzz filters` exists this section says so, with no figure.
 * @module
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type MemorySample, runConform } from "./conform-child.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

export interface FuzzOptions {
  /** Requests the large campaign must reach (50,000). */
  readonly targetRequests: number;
  readonly smallRuns: number;
  readonly maxRuns: number;
  readonly timeoutMs: number;
  readonly seed: number;
}

export interface CampaignRun {
  readonly runs: number;
  /** Generated cases (property runs); NaN when the progress lines could not be read. */
  readonly cases: number;
  readonly requests: number;
  /** The engine's own duration (from the report): the campaign without process start and spec loading. */
  readonly engineMs: number;
  readonly wallMs: number;
  readonly maxRssBytes: number;
  readonly exitCode: number | null;
  readonly status: string;
  readonly casesPerSecond: number;
  readonly requestsPerSecond: number;
}

export type FuzzResult =
  | { readonly available: false; readonly reason: string }
  | {
      readonly available: true;
      readonly command: string;
      readonly small: CampaignRun;
      readonly large: CampaignRun;
      readonly casesPerSecond: number;
      readonly requestsPerSecond: number;
      readonly requests: number;
      readonly peakRssBytes: number;
      /** Peak RSS of the long campaign's first half (after its first 10 %) and of its second half. */
      readonly firstHalfPeakRssBytes: number;
      readonly secondHalfPeakRssBytes: number;
      /** (second half peak - first half peak) / first half peak, in percent. */
      readonly growthPct: number;
      /** (second half peak - first half peak) / (requests / 2). */
      readonly retainedBytesPerRequest: number;
      readonly memoryFlat: boolean;
      /** The large campaign's memory, at most 40 points. */
      readonly timeline: readonly MemorySample[];
      readonly problems: readonly string[];
    };

/** Sum of `(<N> runs)` over the campaign's progress lines. */
export function countCases(stderr: string): number {
  const matches = [...stderr.matchAll(/^fuzz \S+: .* \((\d+) runs\)$/gm)];
  return matches.length === 0 ? Number.NaN : matches.reduce((sum, match) => sum + Number(match[1]), 0);
}

/** Runs for the large campaign: enough for `target` requests (10 % margin) at the small one's requests per run. */
export function runsFor(target: number, small: { runs: number; requests: number }, maxRuns: number): number {
  if (small.requests <= 0) return maxRuns;
  return Math.min(maxRuns, Math.max(small.runs + 1, Math.ceil((target * 1.1 * small.runs) / small.requests)));
}

/**
 * Peak RSS of the first half (from `skip` of the time on) and of the second half of a memory timeline; NaN when
 * a half has no sample.
 */
export function halfPeaks(samples: readonly MemorySample[], skip = 0.1): { first: number; second: number } {
  const end = samples.at(-1)?.atMs ?? 0;
  const start = samples[0]?.atMs ?? 0;
  const at = (fraction: number) => start + (end - start) * fraction;
  const peak = (from: number, to: number) => {
    const inside = samples.filter((sample) => sample.atMs >= from && sample.atMs <= to);
    return inside.length === 0 ? Number.NaN : Math.max(...inside.map((sample) => sample.rssBytes));
  };
  return { first: peak(at(skip), at(0.5)), second: peak(at(0.5) + 1e-9, end) };
}

/** Keeps at most `points` samples, evenly spaced, the last one included. */
export function downsample<T>(samples: readonly T[], points: number): T[] {
  if (samples.length <= points) return [...samples];
  const step = (samples.length - 1) / (points - 1);
  return Array.from({ length: points }, (_, index) => samples[Math.round(index * step)]!);
}

/** Whether `conform fuzz filters` exists: its --help answers with exit 0. */
async function fuzzAvailable(): Promise<string | undefined> {
  try {
    await promisify(execFile)(process.execPath, ["bin/conform.js", "fuzz", "filters", "--help"], {
      cwd: root,
      timeout: 30_000,
    });
    return undefined;
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim().split("\n")[0] ?? String(error);
    return `not yet available: \`conform fuzz filters\` does not run here (${detail})`;
  }
}

async function campaign(runs: number, options: FuzzOptions, sampleMs: number) {
  const run = await runConform(["fuzz", "filters", "--runs", String(runs), "--seed", String(options.seed)], {
    timeoutMs: options.timeoutMs,
    sampleMs,
  });
  const requests = run.report?.exchanges.total ?? 0;
  const engineMs = run.report?.durationMs ?? Number.NaN;
  const cases = countCases(run.stderr);
  const result: CampaignRun = {
    runs,
    cases,
    requests,
    engineMs,
    wallMs: run.wallMs,
    maxRssBytes: run.maxRssBytes,
    exitCode: run.exitCode,
    status: run.report?.status ?? "no report",
    casesPerSecond: (cases / engineMs) * 1000,
    requestsPerSecond: (requests / engineMs) * 1000,
  };
  const problems: string[] = [];
  if (run.timedOut)
    problems.push(`fuzz filters --runs ${runs} did not finish in ${options.timeoutMs} ms (killed)`);
  else if (run.exitCode !== 0 && run.exitCode !== 1)
    problems.push(
      `fuzz filters --runs ${runs} exited ${run.exitCode}: ${run.stderr.trim().split("\n").at(-1)}`,
    );
  return { result, samples: run.samples, problems };
}

export async function benchFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const missing = await fuzzAvailable();
  if (missing) return { available: false, reason: missing };
  const small = await campaign(options.smallRuns, options, 0);
  const largeRuns = runsFor(options.targetRequests, small.result, options.maxRuns);
  const large = await campaign(largeRuns, options, 250);
  const problems = [...small.problems, ...large.problems];
  if (large.result.requests < options.targetRequests) {
    problems.push(
      `the large campaign made ${large.result.requests} requests, fewer than ${options.targetRequests}`,
    );
  }
  const halves = halfPeaks(large.samples);
  if (Number.isNaN(halves.first) || Number.isNaN(halves.second)) {
    problems.push("the long campaign's memory timeline is too short to compare its halves");
  }
  const growth = halves.second - halves.first;
  const growthPct = (growth / halves.first) * 100;
  return {
    available: true,
    command: `conform fuzz filters --runs ${largeRuns} --seed ${options.seed} --reporter json`,
    small: small.result,
    large: large.result,
    casesPerSecond: large.result.casesPerSecond,
    requestsPerSecond: large.result.requestsPerSecond,
    requests: large.result.requests,
    peakRssBytes: large.result.maxRssBytes,
    firstHalfPeakRssBytes: halves.first,
    secondHalfPeakRssBytes: halves.second,
    growthPct,
    retainedBytesPerRequest: growth / Math.max(1, large.result.requests / 2),
    memoryFlat: growthPct <= 15,
    timeline: downsample(large.samples, 40),
    problems,
  };
}
