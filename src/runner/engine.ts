/**
 * The engine: runs the selected suites against a target, cases in order within a suite and suites concurrently
 * (bounded), applies every enabled check to every exchange, emits the event stream, and cleans up what the run
 * created (on failure and interruption too). It keeps the exchanges of failing results only, so memory stays flat
 * however long the run.
 * @module
 */
import type { CheckDefinition } from "../checks/types.ts";
import type {
  CaseFinished,
  CaseStatus,
  Counts,
  OperationCoverage,
  PlannedSuite,
  RunFinished,
} from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import { SecretValues } from "../core/redact.ts";
import type { CheckResult } from "../core/result.ts";
import type { ApiSpec } from "../spec/types.ts";
import { type CaseRecorder, CaseSkipped, createCaseContext } from "./case-context.ts";
import { CaseTally } from "./case-tally.ts";
import type { RunConfig } from "./config.ts";
import type { EventBus } from "./event-bus.ts";
import { HttpClient, TransportError } from "./http-client.ts";
import { LabelMaker } from "./labels.ts";
import { CleanupLedger } from "./ledger.ts";
import { operationMatcher } from "./operation-matcher.ts";
import { RatePacer } from "./rate-pacer.ts";
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

/** The suites' options: the config's, with the target's known login where the config names none. */
function suiteOptionsFor(config: RunConfig, target: ResolvedTarget): Readonly<Record<string, unknown>> {
  if (!target.login || config.suiteOptions.login !== undefined) return config.suiteOptions;
  return { ...config.suiteOptions, login: target.login };
}

