/**
 * A short Markdown summary (`summary.md`) fit for a CI job summary or a PR comment: a headline, a table of suites,
 * the failure groups largest first (check, count, cases, the first failure's message and case, with its
 * seed for a generated case), failed cases without a group one by one, the coverage lines and the coverage table
 * per operation (folded). Every string
 * that may come from the target is a code span or escaped (`_internals/markdown.ts`).
 * @module
 */

import type { RunStarted } from "../core/events.ts";
import { coverageLine, summarizeTable } from "../runner/coverage-summary.ts";
import { coverageCells, coverageHeadings } from "./_internals/coverage-table.ts";
import { curlLine } from "./_internals/curl.ts";
import { formatDuration } from "./_internals/durations.ts";
import {
  failuresByGroup,
  firstMessage,
  type GroupFailure,
  groupExamples,
  groupSize,
} from "./_internals/failure-text.ts";
import { createFileReporter } from "./_internals/file-reporter.ts";
import { codeBlock, codeSpan, escapeMarkdown } from "./_internals/markdown.ts";
import { notShownLines, notShownTitle } from "./_internals/not-shown-text.ts";
import { labelPrefixesOf, type RunRecord, type SuiteStatus } from "./_internals/run-record.ts";
import type { MarkdownReporterOptions, Reporter, ReporterOptions } from "./types.ts";

export const markdownReportFile = "summary.md";

const statusMark: Record<SuiteStatus | "interrupted", string> = {
  passed: "✅",
  failed: "❌",
  errored: "💥",
  skipped: "⏭️",
  "not-run": "⏸️",
  incomplete: "⏹️",
  interrupted: "⏹️",
};

/**
 * A group's first kept request as a curl line and its replay command, collapsed under the group's line (a PR
 * comment stays short); nothing when the group kept neither (an errored case).
 */
function reproduceLines(failures: readonly GroupFailure[], insecure: boolean): string[] {
  const first = groupExamples(failures, 1)[0];
  const exchange = first?.check?.exchange;
  const replay = (first?.check?.result.reproduction ?? first?.event.reproduction)?.replay;
  const commands = [
    ...(exchange ? [curlLine(exchange.request, { insecure })] : []),
    ...(replay ? [replay] : []),
  ];
  if (commands.length === 0) return [];
  return ["  <details><summary>reproduce</summary>", "", ...codeBlock(commands, "  "), "", "  </details>"];
}

/** ` · labels `conform-ab12cd-*``, every shard's in a merged run (cleanup needs them all); none for proxy, verify. */
function labelsText(started: RunStarted): string {
  const labels = labelPrefixesOf(started).map((prefix) => codeSpan(`${prefix}-*`));
  return labels.length === 0 ? "" : ` · labels ${labels.join(", ")}`;
}

function headline(record: RunRecord, started: RunStarted): string[] {
  const counts = record.counts;
  const status = record.status;
  const duration = record.durationMs === undefined ? "" : ` in ${formatDuration(record.durationMs)}`;
  // Errored with no case failed or errored: nothing was judged (every case skipped, or no traffic through a proxy).
  const nothingJudged = counts.passed + counts.failed + counts.errored === 0;
  const verdict = record.snapshot
    ? nothingJudged
      ? "snapshot: no traffic judged yet"
      : `snapshot (${status} so far)`
    : status === "passed"
      ? "passed"
      : status === "interrupted"
        ? "was interrupted"
        : status === "errored" && nothingJudged
          ? "judged nothing"
          : status;
  const mark = record.snapshot && nothingJudged ? "⏳" : statusMark[status];
  const lines = [
    `### ${mark} conform ${verdict}: ${counts.failed} failed, ${counts.errored} errored, ${counts.passed} passed, ${counts.skipped} skipped${counts.interrupted > 0 ? `, ${counts.interrupted} interrupted` : ""}${duration}`,
    "",
    `Target ${codeSpan(started.target.baseUrl)}${started.target.embedded ? " (embedded reference)" : ""} · spec ${codeSpan(started.spec.version)}${started.labelPrefix === "" ? "" : ` · seed ${codeSpan(String(started.seed))}`} · run ${codeSpan(started.runId)}${labelsText(started)}`,
  ];
  if (!record.ended)
    lines.push("", "**The run stopped before it finished: this summary holds what it reported until then.**");
  if (record.snapshot)
    lines.push(
      "",
      `**Snapshot ${record.snapshot.sequence}, taken at ${record.snapshot.takenAt} while the run goes on: what it judged until then. The summary written when it stops replaces this one.**`,
    );
  return lines;
}

