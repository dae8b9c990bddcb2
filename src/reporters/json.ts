/**
 * The canonical, versioned record of a run (`report.json`), described by `report.schema.json`. Everything in it
 * came in an event: run metadata, the failure groups (every count), suites and cases (failed results with their
 * group, skipped results, passes counted), the first few failing exchanges of each group in full (redacted by the
 * engine; the rest are counted), coverage, retries and 429s, cleanup, and a bounded latency
 * histogram. Passing exchanges are only counted. The file is written in chunks, one case a line.
 * @module
 */
import type {
  BaselineComparison,
  CaseFinished,
  FailureGroup,
  NotRequestedReason,
  NotShown,
  OperationCoverage,
  RunSelection,
  RunStarted,
} from "../core/events.ts";
import type { Exchange, RequestIntent } from "../core/exchange.ts";
import type { CheckOutcome, CheckResult, Reproduction } from "../core/result.ts";
import { summarizeTable } from "../runner/coverage-summary.ts";
import { createFileReporter } from "./_internals/file-reporter.ts";
import type { LatencySummary } from "./_internals/latency-histogram.ts";
import {
  type RunRecord,
  type RunStatus,
  type SuiteRecord,
  type SuiteStatus,
  totalOf,
} from "./_internals/run-record.ts";
import type { JsonReporterOptions, Reporter, ReporterOptions } from "./types.ts";

/** The report format's version: bump the major on any change a reader could trip on, and the schema's `$id` with it. */
export const reportSchemaVersion = "2.6.0";
export const jsonReportFile = "report.json";

export interface JsonCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly errored: number;
  readonly interrupted: number;
  readonly total: number;
}

export interface JsonExchange {
  readonly id: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string | null;
    /** What a deliberately invalid request breaks, as its suite said. */
    readonly breaks?: string;
    /** What a generated request means to be. */
    readonly intent?: RequestIntent;
  };
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly json?: unknown;
    readonly text: string;
    readonly truncated: boolean;
    readonly bytes: number;
  } | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly timings: { readonly startedAt: number; readonly headersMs: number; readonly totalMs: number };
  readonly operationId: string | null;
  readonly retries: number;
}

export interface JsonCheckResult {
  readonly checkId: string;
  readonly exchangeId: number | null;
  readonly outcome: CheckOutcome;
  readonly group?: string;
  readonly count?: number;
  readonly reproduction?: Reproduction;
}

export interface JsonCase {
  readonly id: string;
  readonly title: string;
  readonly tags: readonly string[];
  readonly status: CaseFinished["status"];
  readonly durationMs: number;
  readonly passedChecks: number;
  readonly exchangeCount: number;
  readonly results: readonly JsonCheckResult[];
  readonly exchanges: readonly JsonExchange[];
  readonly skipReason?: string;
  readonly error?: { readonly code: string; readonly message: string };
  readonly errorGroup?: string;
  readonly reproduction?: {
    readonly seed: number;
    readonly path?: string;
    readonly counterexample?: unknown;
    readonly replay?: string;
  };
  readonly logs?: readonly string[];
}

export interface JsonSuite {
  readonly id: string;
  readonly title: string;
  readonly tags: readonly string[];
  readonly status: SuiteStatus;
  readonly plannedCases: number | null;
  readonly durationMs: number;
  readonly counts: JsonCounts;
  readonly cases: readonly JsonCase[];
}

/** An operation's row of the coverage table; a report older than 2.4.0 has only its id, method, path and statuses. */
export type JsonOperationCoverage = Pick<OperationCoverage, "operationId" | "method" | "path" | "statuses"> &
  Partial<Omit<OperationCoverage, "operationId" | "method" | "path" | "statuses">>;

