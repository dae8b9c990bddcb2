/**
 * The console's closing lines, a pure function of the run's end (tested with tables of inputs): the baseline's
 * new and fixed groups, cases interrupted or unfinished, what cleanup left behind, the end warnings, the coverage
 * table (a line per operation), the verdict with the run's facts, the run id, and last the coverage line ("N of M
 * operations exercised; K never requested", with the reasons) and `--fail-under`'s verdict when it falls short.
 * @internal
 */
import type {
  BaselineComparison,
  Counts,
  FailureGroup,
  NotShown,
  OperationCoverage,
  RunFinished,
} from "../../core/events.ts";
import { coverageLine, reasonWords, summarizeTable } from "../../runner/coverage-summary.ts";
import { counted, countsText, labelsText, type Paint } from "./console-paint.ts";
import { formatDuration } from "./durations.ts";
import type { LatencySummary } from "./latency-histogram.ts";
import { notShownLines, notShownTitle } from "./not-shown-text.ts";
import type { RunStatus } from "./run-record.ts";
import { totalOf } from "./run-record.ts";
import { terminalSafe } from "./text.ts";

export interface ConsoleSummaryInput {
  readonly status: RunStatus;
  /** The engine said the run finished (interrupted or not). */
  readonly ended: boolean;
  readonly counts: Counts;
  readonly exchanges: number;
  readonly rateLimited: number;
  readonly retries: number;
  readonly latency: LatencySummary;
  readonly durationMs: number | undefined;
  readonly runId: string;
  /** What the run's resources are labelled with (a merged run's every shard's). */
  readonly labelPrefixes: readonly string[];
  /** The groups, for the baseline's new ones. */
  readonly groups: readonly FailureGroup[];
  readonly baseline: BaselineComparison | undefined;
  readonly interrupted: readonly { readonly suiteId: string; readonly title: string }[];
  readonly unfinished: readonly { readonly suiteId: string; readonly title: string }[];
  readonly cleanupFailed: readonly string[];
  /** The run's end warnings, without their `warning: ` prefix. */
  readonly warnings: readonly string[];
  /** The coverage table (the operations seen so far for a run that did not end) and the description's total. */
  readonly coverage: { readonly total: number; readonly operations: readonly OperationCoverage[] };
  readonly failUnder: RunFinished["failUnder"];
  /** Traffic conform did not make (proxy, verify): what it never showed. */
  readonly notShown?: NotShown | undefined;
  /** Rows of the coverage table printed; the rest are counted. */
  readonly maxCoverageRows: number;
}

const safe = (text: string) => terminalSafe(text, true);

function baselineLines(input: ConsoleSummaryInput, paint: Paint): string[] {
  const { baseline } = input;
  if (!baseline) return [];
  const lines = [
    "",
    paint(
      "bold",
      `baseline ${safe(baseline.source)}: ${baseline.new.length} new, ${baseline.known.length} known, ${baseline.fixed.length} fixed`,
    ),
  ];
  const byId = new Map(input.groups.map((group) => [group.id, group]));
  for (const id of baseline.new) {
    const group = byId.get(id);
    if (group) lines.push(`  ${paint("red", "new")} ${safe(group.checkId)}: ${safe(group.shape)} [${id}]`);
  }
  for (const group of baseline.fixed)
    lines.push(`  ${paint("green", "fixed")} ${safe(group.checkId)}: ${safe(group.shape)} [${group.id}]`);
  if (baseline.new.length === 0 && baseline.known.length > 0)
    lines.push(paint("gray", "  only known failures: the exit code does not fail"));
  return lines;
}

function stoppedLines(input: ConsoleSummaryInput, paint: Paint): string[] {
  const { interrupted, unfinished } = input;
  if (interrupted.length + unfinished.length === 0) return [];
  return [
    "",
    ...interrupted.map(
      (one) => `${paint("yellow", "■")} interrupted: ${safe(`${one.suiteId} › ${one.title}`)}`,
    ),
    ...unfinished.map(
      (one) => `${paint("yellow", "■")} unfinished: ${safe(`${one.suiteId} › ${one.title}`)}`,
    ),
  ];
}

function cleanupAndWarningLines(input: ConsoleSummaryInput, paint: Paint): string[] {
  const lines: string[] = [];
  if (input.cleanupFailed.length > 0)
    lines.push(
      "",
      paint(
        "yellow",
        `cleanup left ${input.cleanupFailed.length} resource(s) behind (conform cleanup removes them):`,
      ),
      ...input.cleanupFailed.map((one) => `  ${safe(one)}`),
    );
  // The run's end warnings (thin evidence) as one section, before the verdict; others were said as they came.
  if (input.warnings.length > 0)
    lines.push(
      "",
      paint("yellow", `Warnings (${input.warnings.length}): the evidence is thinner than the verdict says`),
      ...input.warnings.map((warning) => `  ${paint("yellow", "⚠")} ${safe(warning)}`),
    );
  return lines;
}

