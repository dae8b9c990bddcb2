/**
 * What the file reporters remember of a run, gathered from its events and nothing else: the run's start and end,
 * each suite with its finished cases (which carry only failing exchanges: passing ones are counted, never kept),
 * cases still open when the run stopped, warnings, and a bounded latency histogram. Memory stays proportional to
 * the number of cases and failures, not of exchanges.
 * @internal
 */
import type {
  CaseFinished,
  CaseStarted,
  CaseStatus,
  Counts,
  FailureGroup,
  FailureGroupOpened,
  OperationCoverage,
  RunFinished,
  RunSnapshot,
  RunStarted,
  SuiteFinished,
  SuiteTag,
} from "../../core/events.ts";
import { CoverageTally } from "../../runner/coverage-tally.ts";
import type { ReporterHooks } from "../types.ts";
import { LatencyHistogram } from "./latency-histogram.ts";

/**
 * What the run's resources are labelled with: its own prefix, or a merged run's every shard's (each labels what it
 * creates with its own; cleanup needs them all). None for traffic conform did not make (`proxy`, `verify`).
 */
export function labelPrefixesOf(started: Pick<RunStarted, "labelPrefix" | "mergedFrom">): string[] {
  const shards = (started.mergedFrom ?? []).map((one) => one.labelPrefix ?? "");
  return [...new Set([started.labelPrefix, ...shards])].filter((prefix) => prefix !== "");
}

/** A suite's state in a report: a case status, or `not-run` (planned, never started), `incomplete` (cut short). */
export type SuiteStatus = CaseStatus | "not-run" | "incomplete";

export interface SuiteRecord {
  readonly id: string;
  title: string;
  tags: readonly SuiteTag[];
  /** Cases the plan announced (undefined for a suite that was not in the plan). */
  readonly plannedCases: number | undefined;
  started: boolean;
  finished: SuiteFinished | undefined;
  readonly cases: CaseFinished[];
}

export type RunStatus = RunFinished["status"];

const zeroCounts: Counts = Object.freeze({ passed: 0, failed: 0, skipped: 0, errored: 0, interrupted: 0 });

export function countCases(cases: readonly { readonly status: CaseStatus }[]): Counts {
  const counts = { ...zeroCounts };
  for (const { status } of cases) counts[status] += 1;
  return counts;
}

export function totalOf(counts: Counts): number {
  return counts.passed + counts.failed + counts.skipped + counts.errored + counts.interrupted;
}

export class RunRecord {
  started: RunStarted | undefined;
  finished: RunFinished | undefined;
  readonly suites = new Map<string, SuiteRecord>();
  readonly warnings: string[] = [];
  readonly latency = new LatencyHistogram();
  /** Observed from `exchange` events, for runs that stop before `run-finished` says. */
  exchangesSeen = 0;
  retriesSeen = 0;
  rateLimitedSeen = 0;
  /** The exit code of a process quitting at once (a second signal), before the engine said the run finished. */
  abandonedWith: number | undefined;
  /** Set on a {@link RunRecord.snapshotOf} view only: which snapshot it is and when it was taken. */
  snapshot: { readonly sequence: number; readonly takenAt: string } | undefined;
  readonly #openCases = new Map<string, CaseStarted>();
  readonly #groupsOpened = new Map<string, FailureGroupOpened["group"]>();
  /** What the exchanges say of each operation, for a run that stops before `run-finished` brings the table. */
  readonly #coverageSeen = new CoverageTally();

  /** The hooks that feed this record; a reporter calls them from its own hooks. */
  readonly hooks: Required<Omit<ReporterHooks, "check" | "rate-limit-wait" | "run-snapshot">> = {
    "run-started": (event) => {
      this.started = event;
      for (const planned of event.suites) {
        this.suites.set(planned.id, {
          id: planned.id,
          title: planned.title,
          tags: planned.tags,
          plannedCases: planned.cases,
          started: false,
          finished: undefined,
          cases: [],
        });
      }
    },
    "suite-started": (event) => {
      const suite = this.#suite(event.suiteId);
      suite.title = event.title;
      suite.tags = event.tags;
      suite.started = true;
    },
    "case-started": (event) => {
      this.#openCases.set(caseKey(event.suiteId, event.caseId), event);
    },
    exchange: (event) => {
      const { exchange } = event;
      this.exchangesSeen += 1;
      this.retriesSeen += exchange.retries;
      if (exchange.response?.status === 429) this.rateLimitedSeen += 1;
      if (exchange.timings.measured !== false) this.latency.record(exchange.timings.totalMs);
      this.#coverageSeen.observe(exchange, event.suiteId);
    },
    "failure-group": (event) => {
      this.#groupsOpened.set(event.group.id, event.group);
    },
    "case-finished": (event) => {
      this.#openCases.delete(caseKey(event.suiteId, event.caseId));
      const suite = this.#suite(event.suiteId);
      suite.started = true;
      suite.cases.push(keptForReport(event));
    },
    "suite-finished": (event) => {
      const suite = this.#suite(event.suiteId);
      suite.started = true;
      suite.finished = event;
    },
    "run-finished": (event) => {
      this.finished = event;
    },
    warning: (event) => {
      this.warnings.push(event.message);
    },
  };

