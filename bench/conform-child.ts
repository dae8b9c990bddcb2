/**
 * Runs the `conform` CLI in a fresh child process, as a user would (`node bin/conform.js <args>`, the same Node
 * binary as the bench), with the resource-usage preload; returns its wall time (taken here, spawn to exit), its
 * own maxRSS and CPU time, its JSON report and its stderr. Bounded by a timeout (the child is killed after it).
 * @module
 */

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runBoundedChild } from "./bounded-child.ts";

const preload = fileURLToPath(new URL("./rusage-preload.ts", import.meta.url));

export interface MemorySample {
  readonly atMs: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
}

/** The parts of the JSON report (`report.json`) the bench reads. */
export interface ReportSummary {
  readonly status: string;
  readonly exitCode: number | null;
  readonly durationMs: number | null;
  readonly counts: Readonly<Record<string, number>>;
  readonly exchanges: { readonly total: number };
}

export interface ChildRun {
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly maxRssBytes: number;
  readonly cpuMs: number;
  readonly samples: readonly MemorySample[];
  readonly report: ReportSummary | undefined;
  /** The first 64 KB of stderr. */
  readonly stderr: string;
}

/**
 * Runs `conform <args> --reporter json --report-dir <tmp>`; `sampleMs` > 0 samples memory at that interval.
 */
export async function runConform(
  args: readonly string[],
  options: { timeoutMs: number; sampleMs?: number },
): Promise<ChildRun> {
  const work = mkdtempSync(join(tmpdir(), "conform-bench-child-"));
  const usageFile = join(work, "rusage.json");
  const reportDir = join(work, "reports");
  try {
    const started = performance.now();
    const { exitCode, timedOut, stderr } = await runBoundedChild(
      ["--import", preload, "bin/conform.js", ...args, "--reporter", "json", "--report-dir", reportDir],
      {
        timeoutMs: options.timeoutMs,
        env: {
          CONFORM_BENCH_RUSAGE_FILE: usageFile,
          CONFORM_BENCH_SAMPLE_MS: String(options.sampleMs ?? 0),
        },
      },
    );
    const wallMs = performance.now() - started;
    const usage = existsSync(usageFile)
      ? (JSON.parse(readFileSync(usageFile, "utf8")) as {
          maxRssBytes: number;
          userCpuUs: number;
          systemCpuUs: number;
          samples: MemorySample[];
        })
      : undefined;
    const reportFile = join(reportDir, "latest", "report.json");
    const report = existsSync(reportFile)
      ? (JSON.parse(readFileSync(reportFile, "utf8")) as ReportSummary)
      : undefined;
    return {
      wallMs,
      exitCode,
      timedOut,
      maxRssBytes: usage?.maxRssBytes ?? Number.NaN,
      cpuMs: usage ? (usage.userCpuUs + usage.systemCpuUs) / 1000 : Number.NaN,
      samples: usage?.samples ?? [],
      report,
      stderr,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
