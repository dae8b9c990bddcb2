/**
 * `conform merge-reports`: the shards' `report.json` files turned back into one run's event stream (the inverse of
 * `json.ts`: `run-started`, per suite `suite-started`, its `case-finished` events and `suite-finished`, the merged
 * failure groups, `run-finished`), so every reporter writes the merged run again without learning a new input.
 * Counts, exchanges, retries, 429s and cleanup are summed; coverage is the union of the statuses seen per operation;
 * groups with the same id (the same check and message shape) are one group, their counts summed. The merge is
 * refused, saying which report and why, when the reports are of different descriptions or selections, repeat a
 * shard or a suite, or leave a shard out; only the run-end suite (`checks-at-run-end`) may be in several, its
 * cases one per shard (`_internals/merge-run-end.ts`). The latency histogram is not in report.json: a merged run has none.
 * @module
 */
import { statSync } from "node:fs";
import { basename, join } from "node:path";
import { ConfigError } from "../core/errors.ts";
import type {
  BaselineComparison,
  CaseFinished,
  FailureGroup,
  NotShown,
  OperationCoverage,
  RunEvent,
  RunFinished,
  RunStarted,
} from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { withFailUnder } from "../runner/coverage-summary.ts";
import { namedCasesPerGroup, namedOperationsPerGroup } from "../runner/failure-groups.ts";
import { runEndSuite } from "../runner/run-end-checks.ts";
import {
  caseCountKeys,
  suitesWithOneRunEnd,
  sumEach,
  withRunEndCaseNamed,
} from "./_internals/merge-run-end.ts";
import {
  type JsonCase,
  type JsonExchange,
  type JsonOperationCoverage,
  type JsonReport,
  type JsonSuite,
  jsonReportFile,
} from "./json.ts";
import { readReportFile } from "./report-file.ts";

/** A report read from disk, with where it came from (for messages). */
export interface ShardReport {
  readonly path: string;
  readonly report: JsonReport;
}

/** Reads `<dir>/report.json` (or the file itself); a ConfigError naming the path when it is not a 2.x report. */
export function readShardReport(path: string): ShardReport {
  let file = path;
  try {
    if (statSync(path).isDirectory()) file = join(path, jsonReportFile);
  } catch (error) {
    throw new ConfigError(`${path}: cannot be read (${(error as Error).message})`);
  }
  const report = readReportFile(file);
  if (!Array.isArray(report.suites) || !Array.isArray(report.groups))
    throw new ConfigError(`${file}: a report.json without suites or groups`);
  return { path: file, report };
}

const selectionKey = (report: JsonReport): string =>
  report.selection
    ? JSON.stringify(
        Object.entries(report.selection)
          .map(([key, values]) => [key, [...values].sort()])
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
      )
    : "";

const specKey = (report: JsonReport): string =>
  `${report.spec.version} (${report.spec.operations} operations, ${basename(report.spec.source)})`;

