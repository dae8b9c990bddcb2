/**
 * The engine: the run's lifecycle and scheduling. It announces the run, runs the selected suites (cases in order
 * within a suite, suites concurrently up to the configured bound; a case is run by `run-case.ts`, each exchange
 * judged by `exchange-judge.ts`), cleans up what the run created (on failure and interruption too) and says how
 * the run ended, with its exit code. Memory stays flat however long the run: cases keep failing results only.
 * @module
 */
import type { CheckDefinition } from "../checks/types.ts";
import { RunInterrupted, RunTimedOut } from "../core/errors.ts";
import type {
  BaselineComparison,
  CaseStatus,
  Counts,
  PlannedSuite,
  RunFinished,
  RunStarted,
} from "../core/events.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { SecretValues } from "../core/redact.ts";
import type { ApiSpec } from "../spec/types.ts";
import { KeptBodies } from "./case-tally.ts";
import type { RunConfig } from "./config.ts";
import { genericLeftOutOf, planCoverage } from "./coverage-plan.ts";
import { withFailUnder } from "./coverage-summary.ts";
import { compareWithBaseline } from "./earlier-report.ts";
import type { EventBus } from "./event-bus.ts";
import { ExchangeJudge } from "./exchange-judge.ts";
import { FailureGroups } from "./failure-groups.ts";
import { HttpClient } from "./http-client.ts";
import { LabelMaker } from "./labels.ts";
import { CleanupLedger } from "./ledger.ts";
import { operationMatcher } from "./operation-matcher.ts";
import { everyOperation, type OperationSelection } from "./operation-selection.ts";
import { RatePacer } from "./rate-pacer.ts";
import { type CaseOutcome, type CaseRunDeps, runCase, skippedCase } from "./run-case.ts";
import { judgeRunEnd } from "./run-end-checks.ts";
import { runWarnings } from "./run-warnings.ts";
import { SharedReads } from "./shared-reads.ts";
import { StrayErrors } from "./stray-errors.ts";
import type { Suite, SuiteCase, SuiteHooks, TargetInfo } from "./suite-api.ts";

export interface ResolvedTarget extends TargetInfo {
  readonly token: string | undefined;
  /** PEM of a CA to trust (the embedded server's own certificate, or `--ca`). */
  readonly ca: string | undefined;
  /**
   * The login server's user when the run knows it (the embedded server's seeded user): suites read it as
   * `t.options.login` unless the config gives one. The password is a secret of the run (never printed).
   */
  readonly login?: { readonly username: string; readonly password: string };
}

export interface EngineInput {
  readonly runId: string;
  readonly spec: ApiSpec;
  readonly target: ResolvedTarget;
  readonly config: RunConfig;
  readonly suites: readonly Suite[];
  readonly refused: readonly { readonly suite: Suite; readonly reason: string }[];
  readonly checks: readonly CheckDefinition[];
  /** The operations cases may request (`--operation` and the like); default: every one. */
  readonly operations?: OperationSelection;
  readonly bus: EventBus;
  readonly signal: AbortSignal;
  readonly toolVersion: string;
  readonly hooks?: SuiteHooks;
  /** What the run should know before its first case (no token for a target, say): warnings after run-started. */
  readonly warnings?: readonly string[];
  /** The run's cleanup ledger, when the caller wants to read what is left (a second signal); else the engine's own. */
  readonly ledger?: CleanupLedger;
}

/** The run's selection by operation as run-started says it: only the options given, nothing without any. */
function operationSelectionOf(config: RunConfig): { operations?: Record<string, string[]> } {
  const given = Object.entries({
    operations: config.operations,
    excludeOperations: config.excludeOperations,
    methods: config.methods,
    paths: config.paths,
  }).filter(([, values]) => values.length > 0);
  return given.length === 0
    ? {}
    : { operations: Object.fromEntries(given.map(([key, values]) => [key, [...values]])) };
}

/** The suites' options: the config's, with the target's known login where the config names none. */
function suiteOptionsFor(config: RunConfig, target: ResolvedTarget): Readonly<Record<string, unknown>> {
  if (!target.login || config.suiteOptions.login !== undefined) return config.suiteOptions;
  return { ...config.suiteOptions, login: target.login };
}

