/**
 * JUnit XML (`junit.xml`) for CI: one `<testsuite>` per suite that ran, one `<testcase>` per case (classname = the
 * suite's id), `<failure>` with the first failed check as its message and the whole failure (expected/actual,
 * response excerpt, curl line, seed) as its text; a failure whose group an earlier testcase already told in full
 * says "same as group <id> (N×)" instead, so one failure repeated on every answer does not fill the file; `<skipped>` with the reason, `<error>` for errored cases and for
 * cases the run was interrupted in. With `--baseline`, a failed or errored case whose every failure group the
 * baseline already knows is `<skipped message="known failure (baseline <file>): ...">`, with the whole failure as its
 * text and `type` the group's check, so a JUnit publisher does not fail the job on what the exit code lets pass
 * (new failures stay `<failure>`/`<error>`). Run metadata and each generated case's seed are suite properties. Times are
 * seconds. The shape keeps to the Jenkins/Ant schema (`test/fixtures/junit/`), which the tests validate against.
 * @module
 */
import type { CaseFinished, FailureGroup } from "../core/events.ts";
import { coverageLine, summarizeTable } from "../runner/coverage-summary.ts";
import { toSeconds } from "./_internals/durations.ts";
import { failureLines, firstMessage } from "./_internals/failure-text.ts";
import { createFileReporter } from "./_internals/file-reporter.ts";
import { notShownLines } from "./_internals/not-shown-text.ts";
import type { RunRecord, SuiteRecord } from "./_internals/run-record.ts";
import { excerpt } from "./_internals/text.ts";
import { escapeXml, escapeXmlAttribute } from "./_internals/xml.ts";
import type { JunitReporterOptions, Reporter, ReporterOptions } from "./types.ts";

export const junitReportFile = "junit.xml";

interface Tally {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  timeMs: number;
}

function attributes(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join("");
}

/** Names unique within a suite: CI tools key test cases by classname and name. */
function uniqueNames(
  cases: readonly { readonly caseId: string; readonly title: string }[],
): Map<string, string> {
  const seen = new Map<string, number>();
  for (const one of cases) seen.set(one.title, (seen.get(one.title) ?? 0) + 1);
  return new Map(
    cases.map((one) => [
      one.caseId,
      (seen.get(one.title) ?? 0) > 1 || !one.title ? `${one.title} [${one.caseId}]` : one.title,
    ]),
  );
}

/** The run's groups by id, and those an earlier testcase told in full (filled as the document is written). */
interface GroupsTold {
  readonly byId: ReadonlyMap<string, FailureGroup>;
  readonly told: Map<string, FailureGroup>;
  /** With `--baseline`: the groups it knows (the engine's `run-finished.baseline.known`), and its file. */
  readonly baseline: { readonly known: ReadonlySet<string>; readonly source: string } | undefined;
}

/** A failed or errored case whose every failure group the baseline knows (the engine said which are known). */
export function knownFailure(event: CaseFinished, known: ReadonlySet<string> | undefined): boolean {
  if (!known || (event.status !== "failed" && event.status !== "errored")) return false;
  const ids = event.results.flatMap((result) => (result.outcome.status === "failed" ? [result.group] : []));
  if (event.status === "errored") ids.push(event.errorGroup);
  return ids.length > 0 && ids.every((id) => id !== undefined && known.has(id));
}

function testcase(
  suiteId: string,
  name: string,
  event: CaseFinished,
  insecure: boolean,
  groups: GroupsTold,
): string {
  const head = `    <testcase${attributes({ name, classname: suiteId, time: toSeconds(event.durationMs) })}`;
  const message = excerpt(firstMessage(event), 1000);
  const body = [
    `case ${event.caseId}`,
    ...failureLines(event, { insecure, maxBody: 2000, maxValue: 2000 }, groups.told),
  ].join("\n");
  for (const result of event.results) {
    const group = result.group === undefined ? undefined : groups.byId.get(result.group);
    if (group && result.outcome.status === "failed") groups.told.set(group.id, group);
  }
  if (groups.baseline && knownFailure(event, groups.baseline.known)) {
    const type =
      event.results.find((result) => result.outcome.status === "failed")?.checkId ?? event.error?.code;
    const said = `known failure (baseline ${groups.baseline.source}): ${message}`;
    return `${head}>\n      <skipped${attributes({ message: said, type })}>${escapeXml(body)}</skipped>\n    </testcase>`;
  }
  switch (event.status) {
    case "passed":
      return `${head}/>`;
    case "skipped":
      return `${head}>\n      <skipped${attributes({ message: event.skipReason ?? "no reason given" })}/>\n    </testcase>`;
    case "failed": {
      const type = event.results.find((result) => result.outcome.status === "failed")?.checkId ?? "failed";
      return `${head}>\n      <failure${attributes({ message, type })}>${escapeXml(body)}</failure>\n    </testcase>`;
    }
    case "errored":
      return `${head}>\n      <error${attributes({ message, type: event.error?.code ?? "ERROR" })}>${escapeXml(body)}</error>\n    </testcase>`;
    case "interrupted":
      // Neither a failure nor an error: JUnit has no such outcome, and a skip with the reason is the honest one.
      return `${head}>\n      <skipped${attributes({ message: "interrupted: the run was stopped (SIGINT or SIGTERM) while this case ran" })}/>\n    </testcase>`;
  }
}

