/**
 * The run's event stream: the engine emits these in order, reporters only listen (a reporter computes nothing the
 * engine did not emit). Every exchange in an event is already redacted.
 * @module
 */
import type { Exchange } from "./exchange.ts";
import type { CheckResult, Reproduction } from "./result.ts";

export type { Reproduction } from "./result.ts";

export type SuiteTag = "read-only" | "writes" | "costly" | "slow" | (string & {});

/**
 * `interrupted`: the case was running when the run was interrupted (SIGINT, SIGTERM). It is neither a failure nor
 * an error: what it judged before the signal is kept, nothing after it is.
 */
export type CaseStatus = "passed" | "failed" | "skipped" | "errored" | "interrupted";

export interface Counts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly errored: number;
  readonly interrupted: number;
}

export interface PlannedSuite {
  readonly id: string;
  readonly title: string;
  readonly tags: readonly SuiteTag[];
  readonly cases: number;
}

/** What a run selected (the options that decide its suites and checks): shards of one run must agree on it. */
export interface RunSelection {
  readonly suites: readonly string[];
  readonly tags: readonly string[];
  readonly excludeTags: readonly string[];
  readonly checks: readonly string[];
  readonly excludeChecks: readonly string[];
  /** The selection by operation, when one was given (`--operation`, `--exclude-operation`, `--method`, `--path-pattern`). */
  readonly operations?: {
    readonly operations?: readonly string[];
    readonly excludeOperations?: readonly string[];
    readonly methods?: readonly string[];
    readonly paths?: readonly string[];
  };
}

export interface RunStarted {
  readonly type: "run-started";
  readonly runId: string;
  readonly startedAt: string;
  readonly target: {
    readonly baseUrl: string;
    readonly authUrl: string | undefined;
    readonly embedded: boolean;
  };
  readonly spec: { readonly source: string; readonly version: string; readonly operations: number };
  readonly seed: number;
  /** What every label of a resource this run creates starts with (`conform-<last six of the run id>`). */
  readonly labelPrefix: string;
  readonly suites: readonly PlannedSuite[];
  /** The selection options, and the shard (`--shard i/n`) this run is; merged runs list the shards they hold. */
  readonly selection?: RunSelection;
  readonly shard?: { readonly index: number; readonly count: number };
  /**
   * A merged run (`conform merge-reports`): the shards' run ids, shard indexes and label prefixes (each shard labels
   * what it creates with its own; a shard report older than 2.2 has none).
   */
  readonly mergedFrom?: readonly {
    readonly runId: string;
    readonly shard: number | null;
    readonly labelPrefix?: string;
  }[];
  readonly toolVersion: string;
  readonly nodeVersion: string;
}

export interface SuiteStarted {
  readonly type: "suite-started";
  readonly suiteId: string;
  readonly title: string;
  readonly tags: readonly SuiteTag[];
}

export interface CaseStarted {
  readonly type: "case-started";
  readonly suiteId: string;
  readonly caseId: string;
  readonly title: string;
}

export interface ExchangeRecorded {
  readonly type: "exchange";
  readonly suiteId: string;
  readonly caseId: string;
  readonly exchange: Exchange;
}

/**
 * A check's or a suite assertion's result that is not a pass (failed or skipped), as it happens. Passes are only
 * counted, in {@link CaseFinished.passedChecks}: one event per check per exchange would be most of the stream.
 */
export interface CheckEvaluated {
  readonly type: "check";
  readonly suiteId: string;
  readonly caseId: string;
  readonly result: CheckResult;
}

/** A failure group as it opens (its first failure): what the failures it will count have in common. */
export interface FailureGroupOpened {
  readonly type: "failure-group";
  readonly group: {
    readonly id: string;
    /** The check id, `assert:<name>`, or `error:<code>` for errored cases. */
    readonly checkId: string;
    /** The message with its numbers, quoted values, ids and times replaced by placeholders. */
    readonly shape: string;
    /** The first failure's message as it was. */
    readonly example: string;
    /** The case of that first failure. */
    readonly suiteId: string;
    readonly caseId: string;
  };
}