/** The whole report, as `report.schema.json` describes it. */
export interface JsonReport {
  readonly schemaVersion: string;
  readonly runId: string;
  readonly status: RunStatus;
  /**
   * True when every planned case ran to its end. False for an interrupted run (SIGINT, SIGTERM: its counts,
   * `interrupted` cases and cleanup are here) and for one that stopped before the engine said it finished (crash,
   * kill, a second signal: then `cleanup` is null, and what is here is all there is). `exitCode` is null only for a
   * run that never said how it ended (crash, kill); a second signal gives its own (130, 143) and counts the cases
   * still running (`unfinishedCases`) as interrupted.
   */
  readonly complete: boolean;
  readonly exitCode: number | null;
  /**
   * A snapshot written while the run goes on (`conform proxy --report-every`): which one and when. Then `complete`
   * is false, `exitCode` and `finishedAt` null, `durationMs` the time so far, and the counts, groups and cases are
   * what was judged until `takenAt`; the report written when the run ends replaces it (with `snapshot` null).
   * Since 2.3.0.
   */
  readonly snapshot: { readonly sequence: number; readonly takenAt: string } | null;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly durationMs: number | null;
  readonly tool: { readonly name: "conform"; readonly version: string };
  readonly node: { readonly version: string };
  readonly target: { readonly baseUrl: string; readonly authUrl: string | null; readonly embedded: boolean };
  readonly spec: RunStarted["spec"];
  readonly seed: number;
  /** The label prefix of what the run created: `conform cleanup --prefix` (or `--from-report`) finds leftovers by it. */
  readonly labelPrefix: string;
  readonly counts: JsonCounts;
  readonly checks: { readonly passed: number; readonly failed: number; readonly skipped: number };
  readonly exchanges: {
    readonly total: number;
    readonly retries: number;
    readonly rateLimited: number;
    readonly latency: LatencySummary;
  };
  readonly coverage: {
    /** `neverRequested` and `notRequested` (operations never requested, per reason) since 2.4.0. */
    readonly operations: {
      readonly exercised: number;
      readonly total: number;
      readonly neverRequested?: number;
      readonly notRequested?: Readonly<Partial<Record<NotRequestedReason, number>>>;
    };
    readonly statuses: readonly number[];
    readonly byOperation: readonly JsonOperationCoverage[];
  };
  readonly cleanup: { readonly deleted: number; readonly failed: readonly string[] } | null;
  readonly warnings: readonly string[];
  readonly unfinishedCases: readonly {
    readonly suiteId: string;
    readonly caseId: string;
    readonly title: string;
  }[];
  /** The failure groups, largest first. */
  readonly groups: readonly FailureGroup[];
  /** The options that selected the suites and checks (shards of one run agree on it; merge-reports checks). */
  readonly selection: RunSelection | null;
  /** `--shard i/n`: which shard of the selection this run is. */
  readonly shard: { readonly index: number; readonly count: number } | null;
  /** A merged run: the shards it was made from. */
  /** A merged run: each shard's run id, index and label prefix (labelPrefix since 2.2.0). */
  readonly mergedFrom:
    | readonly { readonly runId: string; readonly shard: number | null; readonly labelPrefix?: string }[]
    | null;
  /** `--baseline`: the groups known, new and fixed against it. */
  readonly baseline: BaselineComparison | null;
  /** `conform proxy`, `conform verify`: what the traffic never showed (null for a run). Since 2.5.0. */
  readonly notShown?: NotShown | null;
  readonly suites: readonly JsonSuite[];
}

function withTotal(counts: Omit<JsonCounts, "total">): JsonCounts {
  return {
    passed: counts.passed,
    failed: counts.failed,
    skipped: counts.skipped,
    errored: counts.errored,
    interrupted: counts.interrupted,
    total: totalOf(counts),
  };
}

export function toJsonExchange(exchange: Exchange): JsonExchange {
  const { request, response } = exchange;
  return {
    id: exchange.id,
    request: {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body ?? null,
      ...(request.breaks === undefined ? {} : { breaks: request.breaks }),
      ...(request.intent === undefined ? {} : { intent: request.intent }),
    },
    response: response
      ? {
          status: response.status,
          headers: response.headers,
          ...(response.json === undefined ? {} : { json: response.json }),
          text: response.text,
          truncated: response.truncated,
          bytes: response.bytes,
        }
      : null,
    error: exchange.error ? { code: exchange.error.code, message: exchange.error.message } : null,
    timings: {
      startedAt: exchange.timings.startedAt,
      headersMs: exchange.timings.headersMs,
      totalMs: exchange.timings.totalMs,
    },
    operationId: exchange.operationId ?? null,
    retries: exchange.retries,
  };
}

function toJsonResult(result: CheckResult): JsonCheckResult {
  return {
    checkId: result.checkId,
    exchangeId: result.exchangeId ?? null,
    outcome: result.outcome,
    ...(result.group === undefined ? {} : { group: result.group }),
    ...(result.count === undefined ? {} : { count: result.count }),
    ...(result.reproduction === undefined ? {} : { reproduction: result.reproduction }),
  };
}

export function toJsonCase(event: CaseFinished): JsonCase {
  return {
    id: event.caseId,
    title: event.title,
    tags: event.tags,
    status: event.status,
    durationMs: event.durationMs,
    passedChecks: event.passedChecks,
    exchangeCount: event.exchangeCount,
    results: event.results.map(toJsonResult),
    exchanges: event.exchanges.map(toJsonExchange),
    ...(event.skipReason === undefined ? {} : { skipReason: event.skipReason }),
    ...(event.error === undefined ? {} : { error: { code: event.error.code, message: event.error.message } }),
    ...(event.errorGroup === undefined ? {} : { errorGroup: event.errorGroup }),
    ...(event.reproduction === undefined
      ? {}
      : {
          reproduction: {
            seed: event.reproduction.seed,
            ...(event.reproduction.path === undefined ? {} : { path: event.reproduction.path }),
            ...(event.reproduction.counterexample === undefined
              ? {}
              : { counterexample: event.reproduction.counterexample }),
            ...(event.reproduction.replay === undefined ? {} : { replay: event.reproduction.replay }),
          },
        }),
    ...(event.logs === undefined || event.logs.length === 0 ? {} : { logs: event.logs }),
  };
}