/** Runs per generated property: the config's (`conform fuzz --runs`), else a positive `suiteOptions.runs`. */
function propertyRunsFor(config: RunConfig): number | undefined {
  const fromOptions = config.suiteOptions.runs;
  return (
    config.propertyRuns ??
    (typeof fromOptions === "number" && Number.isInteger(fromOptions) && fromOptions > 0
      ? fromOptions
      : undefined)
  );
}

export const emptyCounts = (): { -readonly [K in keyof Counts]: number } => ({
  passed: 0,
  failed: 0,
  skipped: 0,
  errored: 0,
  interrupted: 0,
});

/** The status of cases counted together: errored, failed or interrupted when one is, passed when one passed. */
export function worstStatus(counts: Counts): CaseStatus {
  if (counts.errored > 0) return "errored";
  if (counts.failed > 0) return "failed";
  if (counts.interrupted > 0) return "interrupted";
  if (counts.passed > 0) return "passed";
  return "skipped";
}

/** Runs at most `limit` tasks at once. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) await task(items[next++]!);
  });
  await Promise.all(workers);
}

/** What a run's start says of its selection and shard. */
export function selectionOf(config: RunConfig): Pick<RunStarted, "selection" | "shard"> {
  return {
    selection: {
      suites: [...config.suites],
      tags: [...config.tags],
      excludeTags: [...config.excludeTags],
      checks: [...config.checks],
      excludeChecks: [...config.excludeChecks],
      ...operationSelectionOf(config),
    },
    ...(config.shard ? { shard: { index: config.shard.index, count: config.shard.count } } : {}),
  };
}

/** The exit code of a run aborted for `reason`: its signal's (130, 143); any other abort counts as SIGINT. */
export function abortExitCode(reason: unknown): number {
  if (reason instanceof RunInterrupted) return reason.exitCode;
  // The run's time limit: ended like an interruption, but the toolkit did not finish its job (exit 2).
  return reason instanceof RunTimedOut ? ExitCode.toolkitError : ExitCode.interrupted;
}

/**
 * How a run ends: interrupted (130 for SIGINT, 143 for SIGTERM: the signal's {@link RunInterrupted} is the abort
 * reason; any other abort counts as SIGINT), a failure, nothing that passed (a green report of nothing must not
 * pass a gate).
 */
function verdictOf(
  totals: Counts,
  signal: AbortSignal,
  baseline: BaselineComparison | undefined,
): Pick<RunFinished, "status" | "exitCode"> {
  if (signal.aborted) return { status: "interrupted", exitCode: abortExitCode(signal.reason) };
  // With a baseline, failures of known groups only still make the run `failed`, but not its exit code.
  if (totals.failed + totals.errored > 0)
    return {
      status: "failed",
      exitCode: baseline && baseline.new.length === 0 ? ExitCode.ok : ExitCode.checkFailed,
    };
  if (totals.passed === 0) return { status: "errored", exitCode: ExitCode.toolkitError };
  return { status: "passed", exitCode: ExitCode.ok };
}

/** With `--warnings-as-errors`, a run that would pass exits 1 when it has warnings (its status says what it judged). */
function withWarnings(
  verdict: Pick<RunFinished, "status" | "exitCode">,
  warnings: number,
): Pick<RunFinished, "status" | "exitCode"> {
  return warnings > 0 && verdict.exitCode === ExitCode.ok
    ? { ...verdict, exitCode: ExitCode.checkFailed }
    : verdict;
}

/** What the generic layer will request of each operation, or why not: the coverage table's rows. */
function coveragePlanOf(input: EngineInput) {
  return planCoverage({
    spec: input.spec,
    operations: input.operations ?? everyOperation,
    genericLeftOut: genericLeftOutOf(input.suites, input.refused),
    writesAllowed: input.target.writesAllowed,
  });
}

