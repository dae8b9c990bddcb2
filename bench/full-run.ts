/**
 * Section 5: the full default run, as `npm start` does it (every suite against the embedded reference server),
 * in a fresh child process: `node --import bench/rusage-preload.ts bin/conform.js run --reporter json
 * --report-dir <tmp>`. Wall time is taken by this process from spawn to exit; peak memory is the child's own
 * maxRSS, written by the preload as it exits. No warm-up: a user's run starts cold, and that is what is timed.
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { repeat, type Summary, summarize } from "./measure.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const preload = fileURLToPath(new URL("./rusage-preload.ts", import.meta.url));

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
  /** Exit codes other than 0 or 1 (the toolkit failed): the figures then do not describe a run. */
  readonly problems: readonly string[];
  readonly cutShort: boolean;
}

async function runOnce(timeoutMs: number): Promise<FullRunSample> {
  const work = mkdtempSync(join(tmpdir(), "conform-bench-run-"));
  const usageFile = join(work, "rusage.json");
  const reportDir = join(work, "reports");
  try {
    const started = performance.now();
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ["--import", preload, "bin/conform.js", "run", "--reporter", "json", "--report-dir", reportDir],
        {
          cwd: root,
          stdio: ["ignore", "ignore", "pipe"],
          env: { ...process.env, CONFORM_BENCH_RUSAGE_FILE: usageFile, NO_COLOR: "1" },
        },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        if (stderr.length < 4000) stderr += chunk.toString();
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      child.once("error", reject);
      child.once("exit", (code) => {
        clearTimeout(timer);
        if (code !== 0 && code !== 1) process.stderr.write(`bench: conform run exited ${code}: ${stderr}\n`);
        resolve(code);
      });
    });
    const wallMs = performance.now() - started;
    const usage = existsSync(usageFile)
      ? (JSON.parse(readFileSync(usageFile, "utf8")) as {
          maxRssBytes: number;
          userCpuUs: number;
          systemCpuUs: number;
        })
      : undefined;
    const reportFile = join(reportDir, "latest", "report.json");
    const report = existsSync(reportFile)
      ? (JSON.parse(readFileSync(reportFile, "utf8")) as {
          status: string;
          counts: Record<string, number>;
          exchanges: { total: number };
        })
      : undefined;
    return {
      wallMs,
      maxRssBytes: usage?.maxRssBytes ?? Number.NaN,
      cpuMs: usage ? (usage.userCpuUs + usage.systemCpuUs) / 1000 : Number.NaN,
      exitCode,
      status: report?.status ?? "no report",
      counts: report?.counts ?? {},
      exchanges: report?.exchanges.total ?? 0,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function benchFullRun(options: {
  reps: number;
  maxMs: number;
  timeoutMs: number;
}): Promise<FullRunResult> {
  const { samples, cutShort } = await repeat({ warmup: 0, reps: options.reps, maxMs: options.maxMs }, () =>
    runOnce(options.timeoutMs),
  );
  const problems = samples
    .filter((sample) => sample.exitCode !== 0 && sample.exitCode !== 1)
    .map((sample) => `conform run exited ${sample.exitCode} (${sample.status})`);
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