/** Why these reports cannot be one run (each problem names the report); empty when they can. */
export function mergeProblems(reports: readonly ShardReport[]): string[] {
  const problems: string[] = [];
  const [first, ...rest] = reports;
  if (!first) return ["no report to merge"];
  for (const one of reports)
    if (!one.report.selection)
      problems.push(`${one.path} does not say its selection (written before report format 2.1)`);
  for (const one of rest) {
    if (specKey(one.report) !== specKey(first.report))
      problems.push(
        `${one.path} is of a different description: ${specKey(one.report)}, not ${specKey(first.report)} as ${first.path}`,
      );
    if (
      one.report.selection &&
      first.report.selection &&
      selectionKey(one.report) !== selectionKey(first.report)
    )
      problems.push(
        `${one.path} selected other suites or checks: ${JSON.stringify(one.report.selection)}, not ${JSON.stringify(first.report.selection)} as ${first.path}`,
      );
  }
  const sharded = reports.filter((one) => one.report.shard);
  if (sharded.length > 0 && sharded.length < reports.length)
    problems.push(
      `${reports.find((one) => !one.report.shard)?.path} is a whole run, the others are shards (--shard): merge the shards of one run`,
    );
  const counts = new Set(sharded.map((one) => one.report.shard?.count));
  if (counts.size > 1)
    problems.push(`the shards split the run differently: into ${[...counts].join(" and ")}`);
  if (counts.size === 1 && sharded.length === reports.length) {
    const count = [...counts][0]!;
    const byIndex = new Map<number, string>();
    for (const one of sharded) {
      const index = one.report.shard!.index;
      const earlier = byIndex.get(index);
      if (earlier) problems.push(`shard ${index}/${count} is there twice: ${earlier} and ${one.path}`);
      byIndex.set(index, one.path);
    }
    for (let index = 1; index <= count; index++)
      if (!byIndex.has(index)) problems.push(`shard ${index}/${count} is missing`);
  }
  const suiteOwner = new Map<string, string>();
  for (const one of reports)
    for (const suite of one.report.suites) {
      // Each shard's end-of-run hooks judged its own traffic: their suites are joined, one case per shard.
      if (suite.id === runEndSuite.id) continue;
      const earlier = suiteOwner.get(suite.id);
      if (earlier) problems.push(`suite ${suite.id} is in two reports: ${earlier} and ${one.path}`);
      suiteOwner.set(suite.id, one.path);
    }
  return problems;
}

function toExchange(json: JsonExchange): Exchange {
  return {
    id: json.id,
    request: {
      method: json.request.method,
      url: json.request.url,
      headers: json.request.headers,
      body: json.request.body ?? undefined,
      ...(json.request.breaks === undefined ? {} : { breaks: json.request.breaks }),
      ...(json.request.intent === undefined ? {} : { intent: json.request.intent }),
    },
    response: json.response
      ? {
          status: json.response.status,
          headers: json.response.headers,
          json: json.response.json,
          text: json.response.text,
          truncated: json.response.truncated,
          bytes: json.response.bytes,
        }
      : undefined,
    error: json.error ?? undefined,
    timings: json.timings,
    operationId: json.operationId ?? undefined,
    retries: json.retries,
  };
}

/** A case of report.json as the `case-finished` event it was written from. */
export function toCaseFinished(suiteId: string, json: JsonCase): CaseFinished {
  return {
    type: "case-finished",
    suiteId,
    caseId: json.id,
    title: json.title,
    tags: json.tags,
    status: json.status,
    durationMs: json.durationMs,
    results: json.results.map((result) => ({
      checkId: result.checkId,
      exchangeId: result.exchangeId ?? undefined,
      outcome: result.outcome,
      ...(result.group === undefined ? {} : { group: result.group }),
      ...(result.count === undefined ? {} : { count: result.count }),
      ...(result.reproduction === undefined ? {} : { reproduction: result.reproduction }),
    })),
    passedChecks: json.passedChecks,
    exchanges: json.exchanges.map(toExchange),
    exchangeCount: json.exchangeCount,
    ...(json.skipReason === undefined ? {} : { skipReason: json.skipReason }),
    ...(json.error === undefined ? {} : { error: json.error }),
    ...(json.errorGroup === undefined ? {} : { errorGroup: json.errorGroup }),
    ...(json.reproduction === undefined ? {} : { reproduction: json.reproduction }),
    ...(json.logs === undefined ? {} : { logs: json.logs }),
  };
}

/** Groups of the same id are one: counts summed, named cases and operations the first few of all. */
export function mergeGroups(all: readonly (readonly FailureGroup[])[]): FailureGroup[] {
  const merged = new Map<string, FailureGroup>();
  for (const groups of all)
    for (const group of groups) {
      const earlier = merged.get(group.id);
      if (!earlier) {
        merged.set(group.id, group);
        continue;
      }
      const operations = new Map(earlier.operations.map((one) => [one.operationId, one.failures]));
      for (const one of group.operations)
        operations.set(one.operationId, (operations.get(one.operationId) ?? 0) + one.failures);
      merged.set(group.id, {
        ...earlier,
        failures: earlier.failures + group.failures,
        cases: earlier.cases + group.cases,
        firstCases: [...earlier.firstCases, ...group.firstCases].slice(0, namedCasesPerGroup),
        operations: [...operations]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .slice(0, namedOperationsPerGroup)
          .map(([operationId, failures]) => ({ operationId, failures })),
        // The shards' distinct operations may overlap: at least the largest shard's and the names counted here.
        operationCount: Math.max(earlier.operationCount, group.operationCount, operations.size),
        exchangesKept: earlier.exchangesKept + group.exchangesKept,
      });
    }
  return [...merged.values()].sort(
    (a, b) => b.failures - a.failures || a.checkId.localeCompare(b.checkId) || a.shape.localeCompare(b.shape),
  );
}

