/**
 * The fault score, in a module of its own above the runner and the reference server: runs the suites against the
 * embedded reference server once clean and once per named fault (in-process), and says which suites and checks
 * caught each fault, after how many requests. A fault no claimed suite catches is a hole in the toolkit; a failure
 * on the clean server is a false alarm. By default each fault runs only the suites that claim it; `full` runs every
 * suite against every fault. A selection of suites (the config's `suites`, `tags`, `excludeTags`, chosen as
 * `conform run` chooses them) scores only those: every selected suite runs against every fault, and a fault counts
 * as caught when any of them, or a check judged at the run's end, fails (what a part of the toolkit, such as the
 * generic layer, catches on its own).
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import type { CaseFinished, RunEvent } from "../core/events.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { faultRegistry } from "../reference/faults/index.ts";
import type { RunConfig } from "../runner/config.ts";
import { planSelection, runConformance } from "../runner/run.ts";
import { runEndSuite } from "../runner/run-end-checks.ts";

export const faultMatrixSchemaVersion = "1.1.0";

export interface FaultRow {
  readonly id: string;
  readonly description: string;
  readonly expected: { readonly suites: readonly string[]; readonly checks: readonly string[] };
  /** Suites with a failed or errored case, and the checks (ids, or `assert:` names) that failed. */
  readonly caughtBy: { readonly suites: readonly string[]; readonly checks: readonly string[] };
  /** True when at least one claimed suite failed (with a selection: at least one selected suite). */
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

/** The suites a score was asked for, as `conform run` takes them; all empty: no selection. */
export interface SuiteSelection {
  readonly suites: readonly string[];
  readonly tags: readonly string[];
  readonly excludeTags: readonly string[];
}

export interface FaultMatrix {
  readonly schemaVersion: string;
  readonly runId: string;
  readonly startedAt: string;
  readonly seed: number;
  readonly toolVersion: string;
  /** True when every scored suite ran against every fault (`full`, or a selection). */
  readonly full: boolean;
  /** The selection asked for, when one was (then only `suites` were scored, each against every fault). */
  readonly selection?: SuiteSelection;
  /** The suites the clean run ran, which the faults' runs draw from: every suite, or the selection's. */
  readonly suites: readonly string[];
  readonly clean: CleanRun;
  readonly rows: readonly FaultRow[];
  readonly score: { readonly caught: number; readonly total: number };
  /** 0 when every fault is caught and the clean server passes; 1 otherwise. */
  readonly exitCode: number;
}

export interface FaultMatrixOptions {
  readonly runId: string;
  /**
   * The runs' config. Its `suites`, `tags` and `excludeTags` select the suites to score, as `conform run` selects
   * them (none: every suite); `excludeTags` also leaves out the cases so tagged.
   */
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

/**
 * One fault's row from what its run showed. `catchers`: the suites whose failure catches it, its claimed ones
 * unless a selection says otherwise (then any selected suite's).
 */
export function faultRow(
  fault: {
    id: string;
    description: string;
    detectedBy: { suites: readonly string[]; checks?: readonly string[] };
  },
  observed: Observed,
  durationMs: number,
  catchers: readonly string[] = fault.detectedBy.suites,
): FaultRow {
  const expectedChecks = fault.detectedBy.checks ?? [];
  return {
    id: fault.id,
    description: fault.description,
    expected: { suites: fault.detectedBy.suites, checks: expectedChecks },
    caughtBy: { suites: [...observed.failedSuites].sort(), checks: [...observed.failedChecks].sort() },
    caught: catchers.some((suite) => observed.failedSuites.has(suite)),
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

const isSelection = (selection: SuiteSelection) =>
  selection.suites.length + selection.tags.length + selection.excludeTags.length > 0;

/** The faults to score, by id (default: every registered fault); an unknown one, or one claimed by no suite, refused. */
function faultsOf(ids: readonly string[] | undefined) {
  const chosen = ids?.length ? ids : [...faultRegistry.keys()].sort();
  return chosen.map((id) => {
    const fault = faultRegistry.get(id);
    if (!fault)
      throw new ConfigError(
        `unknown fault ${id}; known faults: ${[...faultRegistry.keys()].sort().join(", ")}`,
      );
    if (fault.detectedBy.suites.length === 0)
      throw new ConfigError(`fault ${id} claims no suite that catches it`);
    return fault;
  });
}

function falseAlarmsOf(observed: Observed): CleanRun["falseAlarms"] {
  return observed.failedCases.map((event) => ({
    suiteId: event.suiteId,
    caseId: event.caseId,
    checks: event.results
      .filter((result) => result.outcome.status === "failed")
      .map((result) => result.checkId),
  }));
}

export async function runFaultMatrix(options: FaultMatrixOptions): Promise<FaultMatrix> {
  const startedAt = new Date().toISOString();
  const faults = faultsOf(options.faults);
  const { suites: asked, tags, excludeTags } = options.config;
  const selection: SuiteSelection = { suites: asked, tags, excludeTags };
  const selected = isSelection(selection);
  // The same selection as `conform run` (unknown suites and tags refused), resolved once to the suites' ids.
  const planned = await planSelection({ ...options.config, baseUrl: undefined });
  const suites = planned.suites.selected.map((suite) => suite.id);
  const clean = await runOnce(options, [], suites);
  const rows: FaultRow[] = new Array(faults.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < faults.length && !options.signal.aborted) {
      const index = next++;
      const fault = faults[index]!;
      // A selection scores what `conform run` with it reports: its suites and the checks judged at the run's end.
      const catchers = selected ? [...suites, runEndSuite.id] : fault.detectedBy.suites;
      const run = await runOnce(options, [fault.id], options.full || selected ? suites : catchers);
      rows[index] = faultRow(fault, run.observed, run.durationMs, catchers);
      done += 1;
      options.onRow?.(rows[index]!, done, faults.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  const finished = rows.filter(Boolean);
  const caught = finished.filter((row) => row.caught).length;
  const falseAlarms = falseAlarmsOf(clean.observed);
  return {
    schemaVersion: faultMatrixSchemaVersion,
    runId: options.runId,
    startedAt,
    seed: options.config.seed,
    toolVersion: options.toolVersion,
    full: selected || (options.full ?? false),
    ...(selected ? { selection } : {}),
    suites,
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
