/**
 * The run-end suite (`checks-at-run-end`) in `conform merge-reports`: each shard's end-of-run hooks judged that
 * shard's traffic only, so every shard that found something keeps its own case, named for the shard
 * (`end-of-traffic-shard-1-of-2`), in one suite whose counts are the sum and status the worst. A case is named for
 * its shard even when no other shard found anything, so two merged runs' reports match case by case whichever shards
 * found something; failure group ids name no case, so `--baseline` compares the same groups as for a whole run.
 * @module
 */
import { worstStatus } from "../../runner/engine.ts";
import { runEndSuite } from "../../runner/run-end-checks.ts";
import type { JsonCounts, JsonReport, JsonSuite } from "../json.ts";

/** The name of a report's run-end case among the merged ones: its shard's, or its place among the reports. */
export function runEndCaseName(
  report: Pick<JsonReport, "shard">,
  position: number,
  reports: number,
): { readonly id: string; readonly title: string } {
  const [part, index, count] = report.shard
    ? ["shard", report.shard.index, report.shard.count]
    : ["report", position + 1, reports];
  return {
    id: `${runEndSuite.caseId}-${part}-${index}-of-${count}`,
    title: `${runEndSuite.title} (${part} ${index}/${count})`,
  };
}

/** The report with its run-end case named for its shard, and so the failure groups' cases that point at it. */
export function withRunEndCaseNamed(report: JsonReport, position: number, reports: number): JsonReport {
  if (!report.suites.some((suite) => suite.id === runEndSuite.id)) return report;
  const name = runEndCaseName(report, position, reports);
  const isRunEndCase = (suiteId: string, caseId: string) =>
    suiteId === runEndSuite.id && caseId === runEndSuite.caseId;
  return {
    ...report,
    suites: report.suites.map((suite) => ({
      ...suite,
      cases: suite.cases.map((one) =>
        isRunEndCase(suite.id, one.id) ? { ...one, id: name.id, title: name.title } : one,
      ),
    })),
    groups: report.groups.map((group) => ({
      ...group,
      firstCases: group.firstCases.map((named) =>
        isRunEndCase(named.suiteId, named.caseId) ? { ...named, caseId: name.id } : named,
      ),
    })),
  };
}

/** Each named count summed over all (the shards' case counts, with or without a total). */
export function sumEach<Key extends string>(
  all: readonly Readonly<Record<Key, number>>[],
  keys: readonly Key[],
): Record<Key, number> {
  const sum = Object.fromEntries(keys.map((key) => [key, 0])) as Record<Key, number>;
  for (const counts of all) for (const key of keys) sum[key] += counts[key];
  return sum;
}

export const caseCountKeys = ["passed", "failed", "skipped", "errored", "interrupted"] as const;

/**
 * Every report's suites in order, the run-end suites of several joined into one, last (where the engine emits it):
 * their cases one after another, counts summed, the worst status, the slowest shard's duration (shards run side by
 * side).
 */
export function suitesWithOneRunEnd(reports: readonly JsonReport[]): JsonSuite[] {
  const isRunEnd = (suite: JsonSuite) => suite.id === runEndSuite.id;
  const others = reports.flatMap((report) => report.suites.filter((suite) => !isRunEnd(suite)));
  const runEnd = reports.flatMap((report) => report.suites.filter(isRunEnd));
  const [first] = runEnd;
  if (!first || runEnd.length === 1) return [...others, ...runEnd];
  const counts: JsonCounts = sumEach(
    runEnd.map((suite) => suite.counts),
    [...caseCountKeys, "total"],
  );
  const merged: JsonSuite = {
    ...first,
    status: worstStatus(counts),
    plannedCases: null,
    durationMs: Math.max(...runEnd.map((suite) => suite.durationMs)),
    counts,
    cases: runEnd.flatMap((suite) => suite.cases),
  };
  return [...others, merged];
}
