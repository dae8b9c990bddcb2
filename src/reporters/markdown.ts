/**
 * A short Markdown summary (`summary.md`) fit for a CI job summary or a PR comment: a headline, a table of suites,
 * the failures with their first check message (and seed for generated cases), and a coverage line. Every string
 * that may come from the target is a code span or escaped (`_internals/markdown.ts`).
 * @module
 */
import { formatDuration } from "./_internals/durations.ts";
import { firstMessage } from "./_internals/failure-text.ts";
import { codeSpan, escapeMarkdown } from "./_internals/markdown.ts";
import { RunRecord, type SuiteStatus } from "./_internals/run-record.ts";
import { writeReportFile } from "./output.ts";
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

export function markdownSummary(record: RunRecord, own: MarkdownReporterOptions = {}): string {
  const started = record.started;
  if (!started) return "";
  const maxFailures = own.maxFailures ?? 30;
  const counts = record.counts;
  const status = record.status;
  const duration = record.durationMs === undefined ? "" : ` in ${formatDuration(record.durationMs)}`;
  const lines: string[] = [];
  const verdict = status === "passed" ? "passed" : status === "interrupted" ? "was interrupted" : status;
  lines.push(
    `### ${statusMark[status]} conform ${verdict}: ${counts.failed} failed, ${counts.errored} errored, ${counts.passed} passed, ${counts.skipped} skipped${counts.interrupted > 0 ? `, ${counts.interrupted} interrupted` : ""}${duration}`,
  );
  lines.push("");
  lines.push(
    `Target ${codeSpan(started.target.baseUrl)}${started.target.embedded ? " (embedded reference)" : ""} · spec ${codeSpan(started.spec.version)} · seed ${codeSpan(String(started.seed))} · run ${codeSpan(started.runId)}`,
  );
  if (!record.ended)
    lines.push("", "**The run stopped before it finished: this summary holds what it reported until then.**");
  lines.push("");
  lines.push("| | Suite | Passed | Failed | Errored | Skipped | Time |");
  lines.push("|---|---|---:|---:|---:|---:|---:|");
  for (const suite of record.suites.values()) {
    const suiteCounts = record.suiteCounts(suite);
    const suiteStatus = record.suiteStatus(suite);
    lines.push(
      `| ${statusMark[suiteStatus]} | ${codeSpan(suite.id)} ${escapeMarkdown(suite.title)} | ${suiteCounts.passed} | ${suiteCounts.failed} | ${suiteCounts.errored} | ${suiteCounts.skipped} | ${suiteStatus === "not-run" ? "not run" : formatDuration(record.suiteDurationMs(suite))} |`,
    );
  }
  const failures = record.failures();
  if (failures.length > 0) {
    lines.push("", `**Failures (${failures.length})**`, "");
    for (const event of failures.slice(0, maxFailures)) {
      const seed = event.reproduction ? ` (seed ${codeSpan(String(event.reproduction.seed))})` : "";
      lines.push(
        `- ${codeSpan(event.suiteId)} › ${escapeMarkdown(event.title)}${seed}: ${codeSpan(firstMessage(event))}`,
      );
    }
    if (failures.length > maxFailures)
      lines.push(`- … and ${failures.length - maxFailures} more: see the HTML or JSON report`);
  }
  const interrupted = record.allCases().filter((one) => one.status === "interrupted");
  if (interrupted.length > 0) {
    lines.push(
      "",
      `**Interrupted (${interrupted.length})**: ${interrupted.map((one) => `${codeSpan(one.suiteId)} › ${escapeMarkdown(one.title)}`).join(", ")}`,
    );
  }
  const open = record.openCases;
  if (open.length > 0) {
    lines.push(
      "",
      `**Unfinished (${open.length})**: ${open.map((one) => `${codeSpan(one.suiteId)} › ${escapeMarkdown(one.title)}`).join(", ")}`,
    );
  }
  const cleanupFailed = record.finished?.cleanup.failed ?? [];
  if (cleanupFailed.length > 0) {
    lines.push(
      "",
      `**Cleanup left ${cleanupFailed.length} resource(s) behind**: ${cleanupFailed.map((one) => codeSpan(one)).join(", ")}`,
    );
  }
  const coverage = record.coverage();
  const exercised = record.exercisedOperations();
  const percent = coverage.total === 0 ? 0 : Math.round((exercised / coverage.total) * 100);
  lines.push(
    "",
    `Coverage: ${exercised}/${coverage.total} operations exercised (${percent} %) · statuses seen: ${record.statusesSeen().join(", ") || "none"} · ${record.exchanges} exchanges, ${record.rateLimited} × 429, ${record.retries} retries`,
    "",
  );
  return lines.join("\n");
}

export function createMarkdownReporter(
  options: ReporterOptions,
  own: MarkdownReporterOptions = {},
): Reporter {
  const record = new RunRecord();
  return {
    name: "markdown",
    files: [markdownReportFile],
    ...record.hooks,
    async close() {
      if (!record.started) return;
      await writeReportFile(options.outputDir, markdownReportFile, markdownSummary(record, own));
    },
  };
}
