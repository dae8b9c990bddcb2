/**
 * `conform run`: the suites against a target, writing reports. Its options are in `../run-options.ts`, shared with
 * `fuzz`, `verify` and `proxy`; `../run-config.ts` reads them into a RunConfig.
 * @module
 */
import type { Argv } from "yargs";
import { defineCommand } from "../command-module.ts";
import { toRunConfig } from "../run-config.ts";
import { runOptions } from "../run-options.ts";

function builder(yargs: Argv) {
  return runOptions(yargs)
    .example("$0 run", "Every suite against the embedded reference server")
    .example(
      "CONFORM_TOKEN=... $0 run --base-url https://api.example.net/v4 --tag read-only",
      "Read-only suites against a real target",
    )
    .example("$0 run --suite filters --seed 42 --reporter console,json", "Replay a generated run")
    .example("$0 run -H 'X-Tenant: acme' -H 'X-Api-Key: ...'", "Add headers to every request")
    .example("$0 run --operation getRegions --list", "What a selection would run");
}

export const runCommand = defineCommand({
  command: "run",
  describe: "Run the conformance and workflow suites against a target and write reports",
  builder,
  handler: async (args) => {
    // Loaded when a run starts: `--help` and the other commands start without the runner.
    const { runConformance } = await import("../../runner/run.ts");
    const { runWithReporters } = await import("../run-with-reporters.ts");
    const config = await toRunConfig(args);
    if (args.list) {
      const { planSelection } = await import("../../runner/run.ts");
      const { selectionListing } = await import("../../runner/listing.ts");
      process.stdout.write(selectionListing(await planSelection(config), config));
      return 0;
    }
    return await runWithReporters(config, (options) => runConformance(config, options));
  },
});