/** "valid 2/3 2xx · invalid 4/4 refused · chained · suites lists, operations · 7 checks", or why never requested. */
export function coverageRowText(row: OperationCoverage): string {
  if (row.requests === 0) {
    const why = row.notRequested;
    const detail = why?.detail
      ? `: ${why.detail.length > 100 ? `${why.detail.slice(0, 100)}…` : why.detail}`
      : "";
    return `not requested: ${why ? reasonWords[why.reason] : "not reached"}${detail}`;
  }
  const parts = [
    row.valid.sent === 0 && row.validWithheld
      ? `valid withheld: ${row.validWithheld}`
      : `valid ${row.valid.accepted}/${row.valid.sent} 2xx`,
  ];
  if (row.invalid.sent > 0) parts.push(`invalid ${row.invalid.refused}/${row.invalid.sent} refused`);
  if (row.statuses.length === 0) parts.push(`${counted(row.requests, "request")}, no answer`);
  if (row.chained) parts.push("chained");
  // A few suites are named; more are counted (the HTML and Markdown tables name them all).
  if (row.suites.length > 0)
    parts.push(
      row.suites.length <= 3 ? `suites ${row.suites.join(", ")}` : counted(row.suites.length, "suite"),
    );
  parts.push(counted(row.checks.length, "check"));
  return parts.join(" · ");
}

/** Traffic conform did not make (proxy, verify) leaves most operations unreached: one line says so, not a row each. */
const isUnreached = (row: OperationCoverage) =>
  row.requests === 0 && row.notRequested?.reason === "not-reached";

function coverageTableLines(input: ConsoleSummaryInput, paint: Paint): string[] {
  const all = input.coverage.operations;
  if (all.length === 0) return [];
  const rows = all.filter((row) => !isUnreached(row));
  const unreached = all.length - rows.length;
  const shown = rows.slice(0, input.maxCoverageRows);
  // A run that did not end has only what its exchanges told: the operations requested so far, without their paths.
  const whereOf = (row: OperationCoverage) => (row.method === "" ? "" : safe(`${row.method} ${row.path}`));
  const width = Math.min(60, Math.max(0, ...shown.map((row) => whereOf(row).length)));
  const heading = input.ended
    ? "Coverage by operation:"
    : "Coverage by operation (the operations requested before the run stopped):";
  const lines = ["", paint("bold", heading)];
  for (const row of shown) {
    const mark =
      row.statuses.length > 0
        ? paint("green", "✓")
        : row.requests > 0
          ? paint("red", "!")
          : paint("gray", "-");
    const where = width === 0 ? "" : `${whereOf(row).padEnd(width)}  `;
    lines.push(`  ${mark} ${where}${safe(row.operationId)}  ${paint("gray", safe(coverageRowText(row)))}`);
  }
  if (rows.length > shown.length)
    lines.push(
      paint(
        "gray",
        `  … and ${rows.length - shown.length} more operations: every row is in the HTML and JSON reports`,
      ),
    );
  if (unreached > 0)
    lines.push(
      paint(
        "gray",
        `  - ${counted(unreached, "operation")} the traffic never reached: every row is in the HTML and JSON reports`,
      ),
    );
  return lines;
}

function notShownSection(input: ConsoleSummaryInput, paint: Paint): string[] {
  if (!input.notShown) return [];
  return [
    "",
    paint("bold", `${notShownTitle}:`),
    ...notShownLines(input.notShown).map((line) => `  ${paint("gray", "-")} ${safe(line)}`),
  ];
}

function verdictLine(input: ConsoleSummaryInput, exercised: number, paint: Paint): string {
  const { status, latency } = input;
  const verdict =
    status === "passed"
      ? paint(["green", "bold"], "✓ PASSED")
      : status === "interrupted"
        ? paint(["yellow", "bold"], input.ended ? "■ INTERRUPTED" : "■ STOPPED before the run finished")
        : paint(["red", "bold"], status === "errored" ? "✗ ERRORED" : "✗ FAILED");
  const facts = [
    `${countsText(input.counts, paint)} (${counted(totalOf(input.counts), "case")})`,
    `${counted(input.exchanges, "exchange")}${input.rateLimited ? `, ${input.rateLimited} × 429` : ""}${input.retries ? `, ${input.retries} retries` : ""}`,
    `${exercised}/${input.coverage.total} operations`,
    ...(latency.p50Ms === null
      ? []
      : [`p50 ${formatDuration(latency.p50Ms)}, p99 ${formatDuration(latency.p99Ms ?? 0)}`]),
    ...(input.durationMs === undefined ? [] : [formatDuration(input.durationMs)]),
    ...(input.warnings.length > 0 ? [counted(input.warnings.length, "warning")] : []),
  ];
  return `${verdict}  ${facts.join(paint("gray", " · "))}`;
}

/** The closing lines but the last: sections, the coverage table, the verdict and the run id. */
export function summaryLines(input: ConsoleSummaryInput, paint: Paint): string[] {
  const summary = summarizeTable(input.coverage.operations, input.coverage.total);
  return [
    ...baselineLines(input, paint),
    ...stoppedLines(input, paint),
    ...cleanupAndWarningLines(input, paint),
    ...coverageTableLines(input, paint),
    ...notShownSection(input, paint),
    "",
    verdictLine(input, summary.exercised, paint),
    paint("gray", `run ${safe(input.runId)}${labelsText(input.labelPrefixes)}`),
  ];
}

/**
 * The last lines: the coverage line and `--fail-under`'s verdict when it falls short. A run that did not end knows
 * only the operations it requested: the others were never requested.
 */
export function coverageTailLines(input: ConsoleSummaryInput, paint: Paint): string[] {
  const shortfall = input.failUnder?.message;
  return [
    coverageLine(summarizeTable(input.coverage.operations, input.coverage.total)),
    ...(shortfall ? [paint(["red", "bold"], `✗ ${shortfall}`)] : []),
  ];
}