/** The coverage table and its numbers (the table's own summary: every format counts the same way). */
function jsonCoverage(record: RunRecord): JsonReport["coverage"] {
  const coverage = record.coverage();
  const summary = summarizeTable(coverage.operations, coverage.total);
  return {
    operations: {
      exercised: record.exercisedOperations(),
      total: coverage.total,
      neverRequested: summary.neverRequested,
      notRequested: Object.fromEntries(summary.reasons.map((one) => [one.reason, one.count])),
    },
    statuses: record.statusesSeen(),
    byOperation: coverage.operations.map((operation) => ({
      ...operation,
      statuses: [...operation.statuses],
      suites: [...operation.suites],
      checks: [...operation.checks],
    })),
  };
}

/** Everything but the suites (which are streamed after it). */
export function reportHead(record: RunRecord, started: RunStarted): Omit<JsonReport, "suites"> {
  const finished = record.finished;
  const cases = record.allCases();
  let failedChecks = 0;
  let skippedChecks = 0;
  for (const one of cases) {
    for (const result of one.results) {
      if (result.outcome.status === "failed") failedChecks += result.count ?? 1;
      else if (result.outcome.status === "skipped") skippedChecks += 1;
    }
  }
  return {
    schemaVersion: reportSchemaVersion,
    runId: started.runId,
    status: record.status,
    complete: record.complete,
    exitCode: record.snapshot ? null : (finished?.exitCode ?? record.abandonedWith ?? null),
    snapshot: record.snapshot ?? null,
    startedAt: started.startedAt,
    finishedAt: record.snapshot ? null : (finished?.finishedAt ?? null),
    durationMs: finished?.durationMs ?? null,
    tool: { name: "conform", version: started.toolVersion },
    node: { version: started.nodeVersion },
    target: {
      baseUrl: started.target.baseUrl,
      authUrl: started.target.authUrl ?? null,
      embedded: started.target.embedded,
    },
    spec: { source: started.spec.source, version: started.spec.version, operations: started.spec.operations },
    seed: started.seed,
    labelPrefix: started.labelPrefix,
    counts: withTotal(record.counts),
    checks: {
      passed: cases.reduce((sum, one) => sum + one.passedChecks, 0),
      failed: failedChecks,
      skipped: skippedChecks,
    },
    exchanges: {
      total: record.exchanges,
      retries: record.retries,
      rateLimited: record.rateLimited,
      latency: record.latency.summary(),
    },
    coverage: jsonCoverage(record),
    cleanup: finished ? { deleted: finished.cleanup.deleted, failed: [...finished.cleanup.failed] } : null,
    warnings: [...record.warnings],
    unfinishedCases: record.openCases.map((open) => ({
      suiteId: open.suiteId,
      caseId: open.caseId,
      title: open.title,
    })),
    selection: started.selection ?? null,
    shard: started.shard ?? null,
    mergedFrom: started.mergedFrom ?? null,
    baseline: finished?.baseline ?? null,
    notShown: finished?.notShown ?? null,
    groups: record.groups().map((group) => ({
      ...group,
      firstCases: group.firstCases.map((one) => ({ suiteId: one.suiteId, caseId: one.caseId })),
      operations: group.operations.map((one) => ({ operationId: one.operationId, failures: one.failures })),
    })),
  };
}

function suiteHead(record: RunRecord, suite: SuiteRecord): Omit<JsonSuite, "cases"> {
  return {
    id: suite.id,
    title: suite.title,
    tags: suite.tags,
    status: record.suiteStatus(suite),
    plannedCases: suite.plannedCases ?? null,
    durationMs: record.suiteDurationMs(suite),
    counts: withTotal(record.suiteCounts(suite)),
  };
}

/** `{"a":1}` + `,"key":[` → `{"a":1,"key":[`: opens an array as the object's last member. */
function openArray(head: object, key: string): string {
  return `${JSON.stringify(head).slice(0, -1)},${JSON.stringify(key)}:[`;
}

/** The report as chunks: the head, then each suite with one case a line. */
export function* jsonReportChunks(record: RunRecord, started: RunStarted): Generator<string> {
  yield openArray(reportHead(record, started), "suites");
  let firstSuite = true;
  for (const suite of record.suites.values()) {
    yield `${firstSuite ? "" : ","}\n${openArray(suiteHead(record, suite), "cases")}`;
    firstSuite = false;
    let firstCase = true;
    for (const one of suite.cases) {
      yield `${firstCase ? "" : ","}\n${JSON.stringify(toJsonCase(one))}`;
      firstCase = false;
    }
    yield "]}";
  }
  yield "\n]}\n";
}

export function createJsonReporter(options: ReporterOptions, _own: JsonReporterOptions = {}): Reporter {
  return createFileReporter(options, {
    name: "json",
    file: jsonReportFile,
    render: jsonReportChunks,
    abandon: true,
  });
}