/**
 * Failures of one check with one message shape, over the whole run: how many, in how many cases, the first few
 * cases, the operations they were seen on (most frequent first) and how many of their exchanges were kept in full.
 */
export interface FailureGroup {
  readonly id: string;
  readonly checkId: string;
  readonly shape: string;
  readonly example: string;
  readonly failures: number;
  readonly cases: number;
  readonly firstCases: readonly { readonly suiteId: string; readonly caseId: string }[];
  readonly operations: readonly { readonly operationId: string; readonly failures: number }[];
  /** Distinct operations the group was seen on (`operations` names the first few). */
  readonly operationCount: number;
  readonly exchangesKept: number;
}

export interface CaseFinished {
  readonly type: "case-finished";
  readonly suiteId: string;
  readonly caseId: string;
  readonly title: string;
  readonly tags: readonly SuiteTag[];
  readonly status: CaseStatus;
  readonly durationMs: number;
  /** Failed and skipped results in full; passes are counted in `passedChecks`. */
  readonly results: readonly CheckResult[];
  readonly passedChecks: number;
  /**
   * The exchanges that failed results point at, in full (redacted), for the first few failures of each group only;
   * passing exchanges are not kept.
   */
  readonly exchanges: readonly Exchange[];
  readonly exchangeCount: number;
  readonly skipReason?: string;
  readonly error?: { readonly code: string; readonly message: string };
  /** An errored case's failure group (`error:<code>` and the message's shape). */
  readonly errorGroup?: string;
  readonly reproduction?: Reproduction;
  /** What the case logged (`t.log`): transition times, command output; secrets scrubbed. */
  readonly logs?: readonly string[];
}

export interface SuiteFinished {
  readonly type: "suite-finished";
  readonly suiteId: string;
  readonly status: CaseStatus;
  readonly counts: Counts;
  readonly durationMs: number;
}

/**
 * Why an operation got no request, the first that applies: another server's (`servers`), left out by the operation
 * selection, no suite of the generic layer selected, no request the description lets conform build, a write that
 * could act on something real without `--allow-writes`, or planned and never reached (the run stopped, its case
 * was skipped or errored first).
 */
export type NotRequestedReason =
  | "other-server"
  | "deselected"
  | "suite-not-selected"
  | "unbuildable"
  | "writes-not-allowed"
  | "not-reached";

/** What an operation was planned to get before the run: requested by the generic layer, or not and why. */
export interface OperationPlan {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** Absent when the generic layer requests it. */
  readonly notRequested?: { readonly reason: NotRequestedReason; readonly detail: string };
  /** Requested, but on purpose with no valid request, and why (a write naming no resource, without writes). */
  readonly validWithheld?: string;
}

/** What one operation got in a run: its plan, its requests and answers, and who judged them. */
export interface OperationCoverage {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** Statuses of its answers (empty when never answered). */
  readonly statuses: readonly number[];
  /** Requests sent, answered or not. */
  readonly requests: number;
  /** Why it got no request (only when `requests` is 0). */
  readonly notRequested?: OperationPlan["notRequested"];
  /** Requests meant to be valid, and how many were answered 2xx. */
  readonly valid: { readonly sent: number; readonly accepted: number };
  /** Why no valid request was sent, when it was withheld on purpose (only when requested with none valid). */
  readonly validWithheld?: string;
  /** Requests breaking a rule on purpose, and how many were refused with a 4xx. */
  readonly invalid: { readonly sent: number; readonly refused: number };
  /** A request named a resource by a value the target's own answers gave (a stateful chain). */
  readonly chained: boolean;
  /** The suites whose cases requested it, sorted. */
  readonly suites: readonly string[];
  /** The checks that passed or failed on its answers (a skip judges nothing), sorted. */
  readonly checks: readonly string[];
}

/** The rules traffic may never show (`conform proxy`, `conform verify`): see {@link NotShown}. */
export type TrafficRuleId =
  | "rate-limit"
  | "error-path"
  | "unauthenticated"
  | "filtered-list"
  | "paginated-walk"
  | "write"
  | "oauth-flow";

/**
 * What traffic conform did not make never showed, so a green proxy or verify report says how much it proved: the
 * operations it never hit, the rules no exchange exercised (no 429, no 4xx, ...), and the enabled checks that
 * judged nothing (each with why).
 */
