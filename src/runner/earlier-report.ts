/**
 * What a run reads from an earlier run's `report.json`: suite durations (`--durations`, to balance shards) and
 * failure groups (`--baseline`, the known failures). Only the few fields needed are read and checked, so any 2.x
 * report will do; a file that is not one is a ConfigError naming the option and the file (exit 2).
 * @module
 */
import { readFileSync } from "node:fs";
import { ConfigError } from "../core/errors.ts";
import type { BaselineGroup } from "../core/events.ts";

export interface SuiteDuration {
  readonly durationMs: number;
  readonly cases: number;
}

/** An earlier report's failure groups, by id, and the suites it ran. */
export interface Baseline {
  readonly source: string;
  readonly groups: ReadonlyMap<string, BaselineGroup>;
}

function readReport(path: string, option: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`--${option} ${path}: not a readable report.json (${(error as Error).message})`);
  }
  const report = parsed as Record<string, unknown> | null;
  if (typeof report !== "object" || report === null || !/^2\./.test(String(report.schemaVersion)))
    throw new ConfigError(`--${option} ${path}: not a conform report.json (schemaVersion 2.x)`);
  return report;
}

/** Each suite's duration and case count in the report at `path` (`--durations`). */
export function readDurations(path: string): Map<string, SuiteDuration> {
  const report = readReport(path, "durations");
  const suites = Array.isArray(report.suites) ? report.suites : [];
  const durations = new Map<string, SuiteDuration>();
  for (const suite of suites as { id?: unknown; durationMs?: unknown; cases?: unknown }[]) {
    if (typeof suite?.id !== "string" || typeof suite.durationMs !== "number") continue;
    durations.set(suite.id, {
      durationMs: Math.max(0, suite.durationMs),
      cases: Array.isArray(suite.cases) ? suite.cases.length : 0,
    });
  }
  return durations;
}

/** The failure groups of the report at `path` (`--baseline`). */
export function readBaseline(path: string): Baseline {
  const report = readReport(path, "baseline");
  if (!Array.isArray(report.groups))
    throw new ConfigError(`--baseline ${path}: the report has no failure groups (groups)`);
  const groups = new Map<string, BaselineGroup>();
  for (const group of report.groups as Record<string, unknown>[]) {
    if (typeof group?.id !== "string" || typeof group.checkId !== "string") continue;
    const firstCases = Array.isArray(group.firstCases) ? group.firstCases : [];
    groups.set(group.id, {
      id: group.id,
      checkId: group.checkId,
      shape: String(group.shape ?? ""),
      example: String(group.example ?? ""),
      suites: [
        ...new Set(
          (firstCases as { suiteId?: unknown }[]).flatMap((one) =>
            typeof one?.suiteId === "string" ? [one.suiteId] : [],
          ),
        ),
      ],
    });
  }
  return { source: path, groups };
}

/**
 * The run's groups against the baseline: known (in both), new (only in the run) and fixed (in the baseline, not in
 * the run, and of a suite the run ran to its end: a baseline group of a suite this run did not run, or cut short, is
 * neither fixed nor known).
 */
export function compareWithBaseline(
  baseline: Baseline,
  groupIds: readonly string[],
  suitesRun: ReadonlySet<string>,
): { readonly known: string[]; readonly new: string[]; readonly fixed: BaselineGroup[] } {
  const seen = new Set(groupIds);
  return {
    known: groupIds.filter((id) => baseline.groups.has(id)),
    new: groupIds.filter((id) => !baseline.groups.has(id)),
    fixed: [...baseline.groups.values()].filter(
      (group) =>
        !seen.has(group.id) && group.suites.length > 0 && group.suites.every((id) => suitesRun.has(id)),
    ),
  };
}