export interface EngineInput {
  readonly runId: string;
  readonly spec: ApiSpec;
  readonly target: ResolvedTarget;
  readonly config: RunConfig;
  readonly suites: readonly Suite[];
  readonly refused: readonly { readonly suite: Suite; readonly reason: string }[];
  readonly checks: readonly CheckDefinition[];
  readonly bus: EventBus;
  readonly signal: AbortSignal;
  readonly toolVersion: string;
  readonly hooks?: SuiteHooks;
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

const emptyCounts = (): { -readonly [K in keyof Counts]: number } => ({
  passed: 0,
  failed: 0,
  skipped: 0,
  errored: 0,
});

function worstStatus(counts: Counts): CaseStatus {
  if (counts.errored > 0) return "errored";
  if (counts.failed > 0) return "failed";
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

export async function runEngine(input: EngineInput): Promise<RunFinished> {
  const { spec, target, config, bus, signal } = input;
  const started = performance.now();
  const secrets = new SecretValues();
  secrets.add(target.token);
  const suiteOptions = suiteOptionsFor(config, target);
  const login = suiteOptions.login as { password?: unknown } | undefined;
  if (typeof login?.password === "string") secrets.add(login.password);
  const matchOperation = operationMatcher(spec, target);
  const client = new HttpClient({
    timeoutMs: config.timeoutMs,
    ca: target.ca,
    insecure: config.insecure,
    connections: Math.max(8, config.concurrency * 2),
    maxResponseBytes: config.maxResponseBytes,
    maxRetries: config.maxRetries,
    maxRetryWaitMs: config.maxRetryWaitMs,
    pacer: new RatePacer(config.rate),
    secrets,
    matchOperation,
  });
  const ledger = new CleanupLedger();
  const labels = new LabelMaker(config.labelPrefix, input.runId);
  const statusesSeen = new Map<string, Set<number>>();
  const totals = emptyCounts();
  let exchanges = 0;
  let failures = 0;

  const planned: PlannedSuite[] = [...input.suites, ...input.refused.map((entry) => entry.suite)].map(
    (suite) => ({
      id: suite.id,
      title: suite.title,
      tags: suite.tags,
      cases: suite.cases.length,
    }),
  );
  bus.emit({
    type: "run-started",
    runId: input.runId,
    startedAt: new Date().toISOString(),
    target: { baseUrl: target.baseUrl, authUrl: target.authUrl, embedded: target.embedded },
    spec: { source: spec.source, version: spec.version, operations: spec.operations.all().length },
    seed: config.seed,
    suites: planned,
    toolVersion: input.toolVersion,
    nodeVersion: process.version,
  });

  /**
   * Runs every enabled check on an exchange: a pass is only counted (most outcomes are passes, and nothing
   * needs them one by one), anything else goes to `record` with the exchange it is about.
   */
  const judge = (
    exchange: Exchange,
    tally: CaseTally,
    record: (result: CheckResult, exchange: Exchange) => void,
  ): void => {
    exchanges += 1;
    if (exchange.operationId && exchange.response) {
      const seen = statusesSeen.get(exchange.operationId) ?? new Set<number>();
      seen.add(exchange.response.status);
      statusesSeen.set(exchange.operationId, seen);
    }
    const operation = exchange.operationId ? spec.operations.byId(exchange.operationId) : undefined;
    const context = { spec, operation, receivedAt: exchange.timings.startedAt + exchange.timings.totalMs };
    for (const definition of input.checks) {
      let outcome: CheckResult["outcome"];
      try {
        outcome = definition.check(context, exchange);
      } catch (error) {
        // A check must not throw; if one does, that is the toolkit's defect, reported as a failure of that check.
        outcome = {
          status: "failed",
          message: `check ${definition.id} crashed: ${(error as Error)?.message ?? error}`,
        };
      }
      if (outcome.status === "passed") tally.countPass();
      else record({ checkId: definition.id, exchangeId: exchange.id, outcome }, exchange);
    }
  };

  const finishCase = (
    suite: Suite,
    entry: SuiteCase,
    finished: Omit<CaseFinished, "type" | "suiteId" | "caseId" | "title" | "tags">,
  ) => {
    totals[finished.status] += 1;
    if (finished.status === "failed" || finished.status === "errored") failures += 1;
    bus.emit({
      type: "case-finished",
      suiteId: suite.id,
      caseId: entry.id,
      title: entry.title,
      tags: [...suite.tags, ...(entry.tags ?? [])],
      ...finished,
    });
    return finished.status;
  };

  const skipCase = (suite: Suite, entry: SuiteCase, reason: string): CaseStatus =>
    finishCase(suite, entry, {
      status: "skipped",
      durationMs: 0,
      results: [],
      passedChecks: 0,
      exchanges: [],
      exchangeCount: 0,
      skipReason: reason,
    });

  const runCase = async (
    suite: Suite,
    entry: SuiteCase,
    shared: Map<string, unknown>,
  ): Promise<CaseStatus> => {
    const caseStarted = performance.now();
    bus.emit({ type: "case-started", suiteId: suite.id, caseId: entry.id, title: entry.title });
    const tally = new CaseTally(secrets);
    let exchangeCount = 0;
    // Passes are counted, not announced: an event for each would be most of the stream (every check on every
    // exchange) and no listener needs them one by one (case-finished carries the count).
    const record = (result: CheckResult, exchange: Exchange | undefined) => {
      tally.add(result, exchange);
      if (result.outcome.status !== "passed")
        bus.emit({ type: "check", suiteId: suite.id, caseId: entry.id, result });
    };
    const recorder: CaseRecorder = {
      reproduction: undefined,
      logs: [],
      lastExchange: undefined,
      onExchange(exchange) {
        exchangeCount += 1;
        recorder.lastExchange = exchange;
        bus.emit({ type: "exchange", suiteId: suite.id, caseId: entry.id, exchange });
        judge(exchange, tally, record);
      },
      assert: record,
    };
    const t = createCaseContext(
      {
        client,
        spec,
        target,
        token: target.token,
        seed: config.seed,
        options: suiteOptions,
        hooks: input.hooks ?? {},
        propertyRuns: propertyRunsFor(config),
        signal,
        labels,
        ledger,
        secrets,
        shared,
      },
      recorder,
    );
    let skipReason: string | undefined;
    let error: CaseFinished["error"];
    try {
      await entry.run(t);
    } catch (thrown) {
      if (thrown instanceof CaseSkipped) skipReason = secrets.scrub(thrown.reason);
      else if (thrown instanceof TransportError) error = { code: thrown.code, message: thrown.message };
      else
        error = { code: "SUITE_ERROR", message: secrets.scrub(String((thrown as Error)?.stack ?? thrown)) };
    }
    const status: CaseStatus = error
      ? "errored"
      : tally.failed
        ? "failed"
        : skipReason
          ? "skipped"
          : "passed";
    return finishCase(suite, entry, {
      status,
      durationMs: performance.now() - caseStarted,
      results: tally.notable,
      passedChecks: tally.passed,
      exchanges: tally.exchanges,
      exchangeCount,
      ...(skipReason ? { skipReason } : {}),
      ...(error ? { error } : {}),
      ...(recorder.reproduction ? { reproduction: recorder.reproduction } : {}),
      ...(recorder.logs.length > 0 ? { logs: recorder.logs } : {}),
    });
  };

  const runSuite = async (suite: Suite, refusal: string | undefined) => {
    const suiteStarted = performance.now();
    const counts = emptyCounts();
    const shared = new Map<string, unknown>();
    bus.emit({ type: "suite-started", suiteId: suite.id, title: suite.title, tags: suite.tags });
    for (const entry of suite.cases) {
      let status: CaseStatus;
      const excludedBy = (entry.tags ?? []).find((tag) => config.excludeTags.includes(tag));
      if (refusal) status = skipCase(suite, entry, refusal);
      else if (excludedBy) status = skipCase(suite, entry, `excluded by --exclude-tag ${excludedBy}`);
      else if (signal.aborted) status = skipCase(suite, entry, "the run was interrupted");
      else if (config.maxFailures > 0 && failures >= config.maxFailures) {
        status = skipCase(suite, entry, `stopped after ${config.maxFailures} failing cases (--max-failures)`);
      } else status = await runCase(suite, entry, shared);
      counts[status] += 1;
    }
    bus.emit({
      type: "suite-finished",
      suiteId: suite.id,
      status: worstStatus(counts),
      counts,
      durationMs: performance.now() - suiteStarted,
    });
  };

  for (const entry of input.refused) {
    bus.emit({ type: "warning", message: `suite ${entry.suite.id} not run: ${entry.reason}` });
  }
  const cleanUp = () =>
    // Without the run's abort signal: an interrupted run still deletes what it made.
    ledger.drain(async (deletePath) => {
      const headers: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {};
      const answer = await client.send({ method: "DELETE", url: `${target.baseUrl}${deletePath}`, headers });
      return answer.status;
    });
  let cleanup: Awaited<ReturnType<typeof cleanUp>>;
  try {
    await eachLimited(input.suites, config.concurrency, (suite) => runSuite(suite, undefined));
    for (const entry of input.refused) await runSuite(entry.suite, entry.reason);
  } finally {
    cleanup = await cleanUp();
    await client.close();
  }

  const interrupted = signal.aborted;
  const failedRun = totals.failed + totals.errored > 0;
  // Every case skipped: a green report of nothing must not pass a CI gate.
  const nothingRan = totals.passed === 0 && !failedRun;
  const coverage: OperationCoverage[] = spec.operations.all().map((operation) => ({
    operationId: operation.operationId,
    method: operation.method.toUpperCase(),
    path: operation.pathTemplate,
    statuses: [...(statusesSeen.get(operation.operationId) ?? [])].sort((a, b) => a - b),
  }));
  const finished: RunFinished = {
    type: "run-finished",
    runId: input.runId,
    finishedAt: new Date().toISOString(),
    durationMs: performance.now() - started,
    status: interrupted ? "interrupted" : failedRun ? "failed" : nothingRan ? "errored" : "passed",
    counts: totals,
    exchanges,
    coverage,
    retries: client.retries,
    rateLimited: client.rateLimited,
    cleanup,
    exitCode: interrupted ? 130 : failedRun ? 1 : nothingRan ? 2 : 0,
  };
  bus.emit(finished);
  return finished;
}
