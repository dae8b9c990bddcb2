/**
 * `conform fuzz` as a library function: a long generated campaign runs every suite that declares it
 * (`defineSuite({ fuzz: { campaign } })`), with the number of runs per property asked and the run's seed, the
 * target and reports as any run. The CLI holds no suite ids: campaigns are what the discovered suites declare.
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import type { RunFinished } from "../core/events.ts";
import type { RunConfig } from "./config.ts";
import { discoverSuites } from "./discovery.ts";
import { type RunOptions, runConformance } from "./run.ts";
import type { PropertyReplay, Suite } from "./suite-api.ts";

export { parsePropertyReplay } from "./property-replay.ts";

export interface CampaignInfo {
  readonly campaign: string;
  readonly describe: string;
  /** The suites that take part, by id. */
  readonly suites: readonly string[];
}

/** The campaigns the given suites declare, in the order first declared. */
export function campaignsOf(suites: readonly Suite[]): CampaignInfo[] {
  const found = new Map<string, { describe: string; suites: string[] }>();
  for (const suite of suites) {
    if (!suite.fuzz) continue;
    const entry = found.get(suite.fuzz.campaign) ?? { describe: suite.fuzz.describe, suites: [] };
    entry.suites.push(suite.id);
    found.set(suite.fuzz.campaign, entry);
  }
  return [...found].map(([campaign, entry]) => ({ campaign, ...entry }));
}

/** The campaigns of the project's suites and those under `suitePaths`. */
export async function listCampaigns(suitePaths: readonly string[]): Promise<CampaignInfo[]> {
  return campaignsOf((await discoverSuites(suitePaths)).map((entry) => entry.suite));
}

export interface FuzzOptions extends RunOptions {
  readonly campaign: string;
  /** Runs per property (each run is a few requests). */
  readonly runs: number;
  /** Replays one property of the campaign (`--property <suite>/<case>/<name>`, `--path`): see {@link PropertyReplay}. */
  readonly replay?: PropertyReplay;
}

/**
 * Runs one campaign: its suites only, every property `runs` times; refuses an unknown campaign (exit 2). Replaying
 * one property, only its suite runs (all its cases, so what earlier cases set up is there), and of the properties
 * only that one, from its path.
 */
export async function runFuzzCampaign(config: RunConfig, options: FuzzOptions): Promise<RunFinished> {
  if (!(Number.isInteger(options.runs) && options.runs > 0))
    throw new ConfigError(`--runs must be a positive integer, got ${options.runs}`);
  const discovered = (await discoverSuites(config.suitePaths)).map((entry) => entry.suite);
  const campaigns = campaignsOf(discovered);
  const chosen = campaigns.find((entry) => entry.campaign === options.campaign);
  if (!chosen) {
    const known = campaigns.map((entry) => `${entry.campaign} (${entry.describe})`).join("; ");
    throw new ConfigError(`no suite declares the fuzz campaign "${options.campaign}"; campaigns: ${known}`);
  }
  const { replay } = options;
  if (replay) {
    const suite = discovered.find((entry) => entry.id === replay.suite);
    if (!suite || !chosen.suites.includes(suite.id))
      throw new ConfigError(
        `--property: the campaign "${chosen.campaign}" has no suite "${replay.suite}" (its suites: ${chosen.suites.join(", ")})`,
      );
    if (!suite.cases.some((entry) => entry.id === replay.case))
      throw new ConfigError(
        `--property: the suite "${suite.id}" has no case "${replay.case}" (its cases: ${suite.cases.map((entry) => entry.id).join(", ")})`,
      );
  }
  return runConformance(
    {
      ...config,
      suites: replay ? [replay.suite] : chosen.suites,
      tags: [],
      excludeTags: [],
      propertyRuns: options.runs,
      replayProperty: replay,
    },
    options,
  );
}