/** The run's coverage as properties (with the first suite's, as the warnings: JUnit has no place for the run's own). */
function coverageProperties(record: RunRecord): [string, string | number][] {
  const coverage = record.coverage();
  const summary = summarizeTable(coverage.operations, coverage.total);
  const shortfall = record.finished?.failUnder?.message;
  return [
    ["conform.coverage", coverageLine(summary)],
    ["conform.coverage.exercised", summary.exercised],
    ["conform.coverage.total", summary.total],
    ["conform.coverage.neverRequested", summary.neverRequested],
    ...(shortfall ? [["conform.coverage.failUnder", shortfall] as [string, string]] : []),
    ...notShownProperties(record),
  ];
}

/** What traffic conform did not make never showed (proxy, verify): one property a line; none for a run. */
function notShownProperties(record: RunRecord): [string, string][] {
  const notShown = record.finished?.notShown;
  if (!notShown) return [];
  return notShownLines(notShown).map((line, index) => [`conform.notShown.${index + 1}`, line]);
}

export function junitXml(record: RunRecord): string {
  const started = record.started;
  if (!started) return "";
  const insecure = started.target.embedded;
  const open = new Map<string, { caseId: string; title: string }[]>();
  for (const one of record.openCases) {
    const list = open.get(one.suiteId) ?? [];
    list.push({ caseId: one.caseId, title: one.title });
    open.set(one.suiteId, list);
  }
  const total: Tally = { tests: 0, failures: 0, errors: 0, skipped: 0, timeMs: 0 };
  const baseline = record.finished?.baseline;
  const groups: GroupsTold = {
    byId: new Map(record.groups().map((group) => [group.id, group])),
    told: new Map(),
    baseline: baseline && { known: new Set(baseline.known), source: baseline.source },
  };
  const suites: string[] = [];
  for (const suite of record.suites.values()) {
    const unfinished = open.get(suite.id) ?? [];
    if (!suite.started && suite.cases.length === 0 && unfinished.length === 0) continue;
    // The run's warnings go with the first suite's properties (JUnit has no place for the run's own).
    suites.push(testsuite(record, suite, unfinished, insecure, total, groups, suites.length === 0));
  }
  const runTime = record.durationMs ?? total.timeMs;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: `conform ${started.runId}`, tests: total.tests, failures: total.failures, errors: total.errors, time: toSeconds(runTime) })}>`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

function testsuite(
  record: RunRecord,
  suite: SuiteRecord,
  unfinished: readonly { caseId: string; title: string }[],
  insecure: boolean,
  total: Tally,
  groups: GroupsTold,
  withWarnings: boolean,
): string {
  const started = record.started!;
  const names = uniqueNames([...suite.cases, ...unfinished]);
  const tally: Tally = {
    tests: 0,
    failures: 0,
    errors: 0,
    skipped: 0,
    timeMs: record.suiteDurationMs(suite),
  };
  const cases: string[] = [];
  for (const event of suite.cases) {
    tally.tests += 1;
    if (knownFailure(event, groups.baseline?.known)) tally.skipped += 1;
    else if (event.status === "failed") tally.failures += 1;
    else if (event.status === "errored") tally.errors += 1;
    else if (event.status === "skipped" || event.status === "interrupted") tally.skipped += 1;
    cases.push(testcase(suite.id, names.get(event.caseId) ?? event.title, event, insecure, groups));
  }
  for (const one of unfinished) {
    tally.tests += 1;
    tally.errors += 1;
    const message = `interrupted: the run stopped (${record.status}) before case ${one.caseId} finished`;
    cases.push(
      `    <testcase${attributes({ name: names.get(one.caseId) ?? one.title, classname: suite.id, time: "0.000" })}>\n      <error${attributes({ message, type: "INTERRUPTED" })}/>\n    </testcase>`,
    );
  }
  total.tests += tally.tests;
  total.failures += tally.failures;
  total.errors += tally.errors;
  total.skipped += tally.skipped;
  total.timeMs += tally.timeMs;
  const properties: [string, string | number][] = [
    ["conform.runId", started.runId],
    ["conform.seed", started.seed],
    ["conform.target", started.target.baseUrl],
    ["conform.spec", `${started.spec.source} ${started.spec.version}`],
    ["conform.suite.title", suite.title],
    ["conform.suite.status", record.suiteStatus(suite)],
    ...(withWarnings ? coverageProperties(record) : []),
    ...(record.snapshot
      ? [
          ["conform.snapshot", `${record.snapshot.sequence} at ${record.snapshot.takenAt}`] as [
            string,
            string,
          ],
        ]
      : []),
  ];
  if (withWarnings)
    for (const [index, warning] of record.warnings.entries())
      properties.push([`conform.warning.${index + 1}`, warning]);
  for (const event of suite.cases) {
    if (!event.reproduction) continue;
    properties.push([`conform.case.${event.caseId}.seed`, event.reproduction.seed]);
    if (event.reproduction.path !== undefined)
      properties.push([`conform.case.${event.caseId}.path`, event.reproduction.path]);
  }
  return [
    `  <testsuite${attributes({ name: suite.id, tests: tally.tests, failures: tally.failures, errors: tally.errors, skipped: tally.skipped, time: toSeconds(tally.timeMs) })}>`,
    "    <properties>",
    ...properties.map(([name, value]) => `      <property${attributes({ name, value })}/>`),
    "    </properties>",
    ...cases,
    "  </testsuite>",
  ].join("\n");
}

export function createJunitReporter(options: ReporterOptions, _own: JunitReporterOptions = {}): Reporter {
  return createFileReporter(options, { name: "junit", file: junitReportFile, render: junitXml });
}
