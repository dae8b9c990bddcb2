/**
 * `conform fuzz <campaign>`: a long generated campaign (X-Filter semantics, pagination, bodies, ...) against a
 * target, with a progress bar, writing the same reports as `conform run`. Campaigns are declared by the suites
 * (`defineSuite({ fuzz: { campaign } })`), so the CLI holds no suite ids: an unknown campaign is refused (exit 2)
 * with the list the suites declare. Target, token, TLS, rate limit, reports and --allow-writes are `conform run`'s
 * options.
 * @module
 */
import type { Argv } from "yargs";
import { ConfigError } from "../../core/errors.ts";
import { parsePropertyReplay } from "../../runner/property-replay.ts";
import { defineCommand } from "../command-module.ts";
import { checkNumbers, plainNumber } from "../options.ts";
import { ProgressBar } from "../progress-bar.ts";
import { toRunConfig } from "../run-config.ts";
import { runOptions } from "../run-options.ts";

/** Runs per property when --runs is not given (fast-check's own default). */
export const defaultCampaignRuns = 100;

function builder(yargs: Argv) {
  return runOptions(yargs)
    .positional("campaign", {
      type: "string",
      demandOption: true,
      describe: "A campaign the suites declare (an unknown one is refused with the list)",
    })
    .option("runs", {
      coerce: plainNumber,
      default: defaultCampaignRuns,
      group: "Run:",
      describe: "Runs per property (each run is a few requests)",
    })
    .option("property", {
      type: "string",
      group: "Run:",
      describe:
        "Replay one property only: <suite>/<case>/<property name>, as a failure's replay line names it",
    })
    .option("path", {
      type: "string",
      group: "Run:",
      describe: "With --property: fast-check's path to the counterexample (from the replay line)",
    })
    .hide("suite")
    .hide("tag")
    .hide("exclude-tag")
    .check((args) => {
      checkNumbers(args, ["runs"]);
      if (args.path !== undefined && args.property === undefined)
        throw new ConfigError("--path needs --property (the property whose counterexample it leads to)");
      if (args.property !== undefined)
        parsePropertyReplay(String(args.property), args.path as string | undefined);
      return true;
    })
    .example(
      "$0 fuzz filters --runs 500 --seed 42",
      "A long X-Filter campaign against the embedded reference server",
    )
    .example(
      "$0 fuzz filters --seed 5 --runs 12 --property 'filters/semantics/getNodeBalancers answers what the oracle says' --path 3:0",
      "Replay one falsified property from its counterexample, as a failure's replay line prints it",
    )
    .example(
      "CONFORM_TOKEN=... $0 fuzz pagination --base-url https://api.example.net/v4",
      "Pagination edges against a real target",
    );
}

export const fuzzCommand = defineCommand({
  command: "fuzz <campaign>",
  describe:
    "Run a long generated campaign (filters, pagination, ...) with a progress bar, writing the usual reports",
  builder,
  handler: async (args) => {
    // The options are run's: --list would be silently ignored here and the campaign run.
    if (args.list)
      throw new ConfigError("--list is for `conform run` (e.g. conform run --tag filters --list)");
    const { runFuzzCampaign } = await import("../../runner/fuzz.ts");
    const { runWithReporters } = await import("../run-with-reporters.ts");
    const config = await toRunConfig(args);
    const replay = args.property === undefined ? undefined : parsePropertyReplay(args.property, args.path);
    const bar = new ProgressBar(process.stderr, `fuzz ${args.campaign}`, { ci: Boolean(process.env.CI) });
    try {
      return await runWithReporters(
        config,
        (options) =>
          runFuzzCampaign(config, {
            ...options,
            campaign: args.campaign,
            runs: args.runs,
            ...(replay ? { replay } : {}),
          }),
        { hooks: { progress: (label, run, of) => bar.update(label, run, of) } },
      );
    } finally {
      bar.clear();
    }
  },
});