export async function runEngine(input: EngineInput): Promise<RunFinished> {
  const started = performance.now();
  const waits = new RateLimitWaits(input.bus);
  const thinNotes: string[] = [];
  const deps = caseDeps(input, waits, thinNotes);
  announceRun(input, deps);
  const schedule = new SuiteSchedule(input, deps);
  const cleanup = await runSuitesThenCleanUp(input, deps, schedule);
  return finishRun(input, { deps, schedule, waits, thinNotes, cleanup, started });
}

/** The run's waits for rate limits: each announced as it starts (`rate-limit-wait`), their sum for the warnings. */
class RateLimitWaits {
  readonly #bus: EventBus;
  waitedMs = 0;

  constructor(bus: EventBus) {
    this.#bus = bus;
  }

  /** The pacing key is `<operation>\u0000<caller>`: the limit is named by its operation, never by the token. */
  announce(key: string, waitMs: number, reason: "window" | "budget" | "retry-after"): void {
    this.waitedMs += waitMs;
    this.#bus.emit({ type: "rate-limit-wait", limit: key.split("\u0000")[0] ?? key, waitMs, reason });
  }
}

/** The run's secrets as it starts: the target's token and the login's password. */
function runSecrets(input: EngineInput, suiteOptions: Readonly<Record<string, unknown>>): SecretValues {
  const secrets = new SecretValues();
  secrets.add(input.target.token);
  const login = suiteOptions.login as { password?: unknown } | undefined;
  if (typeof login?.password === "string") secrets.add(login.password);
  return secrets;
}

/** The run's HTTP client, with the config's bounds, pacing and headers. */
function runClient(
  input: EngineInput,
  secrets: SecretValues,
  matchOperation: (method: string, url: string) => string | undefined,
  waits: RateLimitWaits,
): HttpClient {
  const { config, target } = input;
  return new HttpClient({
    timeoutMs: config.timeoutMs,
    ca: target.ca,
    insecure: config.insecure,
    connections: Math.max(8, config.concurrency),
    maxResponseBytes: config.maxResponseBytes,
    requestDeadlineMs: config.requestDeadlineMs,
    maxRetries: config.maxRetries,
    maxWaitMs: config.maxWaitMs,
    // Shards share the token's limits with the other shards' processes: each paces to its part of a window.
    pacer: new RatePacer(
      config.rate,
      undefined,
      (key, waitMs, reason) => waits.announce(key, waitMs, reason),
      config.maxWaitMs,
      config.shard?.count ?? 1,
    ),
    onRetryWait: (key, waitMs) => waits.announce(key, waitMs, "retry-after"),
    secrets,
    matchOperation,
    addedHeaders: Object.keys(config.headers).length > 0 ? config.headers : undefined,
  });
}

/** What every case of the run is given: the client, the ledger, the judge, the failure groups, the options. */
function caseDeps(input: EngineInput, waits: RateLimitWaits, thinNotes: string[]): CaseRunDeps {
  const { spec, target, config, bus, signal } = input;
  const suiteOptions = suiteOptionsFor(config, target);
  const secrets = runSecrets(input, suiteOptions);
  const matchOperation = operationMatcher(spec, target);
  const groups = new FailureGroups(
    (event) => bus.emit(event),
    spec.operations.all().map((operation) => operation.operationId),
    (path) =>
      ["get", "post", "put", "delete"]
        .map((method) => spec.operations.match(method, path)?.operation.pathTemplate)
        .find((template) => template !== undefined),
  );
  return {
    spec,
    target,
    token: target.token,
    seed: config.seed,
    options: suiteOptions,
    hooks: input.hooks ?? {},
    propertyRuns: propertyRunsFor(config),
    replay: config.replayProperty,
    signal,
    client: runClient(input, secrets, matchOperation, waits),
    labels: new LabelMaker(config.labelPrefix, input.runId),
    ledger: input.ledger ?? new CleanupLedger(),
    secrets,
    judge: new ExchangeJudge(spec, input.checks),
    bus,
    groups,
    keptBodies: new KeptBodies(config.keptBodyBytes, config.keptReportBytes),
    strays: new StrayErrors(),
    reads: new SharedReads(),
    thinEvidence: (note: string) => thinNotes.push(note),
    ...(config.baseline
      ? { knownFailure: (name: string) => config.baseline!.groups.has(groups.idOf(`assert:${name}`, "").id) }
      : {}),
    operations: input.operations ?? everyOperation,
    matchOperation,
  };
}

