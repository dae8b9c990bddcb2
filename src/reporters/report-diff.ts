/**
 * `conform diff OLD NEW`: what changed between two runs' reports, by failure group (stable ids: the same check and
 * message shape): groups new in NEW, fixed (in OLD, not in NEW, for suites NEW ran), still failing (in both, with
 * both counts), and coverage gained or lost (operation and status pairs seen in one run and not the other). As JSON
 * (`ReportDiff`) and as Markdown for a pull request.
 * @module
 */
import type { FailureGroup } from "../core/events.ts";
import { reasonWords } from "../runner/coverage-summary.ts";
import { codeSpan, escapeMarkdown } from "./_internals/markdown.ts";
import type { JsonOperationCoverage, JsonReport } from "./json.ts";

export interface DiffGroup {
  readonly id: string;
  readonly checkId: string;
  readonly shape: string;
  readonly example: string;
  /** Failures in the old and the new run (0 where the group is absent). */
  readonly before: number;
  readonly after: number;
}

export interface CoverageChange {
  readonly operationId: string;
  readonly statuses: readonly number[];
}

export interface ReportDiff {
  readonly old: { readonly runId: string; readonly status: string; readonly groups: number };
  readonly new: { readonly runId: string; readonly status: string; readonly groups: number };
  readonly newGroups: readonly DiffGroup[];
  readonly fixedGroups: readonly DiffGroup[];
  readonly stillFailing: readonly DiffGroup[];
  /** Groups of OLD in suites NEW did not run: neither fixed nor failing. */
  readonly notRun: readonly DiffGroup[];
  readonly coverage: {
    readonly operations: { readonly before: number; readonly after: number };
    readonly gained: readonly CoverageChange[];
    readonly lost: readonly CoverageChange[];
    /** Operations OLD requested that NEW never did, with NEW's reason (a report before 2.4.0 gives none). */
    readonly noLongerRequested: readonly { readonly operationId: string; readonly reason: string }[];
  };
}

/** Requested in `before`, never in `after` (a row without `requests`, before 2.4.0, counts its statuses). */
function noLongerRequested(
  before: JsonReport,
  after: JsonReport,
): ReportDiff["coverage"]["noLongerRequested"] {
  const requested = (row: JsonOperationCoverage) => (row.requests ?? row.statuses.length) > 0;
  const earlier = new Set(before.coverage.byOperation.filter(requested).map((row) => row.operationId));
  return after.coverage.byOperation
    .filter((row) => earlier.has(row.operationId) && !requested(row))
    .map((row) => ({
      operationId: row.operationId,
      reason: row.notRequested
        ? `${reasonWords[row.notRequested.reason]}: ${row.notRequested.detail}`
        : "not said",
    }))
    .sort((a, b) => a.operationId.localeCompare(b.operationId));
}

function diffGroup(group: FailureGroup, before: number, after: number): DiffGroup {
  return { id: group.id, checkId: group.checkId, shape: group.shape, example: group.example, before, after };
}

function statusesByOperation(report: JsonReport): Map<string, Set<number>> {
  return new Map(report.coverage.byOperation.map((one) => [one.operationId, new Set(one.statuses)]));
}

function coverageChanges(from: Map<string, Set<number>>, to: Map<string, Set<number>>): CoverageChange[] {
  const changes: CoverageChange[] = [];
  for (const [operationId, statuses] of to) {
    const earlier = from.get(operationId) ?? new Set<number>();
    const added = [...statuses].filter((status) => !earlier.has(status)).sort((a, b) => a - b);
    if (added.length > 0) changes.push({ operationId, statuses: added });
  }
  return changes.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

export function diffReports(before: JsonReport, after: JsonReport): ReportDiff {
  const oldGroups = new Map(before.groups.map((group) => [group.id, group]));
  const newGroups = new Map(after.groups.map((group) => [group.id, group]));
  const suitesRun = new Set(
    after.suites
      .filter((suite) => suite.status !== "not-run" && suite.status !== "incomplete")
      .map((one) => one.id),
  );
  const ranIn = (group: FailureGroup) =>
    group.firstCases.length > 0 && group.firstCases.every((one) => suitesRun.has(one.suiteId));
  const oldCoverage = statusesByOperation(before);
  const newCoverage = statusesByOperation(after);
  const exercised = (report: JsonReport) => report.coverage.operations.exercised;
  return {
    old: { runId: before.runId, status: before.status, groups: before.groups.length },
    new: { runId: after.runId, status: after.status, groups: after.groups.length },
    newGroups: after.groups
      .filter((group) => !oldGroups.has(group.id))
      .map((group) => diffGroup(group, 0, group.failures)),
    fixedGroups: before.groups
      .filter((group) => !newGroups.has(group.id) && ranIn(group))
      .map((group) => diffGroup(group, group.failures, 0)),
    stillFailing: after.groups
      .filter((group) => oldGroups.has(group.id))
      .map((group) => diffGroup(group, oldGroups.get(group.id)!.failures, group.failures)),
    notRun: before.groups
      .filter((group) => !newGroups.has(group.id) && !ranIn(group))
      .map((group) => diffGroup(group, group.failures, 0)),
    coverage: {
      operations: { before: exercised(before), after: exercised(after) },
      gained: coverageChanges(oldCoverage, newCoverage),
      lost: coverageChanges(newCoverage, oldCoverage),
      noLongerRequested: noLongerRequested(before, after),
    },
  };
}

function groupLine(group: DiffGroup, counts: string): string {
  return `- ${codeSpan(group.checkId)}: ${codeSpan(group.shape)} (${counts}) · group ${codeSpan(group.id)}`;
}

/** The diff as Markdown: a heading with the totals, then each list that is not empty. */
export function diffMarkdown(diff: ReportDiff): string {
  const lines = [
    `### conform diff: ${diff.newGroups.length} new, ${diff.fixedGroups.length} fixed, ${diff.stillFailing.length} still failing`,
    "",
    `${codeSpan(diff.old.runId)} (${diff.old.status}) → ${codeSpan(diff.new.runId)} (${diff.new.status}) · operations exercised ${diff.coverage.operations.before} → ${diff.coverage.operations.after}`,
  ];
  const section = (title: string, groups: readonly DiffGroup[], counts: (group: DiffGroup) => string) => {
    if (groups.length === 0) return;
    lines.push("", `**${title} (${groups.length})**`, "");
    for (const group of groups) lines.push(groupLine(group, counts(group)));
  };
  section("New failure groups", diff.newGroups, (group) => `${group.after}×`);
  section("Fixed", diff.fixedGroups, (group) => `was ${group.before}×`);
  section("Still failing", diff.stillFailing, (group) => `${group.before}× → ${group.after}×`);
  section("Not run in the new report", diff.notRun, (group) => `was ${group.before}×`);
  const coverage = (title: string, changes: readonly CoverageChange[]) => {
    if (changes.length === 0) return;
    lines.push("", `**${title} (${changes.length} operations)**`, "");
    for (const change of changes)
      lines.push(`- ${codeSpan(change.operationId)}: ${change.statuses.join(", ")}`);
  };
  coverage("Coverage gained", diff.coverage.gained);
  coverage("Coverage lost", diff.coverage.lost);
  const dropped = diff.coverage.noLongerRequested;
  if (dropped.length > 0) {
    lines.push(
      "",
      `**No longer requested (${dropped.length} ${dropped.length === 1 ? "operation" : "operations"})**`,
      "",
    );
    for (const one of dropped) lines.push(`- ${codeSpan(one.operationId)}: ${escapeMarkdown(one.reason)}`);
  }
  return `${lines.join("\n")}\n`;
}