/**
 * A row as this version writes it. A report older than 2.4.0 counted no requests: each status it saw stands for
 * one request at least, meant valid, and nothing says why an operation without one was not requested.
 */
function fullRow(row: JsonOperationCoverage): OperationCoverage {
  return {
    operationId: row.operationId,
    method: row.method,
    path: row.path,
    statuses: row.statuses,
    requests: row.requests ?? row.statuses.length,
    ...(row.notRequested ? { notRequested: row.notRequested } : {}),
    valid: row.valid ?? { sent: row.statuses.length, accepted: row.statuses.filter((s) => s < 300).length },
    ...(row.validWithheld ? { validWithheld: row.validWithheld } : {}),
    invalid: row.invalid ?? { sent: 0, refused: 0 },
    chained: row.chained ?? false,
    suites: row.suites ?? [],
    checks: row.checks ?? [],
  };
}

/**
 * Each operation once: statuses, suites and checks joined, counts summed, chained if any shard chained it. One
 * never requested keeps a reason other than "suite not selected" when a shard has one (the generic layer ran in
 * one shard only: the others say it was not selected there).
 */
function mergeRows(earlier: OperationCoverage, row: OperationCoverage): OperationCoverage {
  const requests = earlier.requests + row.requests;
  const reasons = [earlier.notRequested, row.notRequested];
  const validSent = earlier.valid.sent + row.valid.sent;
  // Withheld in a shard that requested it, and no shard sent it a valid request.
  const validWithheld =
    requests > 0 && validSent === 0 ? (earlier.validWithheld ?? row.validWithheld) : undefined;
  const notRequested =
    requests > 0
      ? undefined
      : (reasons.find((one) => one && one.reason !== "suite-not-selected") ?? reasons.find(Boolean));
  return {
    operationId: earlier.operationId,
    method: earlier.method,
    path: earlier.path,
    statuses: [...new Set([...earlier.statuses, ...row.statuses])].sort((a, b) => a - b),
    requests,
    ...(notRequested ? { notRequested } : {}),
    valid: { sent: validSent, accepted: earlier.valid.accepted + row.valid.accepted },
    ...(validWithheld ? { validWithheld } : {}),
    invalid: {
      sent: earlier.invalid.sent + row.invalid.sent,
      refused: earlier.invalid.refused + row.invalid.refused,
    },
    chained: earlier.chained || row.chained,
    suites: [...new Set([...earlier.suites, ...row.suites])].sort(),
    checks: [...new Set([...earlier.checks, ...row.checks])].sort(),
  };
}

/** Each operation once, with what every report saw of it. */
export function mergeCoverage(all: readonly JsonReport["coverage"][]): OperationCoverage[] {
  const merged = new Map<string, OperationCoverage>();
  for (const coverage of all)
    for (const operation of coverage.byOperation) {
      const row = fullRow(operation);
      const earlier = merged.get(row.operationId);
      merged.set(row.operationId, earlier ? mergeRows(earlier, row) : row);
    }
  return [...merged.values()];
}

/**
 * What none of the reports' traffic showed: an operation, a rule or a check one report's traffic showed is shown
 * by the whole. Undefined unless every report has it (reports of runs, or older than 2.5.0, have none).
 */