function suitesTable(record: RunRecord): string[] {
  const lines = [
    "",
    "| | Suite | Passed | Failed | Errored | Skipped | Time |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const suite of record.suites.values()) {
    const suiteCounts = record.suiteCounts(suite);
    const suiteStatus = record.suiteStatus(suite);
    lines.push(
      `| ${statusMark[suiteStatus]} | ${codeSpan(suite.id)} ${escapeMarkdown(suite.title)} | ${suiteCounts.passed} | ${suiteCounts.failed} | ${suiteCounts.errored} | ${suiteCounts.skipped} | ${suiteStatus === "not-run" ? "not run" : formatDuration(record.suiteDurationMs(suite))} |`,
    );
  }
  return lines;
}

function groupLines(record: RunRecord, embedded: boolean, maxGroups: number): string[] {
  const groups = record.groups();
  if (groups.length === 0) return [];
  const byGroup = failuresByGroup(record.failures());
  const lines = ["", `**Failure groups (${groups.length}), largest first**`, ""];
  for (const group of groups.slice(0, maxGroups)) {
    const first = byGroup.get(group.id)?.[0]?.event;
    const seed = first?.reproduction ? ` (seed ${codeSpan(String(first.reproduction.seed))})` : "";
    const where = first
      ? `; first in ${codeSpan(first.suiteId)} › ${escapeMarkdown(first.title)}${seed}`
      : "";
    lines.push(
      `- **${group.failures}×** ${codeSpan(group.checkId)}: ${codeSpan(group.example)} (${groupSize(group)}${where}) · group ${codeSpan(group.id)}`,
      ...reproduceLines(byGroup.get(group.id) ?? [], embedded),
    );
  }
  if (groups.length > maxGroups)
    lines.push(`- … and ${groups.length - maxGroups} more groups: see the HTML or JSON report`);
  return lines;
}

function baselineLines(record: RunRecord): string[] {
  const baseline = record.finished?.baseline;
  if (!baseline) return [];
  const known = new Set(baseline.known);
  const lines = [
    "",
    `**Against the baseline** ${codeSpan(baseline.source)}: ${baseline.new.length} new, ${baseline.known.length} known, ${baseline.fixed.length} fixed${baseline.new.length === 0 && baseline.known.length > 0 ? " (only known failures: the exit code does not fail)" : ""}`,
    "",
  ];
  for (const group of record.groups().filter((one) => !known.has(one.id)))
    lines.push(
      `- 🆕 new: ${codeSpan(group.checkId)}: ${codeSpan(group.shape)} · group ${codeSpan(group.id)}`,
    );
  for (const group of baseline.fixed)
    lines.push(
      `- ✅ fixed: ${codeSpan(group.checkId)}: ${codeSpan(group.shape)} · group ${codeSpan(group.id)}`,
    );
  return lines;
}

function ungroupedLines(record: RunRecord, maxGroups: number): string[] {
  const ungrouped = record
    .failures()
    .filter(
      (event) =>
        !event.errorGroup &&
        !event.results.some((result) => result.outcome.status === "failed" && result.group !== undefined),
    );
  if (ungrouped.length === 0) return [];
  const lines = ["", `**Failures (${ungrouped.length})**`, ""];
  for (const event of ungrouped.slice(0, maxGroups)) {
    const seed = event.reproduction ? ` (seed ${codeSpan(String(event.reproduction.seed))})` : "";
    lines.push(
      `- ${codeSpan(event.suiteId)} › ${escapeMarkdown(event.title)}${seed}: ${codeSpan(firstMessage(event))}`,
    );
  }
  if (ungrouped.length > maxGroups)
    lines.push(`- … and ${ungrouped.length - maxGroups} more: see the HTML or JSON report`);
  return lines;
}

