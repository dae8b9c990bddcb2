/**
 * The coverage table in one line's numbers: operations exercised (answered at least once), requested without an
 * answer, never requested with the count per reason; and the `--fail-under` gate on the exercised share. Every
 * report format and the CLI read these numbers from here, so they cannot disagree.
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import type { NotRequestedReason, OperationCoverage, RunFinished } from "../core/events.ts";
import { ExitCode } from "../core/exit-codes.ts";

export interface CoverageSummary {
  readonly total: number;
  /** Answered at least once. */
  readonly exercised: number;
  /** Requested, never answered (transport failures). */
  readonly unanswered: number;
  readonly neverRequested: number;
  /** Never requested, per reason, most first (then by name). */
  readonly reasons: readonly { readonly reason: NotRequestedReason; readonly count: number }[];
  /** Exercised share in percent (100 for a description without operations). */
  readonly percent: number;
}

type CoverageRow = Pick<OperationCoverage, "statuses" | "requests" | "notRequested">;

export function summarizeCoverage(rows: readonly CoverageRow[]): CoverageSummary {
  let exercised = 0;
  let unanswered = 0;
  const reasons = new Map<NotRequestedReason, number>();
  for (const row of rows) {
    if (row.statuses.length > 0) exercised += 1;
    else if (row.requests > 0) unanswered += 1;
    else {
      const reason = row.notRequested?.reason ?? "not-reached";
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
  }
  const neverRequested = rows.length - exercised - unanswered;
  return {
    total: rows.length,
    exercised,
    unanswered,
    neverRequested,
    reasons: [...reasons]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    percent: rows.length === 0 ? 100 : (exercised / rows.length) * 100,
  };
}

/**
 * The summary of a table that may hold only the operations requested so far (a run that stopped before its end
 * brought the whole table): the description's `total` decides, and every operation not in the table was never
 * requested.
 */
export function summarizeTable(rows: readonly CoverageRow[], total: number): CoverageSummary {
  const summary = summarizeCoverage(rows);
  if (total === rows.length) return summary;
  return {
    ...summary,
    total,
    neverRequested: total - summary.exercised - summary.unanswered,
    percent: total === 0 ? 100 : (summary.exercised / total) * 100,
  };
}

/** Short words for each reason, for one-line summaries. */
export const reasonWords: Readonly<Record<NotRequestedReason, string>> = Object.freeze({
  "other-server": "another server's",
  deselected: "deselected",
  "suite-not-selected": "generic suite not selected",
  unbuildable: "no request buildable",
  "writes-not-allowed": "writes not allowed",
  "not-reached": "not reached",
});

/** "30 of 48 operations exercised; 18 never requested (12 writes not allowed, 6 deselected)". */
export function coverageLine(summary: CoverageSummary): string {
  const reasons = summary.reasons.map((one) => `${one.count} ${reasonWords[one.reason]}`).join(", ");
  const unanswered = summary.unanswered > 0 ? `; ${summary.unanswered} requested without an answer` : "";
  return `${summary.exercised} of ${summary.total} operations exercised; ${summary.neverRequested} never requested${reasons ? ` (${reasons})` : ""}${unanswered}`;
}

/**
 * The `--fail-under` verdict: undefined when the exercised share reaches `threshold` percent, else the one line
 * that says it does not.
 */
export function failUnderShortfall(summary: CoverageSummary, threshold: number): string | undefined {
  if (summary.percent >= threshold) return undefined;
  return `coverage ${formatPercent(summary.percent)} of operations exercised is under --fail-under ${threshold}% (${summary.exercised} of ${summary.total})`;
}

/** 62.5 → "62.5%", 100 → "100%". */
export function formatPercent(percent: number): string {
  return `${Number(percent.toFixed(1))}%`;
}

/**
 * The run's end with `--fail-under` applied: the exercised share against `threshold` (`failUnder`), and a run that
 * would exit 0 exits 1 when it falls short (its status still says what it judged). Unchanged without a threshold.
 */
export function withFailUnder(finished: RunFinished, threshold: number | undefined): RunFinished {
  if (threshold === undefined) return finished;
  const summary = summarizeCoverage(finished.coverage);
  const message = failUnderShortfall(summary, threshold);
  return {
    ...finished,
    failUnder: { threshold, percent: summary.percent, ...(message ? { message } : {}) },
    ...(message && finished.exitCode === ExitCode.ok ? { exitCode: ExitCode.checkFailed } : {}),
  };
}

/** Parses `--fail-under`'s `80`, `80%` or `62.5` (0 to 100); a ConfigError naming the option otherwise. */
export function parseFailUnder(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  const percent = Number(match?.[1]);
  if (!match || !(percent >= 0 && percent <= 100))
    throw new ConfigError(
      `--fail-under ${text}: give the share of operations to exercise, a percentage from 0 to 100 (e.g. 80 or 80%)`,
    );
  return percent;
}