export function mergeNotShown(all: readonly (NotShown | null | undefined)[]): NotShown | undefined {
  if (all.length === 0 || !all.every((one): one is NotShown => one != null)) return undefined;
  const [first, ...rest] = all as NotShown[];
  const inAll = <T>(items: readonly T[], key: (item: T) => string, pick: (one: NotShown) => readonly T[]) =>
    items.filter((item) => rest.every((one) => pick(one).some((other) => key(other) === key(item))));
  const neverHit = inAll(
    first!.operations.neverHit,
    (id) => id,
    (one) => one.operations.neverHit,
  );
  const total = Math.max(...all.map((one) => one!.operations.total));
  return {
    operations: { exercised: total - neverHit.length, total, neverHit },
    rules: inAll(
      first!.rules,
      (rule) => rule.id,
      (one) => one.rules,
    ),
    checks: inAll(
      first!.checks,
      (check) => check.checkId,
      (one) => one.checks,
    ),
  };
}

function mergeBaselines(all: readonly (BaselineComparison | null)[]): BaselineComparison | undefined {
  const given = all.filter((one): one is BaselineComparison => one !== null);
  if (given.length === 0) return undefined;
  const known = [...new Set(given.flatMap((one) => one.known))];
  const fresh = [...new Set(given.flatMap((one) => one.new))];
  const failing = new Set([...known, ...fresh]);
  const fixed = new Map(given.flatMap((one) => one.fixed).map((group) => [group.id, group]));
  return {
    source: given[0]!.source,
    known,
    new: fresh,
    fixed: [...fixed.values()].filter((group) => !failing.has(group.id)),
  };
}

/** The worst exit code of the shards: a toolkit error, then an interruption, then a failure. */
function mergedExit(reports: readonly JsonReport[]): Pick<RunFinished, "status" | "exitCode"> {
  const codes = reports.map((one) => one.exitCode ?? ExitCode.toolkitError);
  for (const code of [ExitCode.toolkitError, 143, ExitCode.interrupted, ExitCode.checkFailed])
    if (codes.includes(code)) {
      const status =
        reports.find((one) => (one.exitCode ?? ExitCode.toolkitError) === code)?.status ?? "errored";
      return { status, exitCode: code };
    }
  return {
    status: reports.some((one) => one.status === "failed") ? "failed" : "passed",
    exitCode: ExitCode.ok,
  };
}

/**
 * The merged run's events, in the order the engine emits them. Throws a ConfigError listing every problem when the
 * reports are not shards of one run ({@link mergeProblems}).
 */
export function mergedEvents(shards: readonly ShardReport[], runId: string, failUnder?: number): RunEvent[] {
  const problems = mergeProblems(shards);
  if (problems.length > 0)
    throw new ConfigError(`these reports are not one run, not merged:\n  ${problems.join("\n  ")}`);
  const reports = [...shards]
    .map((one) => one.report)
    .sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0))
    .map((report, position, all) => withRunEndCaseNamed(report, position, all.length));
  const suites = suitesWithOneRunEnd(reports);
  const events: RunEvent[] = [mergedStart(reports, runId, suites)];
  const seeds = [...new Set(reports.map((one) => one.seed))];
  if (seeds.length > 1)
    events.push({
      type: "warning",
      message: `the shards ran with different seeds (${seeds.join(", ")}): the merged report names the first; each failure's replay line carries its own`,
    });
  // Each embedded shard had its own server on its own port: one target all the same.
  const targets = [
    ...new Set(reports.map((one) => (one.target.embedded ? "the embedded reference" : one.target.baseUrl))),
  ];
  if (targets.length > 1)
    events.push({
      type: "warning",
      message: `the shards ran against different targets (${targets.join(", ")}): the merged report's header names the first`,
    });
  for (const report of reports)
    for (const message of report.warnings) events.push({ type: "warning", message });
  const groups = mergeGroups(reports.map((one) => one.groups));
  for (const group of groups) {
    const firstCase = group.firstCases[0];
    events.push({
      type: "failure-group",
      group: {
        id: group.id,
        checkId: group.checkId,
        shape: group.shape,
        example: group.example,
        suiteId: firstCase?.suiteId ?? "",
        caseId: firstCase?.caseId ?? "",
      },
    });
  }
  const unfinished = reports.flatMap((one) => one.unfinishedCases);
  for (const suite of suites) events.push(...suiteEvents(suite, unfinished));
  if (reports.some((one) => one.finishedAt === null)) return events;
  // `--fail-under` judges the whole run's coverage: the merged one, never a shard's part of it.
  events.push(withFailUnder(mergedFinish(reports, runId, groups), failUnder));
  return events;
}

