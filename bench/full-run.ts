/**
 * Section 5: the full default run, as `npm start` does it (every suite against the embedded reference server),
 * in a fresh child process: `node --import bench/rusage-preload.ts bin/conform.js run --reporter json
 * --report-dir <tmp>`. Wall time is taken by this process from spawn to exit; peak memory is the child's own
 * maxRSS, written by the preload as it exits. No warm-up: a user's run starts cold, and that is what is timed.
 * @module
 */
import { runConform } from "./conform-child.ts";
import { repeat, type Summary, summarize } from "./measure.ts";

export interface FullRunSample {
  readonly wallMs: number;
  readonly maxRssBytes: number;
  readonly cpuMs: number;
  readonly exitCode: number | null;
  readonly status: string;
  readonly counts: Readonly<Record<string, number>>;
  readonly exchanges: number;
}

export interface FullRunResult {
  readonly command: string;
  readonly wallMs: Summary;
  readonly maxRssBytes: Summary;
  readonly cpuMs: Summary;
  readonly last: FullRunSample | undefined;
  /** Exit codes other than 0 or 1 (the toolkit failed), or a timeout: the figures then do not describe a run. */
  readonly problems: readonly string[];
  readonly cutShort: boolean;
}

async function runOnce(timeoutMs: number): Promise<{ sample: FullRunSample; problem: string | undefined }> {
  const run = await runConform(["run"], { timeoutMs });
  const problem = run.timedOut
    ? `conform run did not finish in ${timeoutMs} ms (killed)`
    : run.exitCode !== 0 && run.exitCode !== 1
      ? `conform run exited ${run.exitCode}: ${run.stderr.trim().split("\n").slice(-3).join(" | ")}`
      : undefined;
  const sample: FullRunSample = {
    wallMs: run.wallMs,
    maxRssBytes: run.maxRssBytes,
    cpuMs: run.cpuMs,
    exitCode: run.exitCode,
    status: run.report?.status ?? "no report",
    counts: run.report?.counts ?? {},
    exchanges: run.report?.exchanges.total ?? 0,
  };
  return { sample, problem };
}

export async function benchFullRun(options: {
  reps: number;
  maxMs: number;
  timeoutMs: number;
}): Promise<FullRunResult> {
  const { samples: runs, cutShort } = await repeat(
    { warmup: 0, reps: options.reps, maxMs: options.maxMs },
    () => runOnce(options.timeoutMs),
  );
  const problems = runs.flatMap((run) => (run.problem ? [run.problem] : []));
  const samples = runs.map((run) => run.sample);
  return {
    command: "node bin/conform.js run --reporter json --report-dir <tmp>",
    wallMs: summarize(samples.map((sample) => sample.wallMs)),
    maxRssBytes: summarize(samples.map((sample) => sample.maxRssBytes)),
    cpuMs: summarize(samples.map((sample) => sample.cpuMs)),
    last: samples.at(-1),
    problems: [...new Set(problems)],
    cutShort,
  };
}
