/**
 * The fault score, in a module of its own above the runner and the reference server: runs the suites against the
 * embedded reference server once clean and once per named fault (in-process), and says which suites and checks
 * caught each fault, after how many requests. A fault no claimed suite catches is a hole in the toolkit; a failure
 * on the clean server is a false alarm. By default each fault runs only the suites that claim it; `full` runs every
 * suite against every fault.
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import type { CaseFinished, RunEvent } from "../core/events.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { faultRegistry } from "../reference/faults/index.ts";
import type { RunConfig } from "../runner/config.ts";
import { runConformance } from "../runner/run.ts";

export const faultMatrixSchemaVersion = "1.0.0";

export interface FaultRow {
  readonly id: string;
  readonly description: string;
  readonly expected: { readonly suites: readonly string[]; readonly checks: readonly string[] };
  /** Suites with a failed or errored case, and the checks (ids, or `assert:` names) that failed. */
  readonly caughtBy: { readonly suites: readonly string[]; readonly checks: readonly string[] };
  /** True when at least one claimed suite failed. */
  readonly caught: boolean;
  /** Claimed checks that did not fire (the fault was caught some other way, or not at all). */
  readonly missingChecks: readonly string[];
  /** Requests the run sent before the first failed check (null when nothing failed). */
  readonly requestsToDetection: number | null;
  readonly requests: number;
  readonly durationMs: number;
}

export interface CleanRun {
  readonly passed: boolean;
  /** Cases that failed on the clean server: each is a false alarm. */
  readonly falseAlarms: readonly {
    readonly suiteId: string;
    readonly caseId: string;
    readonly checks: readonly string[];
  }[];
  readonly requests: number;
  readonly durationMs: number;
}

export interface FaultMatrix {
  readonly schemaVersion: string;
  readonly runId: string;
  readonly startedAt: string;
  readonly seed: number;
  readonly toolVersion: string;
  readonly full: boolean;
  readonly clean: CleanRun;
  readonly rows: readonly FaultRow[];
  readonly score: { readonly caught: number; readonly total: number };
  /** 0 when every fault is caught and the clean server passes; 1 otherwise. */
  readonly exitCode: number;
}

export interface FaultMatrixOptions {
  readonly runId: string;
  readonly config: RunConfig;
  /** Fault ids to score (default: every registered fault). */
  readonly faults?: readonly string[];
  /** Run every suite against every fault, not only the claimed ones. */
  readonly full?: boolean;
  /** Faults scored at once (each run has its own server); default 2. */
  readonly concurrency?: number;
  readonly toolVersion: string;
  readonly signal: AbortSignal;
  /** Called as each fault's row is ready (progress on a long run). */
  readonly onRow?: (row: FaultRow, done: number, total: number) => void;
}

interface Observed {
  readonly failedSuites: Set<string>;
  readonly failedChecks: Set<string>;
  readonly failedCases: CaseFinished[];
  requests: number;
  requestsToDetection: number | null;
}

/** Reads a run's event stream into what the matrix needs (pure; tested on its own). */
export function observe(events: readonly RunEvent[]): Observed {
  const observed: Observed = {
    failedSuites: new Set(),
    failedChecks: new Set(),
    failedCases: [],
    requests: 0,
    requestsToDetection: null,
  };
  for (const event of events) {
    if (event.type === "exchange") observed.requests += 1;
    else if (event.type === "check" && event.result.outcome.status === "failed") {
      observed.requestsToDetection ??= observed.requests;
      observed.failedChecks.add(event.result.checkId);
    } else if (event.type === "case-finished" && (event.status === "failed" || event.status === "errored")) {
      observed.requestsToDetection ??= observed.requests;
      observed.failedSuites.add(event.suiteId);
      observed.failedCases.push(event);
    }
  }
  return observed;
}

/** One fault's row from what its run showed. */
export function faultRow(
  fault: {
    id: string;
    description: string;
    detectedBy: { suites: readonly string[]; checks?: readonly string[] };
  },
  observed: Observed,
  durationMs: number,
): FaultRow {
  const expectedChecks = fault.detectedBy.checks ?? [];
  return {
    id: fault.id,
    description: fault.description,
    expected: { suites: fault.detectedBy.suites, checks: expectedChecks },
    caughtBy: { suites: [...observed.failedSuites].sort(), checks: [...observed.failedChecks].sort() },
    caught: fault.detectedBy.suites.some((suite) => observed.failedSuites.has(suite)),
    missingChecks: expectedChecks.filter((check) => !observed.failedChecks.has(check)),
    requestsToDetection: observed.requestsToDetection,
    requests: observed.requests,
    durationMs,
  };
}

async function runOnce(options: FaultMatrixOptions, faults: readonly string[], suites: readonly string[]) {
  const events: RunEvent[] = [];
  const started = performance.now();
  await runConformance(
    { ...options.config, baseUrl: undefined, faults, suites, reporters: [] },
    {
      runId: `${options.runId}-${faults[0] ?? "clean"}`,
      listeners: [(event) => void events.push(event)],
      signal: options.signal,
      toolVersion: options.toolVersion,
    },
  );
  return { observed: observe(events), durationMs: performance.now() - started };
}

export async function runFaultMatrix(options: FaultMatrixOptions): Promise<FaultMatrix> {
  const startedAt = new Date().toISOString();
  const ids = options.faults?.length ? options.faults : [...faultRegistry.keys()].sort();
  const faults = ids.map((id) => {
    const fault = faultRegistry.get(id);
    if (!fault)
      throw new ConfigError(
        `unknown fault ${id}; known faults: ${[...faultRegistry.keys()].sort().join(", ")}`,
      );
    if (fault.detectedBy.suites.length === 0)
      throw new ConfigError(`fault ${id} claims no suite that catches it`);
    return fault;
  });
  const clean = await runOnce(options, [], options.config.suites);
  const rows: FaultRow[] = new Array(faults.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < faults.length && !options.signal.aborted) {
      const index = next++;
      const fault = faults[index]!;
      const run = await runOnce(
        options,
        [fault.id],
        options.full ? options.config.suites : fault.detectedBy.suites,
      );
      rows[index] = faultRow(fault, run.observed, run.durationMs);
      done += 1;
      options.onRow?.(rows[index]!, done, faults.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  const finished = rows.filter(Boolean);
  const caught = finished.filter((row) => row.caught).length;
  const falseAlarms = clean.observed.failedCases.map((event) => ({
    suiteId: event.suiteId,
    caseId: event.caseId,
    checks: event.results
      .filter((result) => result.outcome.status === "failed")
      .map((result) => result.checkId),
  }));
  return {
    schemaVersion: faultMatrixSchemaVersion,
    runId: options.runId,
    startedAt,
    seed: options.config.seed,
    toolVersion: options.toolVersion,
    full: options.full ?? false,
    clean: {
      passed: falseAlarms.length === 0,
      falseAlarms,
      requests: clean.observed.requests,
      durationMs: clean.durationMs,
    },
    rows: finished,
    score: { caught, total: faults.length },
    exitCode:
      caught === faults.length && falseAlarms.length === 0 && finished.length === faults.length
        ? ExitCode.ok
        : ExitCode.checkFailed,
  };
}