function stoppedAndWarningLines(record: RunRecord): string[] {
  const lines: string[] = [];
  const named = (cases: readonly { suiteId: string; title: string }[]) =>
    cases.map((one) => `${codeSpan(one.suiteId)} › ${escapeMarkdown(one.title)}`).join(", ");
  const interrupted = record.allCases().filter((one) => one.status === "interrupted");
  if (interrupted.length > 0)
    lines.push("", `**Interrupted (${interrupted.length})**: ${named(interrupted)}`);
  const open = record.openCases;
  if (open.length > 0) lines.push("", `**Unfinished (${open.length})**: ${named(open)}`);
  const cleanupFailed = record.finished?.cleanup.failed ?? [];
  if (cleanupFailed.length > 0)
    lines.push(
      "",
      `**Cleanup left ${cleanupFailed.length} resource(s) behind**: ${cleanupFailed.map((one) => codeSpan(one)).join(", ")}`,
    );
  if (record.warnings.length > 0) {
    lines.push("", `**Warnings (${record.warnings.length})**:`, "");
    for (const warning of record.warnings) lines.push(`- ${escapeMarkdown(warning)}`);
  }
  return lines;
}

/** The coverage line, `--fail-under`'s verdict, then the table per operation, folded (a PR comment stays short). */
function coverageLines(record: RunRecord): string[] {
  const coverage = record.coverage();
  const exercised = record.exercisedOperations();
  const percent = coverage.total === 0 ? 0 : Math.round((exercised / coverage.total) * 100);
  const whole = summarizeTable(coverage.operations, coverage.total);
  const shortfall = record.finished?.failUnder?.message;
  const lines = [
    "",
    `Coverage: ${exercised}/${coverage.total} operations exercised (${percent} %) · statuses seen: ${record.statusesSeen().join(", ") || "none"} · ${record.exchanges} exchanges, ${record.rateLimited} × 429, ${record.retries} retries`,
    "",
    `**${escapeMarkdown(coverageLine(whole))}**${shortfall ? ` · ❌ ${escapeMarkdown(shortfall)}` : ""}`,
  ];
  if (coverage.operations.length === 0) return [...lines, ""];
  const cell = (text: string, index: number) =>
    text === "" ? "" : index < 3 ? codeSpan(text) : escapeMarkdown(text);
  lines.push(
    "",
    "<details><summary>Coverage by operation</summary>",
    "",
    `| ${coverageHeadings.join(" | ")} |`,
    `|${coverageHeadings.map(() => "---").join("|")}|`,
    ...coverage.operations.map((row) => `| ${coverageCells(row).map(cell).join(" | ")} |`),
    "",
    "</details>",
    "",
  );
  return lines;
}

/** What traffic conform did not make never showed (proxy, verify); nothing for a run. */
function notShownMarkdown(record: RunRecord): string[] {
  const notShown = record.finished?.notShown;
  if (!notShown) return [];
  return [
    "",
    `**${notShownTitle}**:`,
    "",
    ...notShownLines(notShown).map((line) => `- ${escapeMarkdown(line)}`),
  ];
}

export function markdownSummary(record: RunRecord, own: MarkdownReporterOptions = {}): string {
  const started = record.started;
  if (!started) return "";
  const maxGroups = own.maxGroups ?? 30;
  return [
    ...headline(record, started),
    ...suitesTable(record),
    ...groupLines(record, started.target.embedded, maxGroups),
    ...baselineLines(record),
    ...ungroupedLines(record, maxGroups),
    ...stoppedAndWarningLines(record),
    ...notShownMarkdown(record),
    ...coverageLines(record),
  ].join("\n");
}

export function createMarkdownReporter(
  options: ReporterOptions,
  own: MarkdownReporterOptions = {},
): Reporter {
  return createFileReporter(options, {
    name: "markdown",
    file: markdownReportFile,
    render: (record) => markdownSummary(record, own),
  });
}