/**
 * The merged run's start: the earliest shard's time, the first shard's target and spec, every shard's suites but the
 * run-end one (the engine plans none: it is there only when an end-of-run hook found something).
 */
function mergedStart(
  reports: readonly JsonReport[],
  runId: string,
  suites: readonly JsonSuite[],
): RunStarted {
  const first = reports[0]!;
  return {
    type: "run-started",
    runId,
    startedAt: reports.map((one) => one.startedAt).sort()[0]!,
    target: {
      baseUrl: first.target.baseUrl,
      authUrl: first.target.authUrl ?? undefined,
      embedded: first.target.embedded,
    },
    spec: first.spec,
    seed: first.seed,
    labelPrefix: first.labelPrefix,
    suites: suites
      .filter((suite) => suite.id !== runEndSuite.id)
      .map((suite) => ({
        id: suite.id,
        title: suite.title,
        tags: suite.tags,
        cases: suite.plannedCases ?? suite.cases.length,
      })),
    ...(first.selection ? { selection: first.selection } : {}),
    mergedFrom: reports.map((one) => ({
      runId: one.runId,
      shard: one.shard?.index ?? null,
      labelPrefix: one.labelPrefix,
    })),
    toolVersion: first.tool.version,
    nodeVersion: first.node.version,
  };
}

/** A suite as the engine told it: started, its cases finished (or still open), finished. */
function suiteEvents(suite: JsonSuite, unfinished: JsonReport["unfinishedCases"]): RunEvent[] {
  if (suite.status === "not-run" && suite.cases.length === 0) return [];
  const events: RunEvent[] = [
    { type: "suite-started", suiteId: suite.id, title: suite.title, tags: suite.tags },
  ];
  for (const one of suite.cases) events.push(toCaseFinished(suite.id, one));
  for (const one of unfinished.filter((open) => open.suiteId === suite.id))
    events.push({ type: "case-started", suiteId: one.suiteId, caseId: one.caseId, title: one.title });
  if (suite.status !== "incomplete")
    events.push({
      type: "suite-finished",
      suiteId: suite.id,
      status: suite.status === "not-run" ? "skipped" : suite.status,
      counts: suite.counts,
      durationMs: suite.durationMs,
    });
  return events;
}

/** The merged run's end: counts, exchanges, coverage and cleanup summed, the latest finish, the slowest shard. */
function mergedFinish(reports: readonly JsonReport[], runId: string, groups: FailureGroup[]): RunFinished {
  const baseline = mergeBaselines(reports.map((one) => one.baseline));
  const notShown = mergeNotShown(reports.map((one) => one.notShown));
  const finishedAt = reports
    .map((one) => one.finishedAt!)
    .sort()
    .at(-1)!;
  return {
    type: "run-finished",
    runId,
    finishedAt,
    // Shards run side by side: the merged run took as long as its slowest shard.
    durationMs: Math.max(...reports.map((one) => one.durationMs ?? 0)),
    ...mergedExit(reports),
    counts: sumEach(
      reports.map((one) => one.counts),
      caseCountKeys,
    ),
    exchanges: reports.reduce((sum, one) => sum + one.exchanges.total, 0),
    coverage: mergeCoverage(reports.map((one) => one.coverage)),
    retries: reports.reduce((sum, one) => sum + one.exchanges.retries, 0),
    rateLimited: reports.reduce((sum, one) => sum + one.exchanges.rateLimited, 0),
    cleanup: {
      deleted: reports.reduce((sum, one) => sum + (one.cleanup?.deleted ?? 0), 0),
      failed: reports.flatMap((one) => one.cleanup?.failed ?? []),
    },
    groups,
    ...(baseline ? { baseline } : {}),
    ...(notShown ? { notShown } : {}),
  };
}