export interface NotShown {
  /** Operations answered at least once, of the description's; those never answered, in the description's order. */
  readonly operations: {
    readonly exercised: number;
    readonly total: number;
    readonly neverHit: readonly string[];
  };
  /** Each rule the description has and no exchange showed: what was not seen, and what stays unproven. */
  readonly rules: readonly {
    readonly id: TrafficRuleId;
    readonly missing: string;
    readonly unproven: string;
  }[];
  /** Enabled checks that neither passed nor failed: their first skip reason, or that no exchange was about them. */
  readonly checks: readonly { readonly checkId: string; readonly why: string }[];
}

/** A failure group of a baseline report: enough to name it when it is fixed. */
export interface BaselineGroup {
  readonly id: string;
  readonly checkId: string;
  readonly shape: string;
  readonly example: string;
  /** The suites of its first cases (a group is only called fixed when the run ran them). */
  readonly suites: readonly string[];
}

/**
 * The run's failure groups against a baseline (`--baseline report.json`): known groups do not fail the exit code,
 * new ones do; fixed are the baseline's groups that no longer fail in suites this run ran.
 */
export interface BaselineComparison {
  readonly source: string;
  readonly known: readonly string[];
  readonly new: readonly string[];
  readonly fixed: readonly BaselineGroup[];
}

export interface RunFinished {
  readonly type: "run-finished";
  readonly runId: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly status: "passed" | "failed" | "errored" | "interrupted";
  readonly counts: Counts;
  readonly exchanges: number;
  /** Every operation of the spec, with the statuses seen for it (empty when never exercised). */
  readonly coverage: readonly OperationCoverage[];
  /**
   * `--fail-under PERCENT`: the share of operations exercised against it; below it, `message` says so in one line
   * and a run that would pass exits 1 (its status still says what it judged).
   */
  readonly failUnder?: { readonly threshold: number; readonly percent: number; readonly message?: string };
  readonly retries: number;
  readonly rateLimited: number;
  readonly cleanup: { readonly deleted: number; readonly failed: readonly string[] };
  /** The run's failure groups, largest first. */
  readonly groups: readonly FailureGroup[];
  /** With `--baseline`: which groups are known, new and fixed (the exit code fails on new ones only). */
  readonly baseline?: BaselineComparison;
  /** Traffic conform did not make (proxy, verify): what it never showed. */
  readonly notShown?: NotShown;
  readonly exitCode: number;
}

/**
 * The run holds its requests to one limit for a while (one event per spent window, only for waits of a second or
 * more): a spent `X-RateLimit-*` window, a 429's `Retry-After`, or the fixed `--rate-limit` budget.
 */
export interface RateLimitWait {
  readonly type: "rate-limit-wait";
  /** The limit: the operation (or method and path) whose window is spent. */
  readonly limit: string;
  readonly waitMs: number;
  readonly reason: "window" | "retry-after" | "budget";
}

/**
 * What a run still going (a proxy, `--report-every`) has judged so far, as its end would say it if it stopped
 * now: each case still open as it would finish now (`cases`), their suites (`suites`) and the run's end so far
 * (`finished`: counts, failure groups, coverage; its status is the verdict so far, its exit code the one it would
 * have). File reporters write a snapshot of their reports from it and their record, without taking it into the
 * record: the run goes on, and its later events, then its real end, replace it.
 */
export interface RunSnapshot {
  readonly type: "run-snapshot";
  /** Counts the run's snapshots from 1. */
  readonly sequence: number;
  readonly takenAt: string;
  readonly cases: readonly CaseFinished[];
  readonly suites: readonly SuiteFinished[];
  readonly finished: RunFinished;
}

export interface RunWarning {
  readonly type: "warning";
  readonly message: string;
}

export type RunEvent =
  | RunStarted
  | SuiteStarted
  | CaseStarted
  | ExchangeRecorded
  | CheckEvaluated
  | FailureGroupOpened
  | CaseFinished
  | SuiteFinished
  | RunFinished
  | RateLimitWait
  | RunSnapshot
  | RunWarning;

export type RunEventType = RunEvent["type"];
