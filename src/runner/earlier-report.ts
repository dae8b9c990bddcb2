/**
 * What a run reads from an earlier run's `report.json`: suite durations (`--durations`, to balance shards) and
 * failure groups (`--baseline`, the known failures). Only the few fields needed are read and checked, so any 2.x
 * report will do; a file that is not one is a ConfigError naming the option and the file (exit 2).
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import type { BaselineGroup } from "../core/events.ts";
import { InputFileRefused, inputLimits, readInputFile } from "../core/input-file.ts";

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
    parsed = JSON.parse(readInputFile(path, inputLimits.report));
  } catch (error) {
    if (error instanceof InputFileRefused) throw new ConfigError(`--${option} ${path}: ${error.message}`);
    throw new ConfigError(`--${option} ${path}: not a readable report.json (${(error as Error).message})`);
  }
  const report = parsed as Record<string, unknown> | null;
  if (typeof report !== "object" || report === null || !/^2\./.test(String(report.schemaVersion)))
    throw new ConfigError(`--${option} ${path}: not a conform report.json (schemaVersion 2.x)`);
  return report;
}

/** The longest text a baseline group may hold in a field: its ids are digests, its messages one line. */
const maxGroupText = 4096;

const isText = (value: unknown, max = maxGroupText): value is string =>
  typeof value === "string" && value.length <= max;

/** Each suite's duration and case count in the report at `path` (`--durations`). */
export function readDurations(path: string): Map<string, SuiteDuration> {
  return durationsOf(readReport(path, "durations"));
}

/** Each suite's duration and case count in a report already read (and checked by its caller). */
export function durationsOf(checked: object): Map<string, SuiteDuration> {
  const { suites: listed } = checked as { suites?: unknown };
  const suites = Array.isArray(listed) ? listed : [];
  const durations = new Map<string, SuiteDuration>();
  for (const suite of suites as { id?: unknown; durationMs?: unknown; cases?: unknown }[]) {
    // Only what is usable: a suite's id, and a finite duration (`1e999` parses as Infinity).
    if (!isText(suite?.id, 256) || !Number.isFinite(suite.durationMs)) continue;
    durations.set(suite.id, {
      durationMs: Math.max(0, suite.durationMs as number),
      cases: Array.isArray(suite.cases) ? suite.cases.length : 0,
    });
  }
  return durations;
}

/**
 * One failure group of an earlier report, its fields checked for type and size (they reach every report of the run:
 * `run-finished.baseline`), or what is wrong with it.
 */
function baselineGroupOf(entry: unknown): BaselineGroup | string {
  if (typeof entry !== "object" || entry === null) return "is not an object";
  const group = entry as Record<string, unknown>;
  if (!isText(group.id, 256) || group.id === "") return "has no id of at most 256 characters";
  if (!isText(group.checkId, 256)) return "has no checkId of at most 256 characters";
  if (!isText(group.shape ?? "") || !isText(group.example ?? ""))
    return `has a shape or example that is not text of at most ${maxGroupText} characters`;
  const firstCases = group.firstCases ?? [];
  if (!Array.isArray(firstCases) || firstCases.length > 1000)
    return "has firstCases that are not a short list";
  const suites = new Set<string>();
  for (const one of firstCases as { suiteId?: unknown }[]) {
    if (!isText(one?.suiteId, 256)) return "has a first case without a suiteId";
    suites.add(one.suiteId as string);
  }
  return {
    id: group.id,
    checkId: group.checkId,
    shape: (group.shape as string | undefined) ?? "",
    example: (group.example as string | undefined) ?? "",
    suites: [...suites],
  };
}

/** The failure groups of the report at `path` (`--baseline`). */
export function readBaseline(path: string): Baseline {
  return baselineOf(readReport(path, "baseline"), path);
}

/** The failure groups of a report already read from `path` (the CLI checks it against the report's schema first). */
export function baselineOf(checked: object, path: string): Baseline {
  const report = checked as Readonly<Record<string, unknown>>;
  if (!Array.isArray(report.groups))
    throw new ConfigError(`--baseline ${path}: the report has no failure groups (groups)`);
  const groups = new Map<string, BaselineGroup>();
  (report.groups as unknown[]).forEach((entry, index) => {
    const group = baselineGroupOf(entry);
    if (typeof group === "string")
      throw new ConfigError(`--baseline ${path}: groups[${index}] ${group}: not a report.json of conform`);
    groups.set(group.id, group);
  });
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