/** `run-started`, then what the run should know before its first case. */
function announceRun(input: EngineInput, deps: CaseRunDeps): void {
  const { spec, target, config, bus } = input;
  const planned: PlannedSuite[] = [...input.suites, ...input.refused.map((entry) => entry.suite)].map(
    (suite) => ({ id: suite.id, title: suite.title, tags: suite.tags, cases: suite.cases.length }),
  );
  bus.emit({
    type: "run-started",
    runId: input.runId,
    startedAt: new Date().toISOString(),
    target: { baseUrl: target.baseUrl, authUrl: target.authUrl, embedded: target.embedded },
    spec: { source: spec.source, version: spec.version, operations: spec.operations.all().length },
    seed: config.seed,
    labelPrefix: deps.labels.stem,
    suites: planned,
    ...selectionOf(config),
    toolVersion: input.toolVersion,
    nodeVersion: process.version,
  });
  for (const message of input.warnings ?? []) bus.emit({ type: "warning", message });
  for (const entry of input.refused) {
    bus.emit({ type: "warning", message: `suite ${entry.suite.id} not run: ${entry.reason}` });
  }
}

/** Runs a suite's cases in order, or skips them with the reason; counts the run's outcomes. */
class SuiteSchedule {
  readonly #input: EngineInput;
  readonly #deps: CaseRunDeps;
  readonly totals = emptyCounts();
  /** Why cases of suites that ran were skipped, for the end warnings. */
  readonly skippedReasons: string[] = [];

  constructor(input: EngineInput, deps: CaseRunDeps) {
    this.#input = input;
    this.#deps = deps;
  }

  async runSuite(suite: Suite, refusal: string | undefined): Promise<void> {
    const { bus } = this.#input;
    const suiteStarted = performance.now();
    const counts = emptyCounts();
    const shared = new Map<string, unknown>();
    bus.emit({ type: "suite-started", suiteId: suite.id, title: suite.title, tags: suite.tags });
    for (const entry of suite.cases) {
      const reason = this.#reasonNotToRun(entry, refusal);
      const outcome: CaseOutcome =
        reason === undefined ? await runCase(this.#deps, suite, entry, shared) : skippedCase(reason);
      this.totals[outcome.status] += 1;
      counts[outcome.status] += 1;
      if (outcome.status === "skipped" && !refusal)
        this.skippedReasons.push(outcome.skipReason ?? "no reason");
      bus.emit({
        type: "case-finished",
        suiteId: suite.id,
        caseId: entry.id,
        title: entry.title,
        tags: [...suite.tags, ...(entry.tags ?? [])],
        ...outcome,
      });
    }
    bus.emit({
      type: "suite-finished",
      suiteId: suite.id,
      status: worstStatus(counts),
      counts,
      durationMs: performance.now() - suiteStarted,
    });
  }

  /** Why a case is not run, or undefined to run it. */
  #reasonNotToRun(entry: SuiteCase, refusal: string | undefined): string | undefined {
    const { config, signal } = this.#input;
    if (refusal) return refusal;
    const excludedBy = (entry.tags ?? []).find((tag) => config.excludeTags.includes(tag));
    if (excludedBy) return `excluded by --exclude-tag ${excludedBy}`;
    if (signal.aborted)
      return signal.reason instanceof RunTimedOut ? signal.reason.message : "the run was interrupted";
    const { failed, errored } = this.totals;
    if (config.maxFailures > 0 && failed + errored >= config.maxFailures)
      return `stopped after ${config.maxFailures} failing cases (--max-failures)`;
    return undefined;
  }
}

type CleanupOutcome = RunFinished["cleanup"];

/**
 * Runs the suites (bounded concurrency), the refused ones as skips, then cleans up what the run created: on
 * failure and on interruption too, without the run's abort signal.
 */
