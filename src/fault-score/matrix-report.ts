/**
 * The fault score as people and CI read it: a console table, a Markdown table (docs/faults.md shows it), and the
 * JSON record (`fault-matrix.json`, described by `fault-matrix.schema.json`) written beside the run reports.
 * @module
 */
import { escapeMarkdown } from "../reporters/_internals/markdown.ts";
import { writeLatest, writeReportFile } from "../reporters/output.ts";
import type { FaultMatrix, FaultRow, SuiteSelection } from "./score.ts";

const list = (items: readonly string[]) => (items.length > 0 ? items.join(", ") : "-");

function verdict(row: FaultRow): string {
  if (!row.caught) return "ESCAPED";
  return row.missingChecks.length > 0 ? "caught (not by every claimed check)" : "caught";
}

/** The selection as its options: `--suite a --tag b --exclude-tag c`. */
function selectionFlags(selection: SuiteSelection): string {
  return [
    ...selection.suites.map((id) => `--suite ${id}`),
    ...selection.tags.map((tag) => `--tag ${tag}`),
    ...selection.excludeTags.map((tag) => `--exclude-tag ${tag}`),
  ].join(" ");
}

/** Which suites ran against the faults, and what counted as caught. */
export function scoredSuitesText(matrix: FaultMatrix): string {
  if (matrix.selection)
    return `the selected suites ${list(matrix.suites)} (${selectionFlags(matrix.selection)}), each against every fault; caught when any of them, or a check judged at the run's end, fails`;
  return matrix.full ? "every suite against every fault" : "claimed suites only";
}

/** One line a fault, then the score, the suites scored and the false alarms. */
export function faultMatrixText(matrix: FaultMatrix): string {
  const rows = matrix.rows.map((row) => [
    row.caught ? "✓" : "✗",
    row.id,
    list(row.expected.suites),
    list(row.caughtBy.suites),
    row.requestsToDetection === null ? "-" : String(row.requestsToDetection),
  ]);
  const header = ["", "fault", "claimed by", "caught by", "requests to detection"];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  const escaped = matrix.rows.filter((row) => !row.caught).map((row) => row.id);
  return [
    line(header),
    ...rows.map(line),
    "",
    `score: ${matrix.score.caught}/${matrix.score.total} faults caught${escaped.length ? ` (escaped: ${escaped.join(", ")})` : ""}`,
    `suites scored: ${scoredSuitesText(matrix)}`,
    `clean server: ${matrix.clean.passed ? "no false alarm" : `${matrix.clean.falseAlarms.length} false alarm(s): ${matrix.clean.falseAlarms.map((alarm) => `${alarm.suiteId}/${alarm.caseId} (${list(alarm.checks)})`).join("; ")}`}`,
    "",
  ].join("\n");
}

/** The table in Markdown, for docs/faults.md and CI job summaries. */
export function faultMatrixMarkdown(matrix: FaultMatrix): string {
  const cell = (text: string) => escapeMarkdown(text).replace(/\|/g, "\\|");
  return [
    "| fault | what it breaks | claimed by | caught by | requests to detection | verdict |",
    "|---|---|---|---|---|---|",
    ...matrix.rows.map(
      (row) =>
        `| \`${row.id}\` | ${cell(row.description)} | ${cell(list(row.expected.suites))} | ${cell(list(row.caughtBy.suites))} | ${row.requestsToDetection ?? "-"} | ${verdict(row)} |`,
    ),
    "",
    `Score: **${matrix.score.caught}/${matrix.score.total}** faults caught; clean server: ${matrix.clean.passed ? "no false alarm" : `**${matrix.clean.falseAlarms.length} false alarm(s)**`} (seed ${matrix.seed}, ${scoredSuitesText(matrix)}).`,
  ].join("\n");
}

/** Writes `fault-matrix.json` and `fault-matrix.md` into the run's directory and mirrors it to `latest`. */
export async function writeFaultMatrix(outputDir: string, matrix: FaultMatrix): Promise<string> {
  const path = await writeReportFile(outputDir, "fault-matrix.json", `${JSON.stringify(matrix, null, 2)}\n`);
  await writeReportFile(outputDir, "fault-matrix.md", `${faultMatrixMarkdown(matrix)}\n`);
  await writeLatest(outputDir);
  return path;
}

export const readmeStartMarker = "<!-- fault-matrix:start (written by `npm run faults -- --update-docs`) -->";
export const readmeEndMarker = "<!-- fault-matrix:end -->";

/** A page (docs/faults.md) with its fault table replaced by this matrix's (the markers must be there). */
export function withFaultTable(readme: string, matrix: FaultMatrix): string {
  const start = readme.indexOf(readmeStartMarker);
  const end = readme.indexOf(readmeEndMarker);
  if (start < 0 || end < start) throw new Error("the page has no fault-matrix markers");
  return `${readme.slice(0, start + readmeStartMarker.length)}\n${faultMatrixMarkdown(matrix)}\n${readme.slice(end)}`;
}