  #suite(id: string): SuiteRecord {
    let suite = this.suites.get(id);
    if (!suite) {
      suite = {
        id,
        title: id,
        tags: [],
        plannedCases: undefined,
        started: false,
        finished: undefined,
        cases: [],
      };
      this.suites.set(id, suite);
    }
    return suite;
  }

  /**
   * A new record as this one would be with the snapshot's cases, suites and end (`run-snapshot`), marked as a
   * snapshot: this record is left as it was (what the view holds is copied), for the run goes on.
   */
  snapshotOf(event: RunSnapshot): RunRecord {
    const view = new RunRecord();
    view.started = this.started;
    view.finished = event.finished;
    view.snapshot = { sequence: event.sequence, takenAt: event.takenAt };
    view.warnings.push(...this.warnings);
    view.latency.merge(this.latency);
    for (const [id, suite] of this.suites) view.suites.set(id, { ...suite, cases: [...suite.cases] });
    for (const [key, open] of this.#openCases) view.#openCases.set(key, open);
    for (const one of event.cases) {
      view.#openCases.delete(caseKey(one.suiteId, one.caseId));
      const suite = view.#suite(one.suiteId);
      suite.started = true;
      suite.cases.push(keptForReport(one));
    }
    for (const one of event.suites) {
      const suite = view.#suite(one.suiteId);
      suite.started = true;
      suite.finished = one;
    }
    return view;
  }

  /** Cases that started and never finished (the run was interrupted in them). */
  get openCases(): readonly CaseStarted[] {
    return [...this.#openCases.values()];
  }

  /**
   * The process quits at once with `exitCode` (a second signal) before the engine said the run finished: the cases
   * still running were interrupted by it, and are counted so (they stay listed as open).
   */
  abandon(exitCode: number): void {
    if (this.finished) return;
    this.abandonedWith = exitCode;
  }

  /** The cases a second signal interrupted while they ran (none unless the run was abandoned). */
  #abandonedIn(suiteId?: string): { readonly status: "interrupted" }[] {
    if (this.abandonedWith === undefined) return [];
    return this.openCases
      .filter((open) => suiteId === undefined || open.suiteId === suiteId)
      .map(() => ({ status: "interrupted" as const }));
  }

  /** The engine said the run finished (cleanup done, counts final), interrupted or not. */
  get ended(): boolean {
    return this.finished !== undefined;
  }

  /**
   * Every planned case ran to its end: the run ended and was not interrupted. False for an interrupted run (which
   * still holds its counts and cleanup) and for a run that stopped before it ended (crash, kill, a second signal).
   */
  get complete(): boolean {
    return (
      this.snapshot === undefined && this.finished !== undefined && this.finished.status !== "interrupted"
    );
  }

  /** The run's status; a run that never said it finished was interrupted. */
  get status(): RunStatus {
    return this.finished?.status ?? "interrupted";
  }

  suiteStatus(suite: SuiteRecord): SuiteStatus {
    if (suite.finished) return suite.finished.status;
    return suite.started ? "incomplete" : "not-run";
  }

  suiteCounts(suite: SuiteRecord): Counts {
    return suite.finished?.counts ?? countCases([...suite.cases, ...this.#abandonedIn(suite.id)]);
  }

  suiteDurationMs(suite: SuiteRecord): number {
    return suite.finished?.durationMs ?? suite.cases.reduce((sum, one) => sum + one.durationMs, 0);
  }

  get counts(): Counts {
    if (this.finished) return this.finished.counts;
    return countCases([...[...this.suites.values()].flatMap((suite) => suite.cases), ...this.#abandonedIn()]);
  }

  get durationMs(): number | undefined {
    return this.finished?.durationMs;
  }

  get exchanges(): number {
    return this.finished?.exchanges ?? this.exchangesSeen;
  }

  get retries(): number {
    return this.finished?.retries ?? this.retriesSeen;
  }

  get rateLimited(): number {
    return this.finished?.rateLimited ?? this.rateLimitedSeen;
  }

  /** Finished cases that failed or errored, in order. */
  failures(): CaseFinished[] {
    return [...this.suites.values()].flatMap((suite) =>
      suite.cases.filter((one) => one.status === "failed" || one.status === "errored"),
    );
  }

  allCases(): CaseFinished[] {
    return [...this.suites.values()].flatMap((suite) => suite.cases);
  }

  /**
   * Operation coverage: the engine's table (every operation of the spec) once the run finished; before that, the
   * operations requested so far as their exchanges tell (no plan, no checks: those come with the end).
   */
  coverage(): { readonly total: number; readonly operations: readonly OperationCoverage[] } {
    if (this.finished) return { total: this.finished.coverage.length, operations: this.finished.coverage };
    const operations = this.#coverageSeen.table(
      this.#coverageSeen.requested.map((operationId) => ({ operationId, method: "", path: "" })),
    );
    return { total: this.started?.spec.operations ?? operations.length, operations };
  }

  /**
   * The run's failure groups, largest first: the engine's once the run finished; before that (a run that stopped),
   * the groups announced so far with the failures the finished cases reported for them.
   */
  groups(): readonly FailureGroup[] {
    if (this.finished) return this.finished.groups;
    const tallies = new Map<
      string,
      { failures: number; cases: { suiteId: string; caseId: string }[]; exchangesKept: number }
    >();
    const tally = (id: string, suiteId: string, caseId: string, failures: number, kept: number) => {
      const entry = tallies.get(id) ?? { failures: 0, cases: [], exchangesKept: 0 };
      entry.failures += failures;
      entry.exchangesKept += kept;
      if (!entry.cases.some((one) => one.suiteId === suiteId && one.caseId === caseId))
        entry.cases.push({ suiteId, caseId });
      tallies.set(id, entry);
    };
    for (const one of this.allCases()) {
      if (one.errorGroup) tally(one.errorGroup, one.suiteId, one.caseId, 1, 0);
      for (const result of one.results) {
        if (result.outcome.status !== "failed" || !result.group) continue;
        const kept = one.exchanges.some((exchange) => exchange.id === result.exchangeId) ? 1 : 0;
        tally(result.group, one.suiteId, one.caseId, result.count ?? 1, kept);
      }
    }
    return [...this.#groupsOpened.values()]
      .map((opened) => {
        const entry = tallies.get(opened.id) ?? { failures: 0, cases: [], exchangesKept: 0 };
        return {
          id: opened.id,
          checkId: opened.checkId,
          shape: opened.shape,
          example: opened.example,
          failures: entry.failures,
          cases: entry.cases.length,
          firstCases: entry.cases.slice(0, 5),
          operations: [],
          operationCount: 0,
          exchangesKept: entry.exchangesKept,
        };
      })
      .filter((group) => group.failures > 0)
      .sort((a, b) => b.failures - a.failures || a.checkId.localeCompare(b.checkId));
  }

  /** Distinct statuses seen over all operations. */
  statusesSeen(): number[] {
    const all = new Set<number>();
    for (const operation of this.coverage().operations)
      for (const status of operation.statuses) all.add(status);
    return [...all].sort((a, b) => a - b);
  }

  exercisedOperations(): number {
    return this.coverage().operations.filter((operation) => operation.statuses.length > 0).length;
  }
}

/**
 * A case as the reports keep it: exchanges only for a case that failed or errored (they are what reproduces it);
 * a passed or skipped case keeps its results (skips with their reasons) but no exchange, so memory and report size
 * follow the failures, never the number of requests.
 */
export function keptForReport(event: CaseFinished): CaseFinished {
  if (event.exchanges.length === 0 || event.status === "failed" || event.status === "errored") return event;
  return { ...event, exchanges: [] };
}

function caseKey(suiteId: string, caseId: string): string {
  return `${suiteId}\u0000${caseId}`;
}