async function runSuitesThenCleanUp(
  input: EngineInput,
  deps: CaseRunDeps,
  schedule: SuiteSchedule,
): Promise<CleanupOutcome> {
  const { bus, signal, target } = input;
  const onLimit = () => {
    if (signal.reason instanceof RunTimedOut)
      bus.emit({
        type: "warning",
        message: `${signal.reason.message}: cases running end interrupted, cleanup runs`,
      });
  };
  signal.addEventListener("abort", onLimit, { once: true });
  // An error no suite awaited (a rejection left floating, a throw in a timer) would end the process with
  // resources left and no report: it errors the cases running when it came instead.
  const stopStrays = deps.strays?.install();
  const { client } = deps;
  let cleanup: CleanupOutcome;
  try {
    await eachLimited(input.suites, input.config.concurrency, (suite) => schedule.runSuite(suite, undefined));
    for (const entry of input.refused) await schedule.runSuite(entry.suite, entry.reason);
    const endStatus = judgeRunEnd({ ...deps, checks: input.checks });
    if (endStatus) schedule.totals[endStatus] += 1;
  } finally {
    signal.removeEventListener("abort", onLimit);
    cleanup = await deps.ledger.drain(async (deletePath) => {
      const headers: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {};
      const answer = await client.send({ method: "DELETE", url: `${target.baseUrl}${deletePath}`, headers });
      return answer.status;
    });
    await client.close();
    stopStrays?.();
  }
  return cleanup;
}

/** What ends the run: its end warnings, the baseline's comparison, and `run-finished` with the verdict. */
function finishRun(
  input: EngineInput,
  run: {
    readonly deps: CaseRunDeps;
    readonly schedule: SuiteSchedule;
    readonly waits: RateLimitWaits;
    readonly thinNotes: readonly string[];
    readonly cleanup: CleanupOutcome;
    readonly started: number;
  },
): RunFinished {
  const { config, bus, signal } = input;
  const { judge, groups } = run.deps;
  const totals = run.schedule.totals;
  // What the run's evidence lacks, said at its end (a green run stays green unless --warnings-as-errors).
  const warnings = runWarnings({
    durationMs: performance.now() - run.started,
    cases: totals.passed + totals.failed + totals.errored + totals.skipped + totals.interrupted,
    skipped: run.schedule.skippedReasons,
    refused: input.refused.map((entry) => ({ suite: entry.suite.id, reason: entry.reason })),
    answers: judge.answers(),
    waitedMs: run.waits.waitedMs,
    checksNeverJudged: judge.checksNeverJudged(),
    exchanges: judge.exchanges,
    thin: [...run.thinNotes],
  });
  for (const message of warnings) bus.emit({ type: "warning", message: `warning: ${message}` });
  const summary = groups.summary();
  const baseline = baselineOf(config, summary, signal.aborted ? [] : input.suites);
  const { client } = run.deps;
  const finished: RunFinished = {
    type: "run-finished",
    runId: input.runId,
    finishedAt: new Date().toISOString(),
    durationMs: performance.now() - run.started,
    ...withWarnings(verdictOf(totals, signal, baseline), config.warningsAsErrors ? warnings.length : 0),
    counts: totals,
    exchanges: judge.exchanges,
    coverage: judge.coverage(coveragePlanOf(input)),
    retries: client.retries,
    rateLimited: client.rateLimited,
    cleanup: run.cleanup,
    groups: summary,
    ...(baseline ? { baseline } : {}),
  };
  const gated = withFailUnder(finished, config.failUnder);
  bus.emit(gated);
  return gated;
}

/** Which baseline groups are known, new and fixed; `suitesRun`: the suites that ran to their end. */
function baselineOf(
  config: RunConfig,
  summary: ReturnType<FailureGroups["summary"]>,
  suitesRun: readonly Suite[],
): BaselineComparison | undefined {
  if (!config.baseline) return undefined;
  return {
    source: config.baseline.source,
    ...compareWithBaseline(
      config.baseline,
      summary.map((group) => group.id),
      new Set(suitesRun.map((suite) => suite.id)),
    ),
  };
}
