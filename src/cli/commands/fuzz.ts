/**
 * `conform fuzz <campaign>`: a long generated campaign of one area (X-Filter semantics, pagination, ...) against
 * a target, with a progress bar, writing the same reports as `conform run`. A campaign names the suites it runs
 * and the options it gives them; the suites read `runs` (runs per property), `seed` and `progress` from their
 * options. Everything else (target, token, TLS, rate limit, reports, --allow-writes) is `conform run`'s: its
 * options and its handler are reused, with the campaign's suites selected.
 * @module
 */
import type { Argv, CommandModule } from "yargs";
import { ConfigError } from "../../core/errors.ts";
import { ProgressBar } from "../progress-bar.ts";
import { runCommand, runOptions } from "./run.ts";

export interface Campaign {
  /** What it fuzzes, for --help. */
  readonly describe: string;
  /** The suites it runs (ids). */
  readonly suites: readonly string[];
  /** Options the suites get besides `runs`, `seed` and `progress`. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** Campaigns by name: `conform fuzz <name>`. */
export const campaigns = {
  filters: {
    describe:
      "X-Filter semantics: generated filters judged by the oracle, metamorphic properties, invalid filters",
    suites: ["filters"],
  },
  pagination: {
    describe: "page and page_size edges, envelope invariants, walks over every page",
    suites: ["pagination"],
  },
  bodies: { describe: "invalid bodies refused, valid read back", suites: ["invalid-bodies", "valid-bodies"] },
} as const satisfies Record<string, Campaign>;

export type CampaignName = keyof typeof campaigns;

/** Runs per property when --runs is not given (fast-check's own default). */
export const defaultCampaignRuns = 100;

type RunHandlerArgs = Parameters<typeof runCommand.handler>[0];
type FuzzArgs = RunHandlerArgs & { campaign: CampaignName; runs: number };

function builder(yargs: Argv) {
  return runOptions(yargs)
    .positional("campaign", {
      type: "string",
      choices: Object.keys(campaigns),
      describe: Object.entries(campaigns)
        .map(([name, campaign]) => `${name}: ${campaign.describe}`)
        .join("; "),
    })
    .option("runs", {
      type: "number",
      default: defaultCampaignRuns,
      group: "Run:",
      describe: "Runs per property (each run is a few requests)",
    })
    .hide("suite")
    .hide("suite-path")
    .hide("tag")
    .hide("exclude-tag")
    .check((args) => {
      if (!(Number.isInteger(args.runs) && (args.runs as number) > 0))
        throw new ConfigError("--runs must be a positive integer");
      return true;
    })
    .example(
      "$0 fuzz filters --runs 500 --seed 42",
      "A long X-Filter campaign against the embedded reference server",
    )
    .example(
      "CONFORM_TOKEN=... $0 fuzz pagination --base-url https://api.example.net/v4",
      "Pagination edges against a real target",
    );
}

export const fuzzCommand: CommandModule<object, FuzzArgs> = {
  command: "fuzz <campaign>",
  describe:
    "Run a long generated campaign (filters, pagination, ...) with a progress bar, writing the usual reports",
  builder: builder as unknown as CommandModule<object, FuzzArgs>["builder"],
  handler: async (args) => {
    const campaign: Campaign = campaigns[args.campaign];
    const bar = new ProgressBar(process.stderr, `fuzz ${args.campaign}`);
    const given = (args as { "suite-options"?: unknown })["suite-options"];
    const runArgs = {
      ...args,
      suite: [...campaign.suites],
      "suite-path": undefined,
      tag: undefined,
      "exclude-tag": undefined,
      "suite-options": {
        ...(typeof given === "object" && given !== null ? given : {}),
        ...campaign.options,
        runs: args.runs,
        ...(args.seed !== undefined ? { seed: args.seed } : {}),
        progress: (label: string, run: number, of: number) => bar.update(label, run, of),
      },
    } as unknown as RunHandlerArgs;
    try {
      await runCommand.handler(runArgs);
    } finally {
      bar.clear();
    }
    (args as { exitCode?: number }).exitCode = (runArgs as { exitCode?: number }).exitCode;
  },
};
