/**
 * The coverage table's columns as text, shared by the HTML and Markdown reports (each escapes them its way): the
 * same numbers as report.json's `coverage.byOperation`, said the same way.
 * @internal
 */
import type { OperationCoverage } from "../../core/events.ts";
import { reasonWords } from "../../runner/coverage-summary.ts";

export const coverageHeadings = [
  "Operation",
  "Method",
  "Path",
  "Requested",
  "Valid 2xx",
  "Invalid refused",
  "Chained",
  "Suites",
  "Checks",
] as const;

/** `accepted/sent`, or an empty cell when none was sent. */
const ratio = (part: number, whole: number) => (whole === 0 ? "" : `${part}/${whole}`);

/** The requests, or why none: "not: writes not allowed (…detail)". */
export function requestedCell(row: OperationCoverage): string {
  if (row.requests > 0) return row.statuses.length > 0 ? String(row.requests) : `${row.requests}, no answer`;
  const why = row.notRequested;
  return `not: ${why ? `${reasonWords[why.reason]} (${why.detail})` : reasonWords["not-reached"]}`;
}

/** `accepted/sent`; when none was sent on purpose, why ("withheld: writes need --allow-writes: …"). */
export function validCell(row: OperationCoverage): string {
  if (row.valid.sent === 0 && row.validWithheld) return `withheld: ${row.validWithheld}`;
  return ratio(row.valid.accepted, row.valid.sent);
}

/** One row's cells, in the order of {@link coverageHeadings}. */
export function coverageCells(row: OperationCoverage): string[] {
  return [
    row.operationId,
    row.method,
    row.path,
    requestedCell(row),
    validCell(row),
    ratio(row.invalid.refused, row.invalid.sent),
    row.chained ? "yes" : "",
    row.suites.join(", "),
    row.checks.join(", "),
  ];
}
