/**
 * `conform verify FILE...`: judges recorded traffic (HAR 1.2, go-vcr cassettes) with the per-exchange checks and
 * the observed judgements, writing the same reports and exiting as `conform run`. The handler parses and calls
 * `src/traffic/verify.ts`.
 * @module
 */
import type { Argv } from "yargs";
import { defineCommand } from "../command-module.ts";
import { toRunConfig } from "../run-config.ts";
import { runOptions } from "../run-options.ts";

/** Options of `conform run` that mean nothing for traffic conform does not make. */
export const notForTraffic = [
  "base-url",
  "suite",
  "tag",
  "exclude-tag",
  "suite-path",
  "suite-options",
  "seed",
  "concurrency",
  "rate-limit",
  "allow-writes",
  "max-failures",
  "fail-under",
  "shard",
  "durations",
  "listen-driver",
  "listen-command",
  "data-plane",
  "auth-url",
  "token",
  "token-env",
] as const;

function builder(yargs: Argv) {
  let options = runOptions(yargs)
    .positional("files", {
      type: "string",
      array: true,
      demandOption: true,
      describe: "HAR 1.2 files or go-vcr cassettes (YAML)",
    })
    .option("api-base", {
      type: "string",
      describe:
        "The API's base URL in the recordings, when the path after its /v<N> segment does not name the operation",
    });
  // The proxy stops at --max-time; reading files has no time limit.
  for (const name of [...notForTraffic, "max-time"]) options = options.hide(name);
  return options
    .example("$0 verify fixtures/*.yaml", "Judge an SDK's recorded integration tests (go-vcr cassettes)")
    .example("$0 run --har run.har && $0 verify run.har", "Judge a recorded run again");
}

export const verifyCommand = defineCommand({
  command: "verify <files..>",
  describe:
    "Judge recorded traffic (HAR 1.2, go-vcr cassettes) as a run judges its own, writing the usual reports",
  builder,
  handler: async (args) => {
    const { verifyRecordings } = await import("../../traffic/verify.ts");
    const { runWithReporters } = await import("../run-with-reporters.ts");
    const config = await toRunConfig(args);
    return await runWithReporters(
      config,
      (options) =>
        verifyRecordings(config, {
          ...options,
          files: args.files,
          ...(args["api-base"] ? { baseUrl: args["api-base"] } : {}),
        }),
      { traffic: true },
    );
  },
});
