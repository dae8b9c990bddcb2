/**
 * `conform merge-reports DIR...`: the shards' report.json files (`conform run --shard i/n`, one per CI job) as one
 * run: every reporter writes it again into `<report-dir>/<new run id>/` (and `latest/`). Exit code: the merged
 * run's (the worst of the shards'); 2 when the reports are not shards of one run, saying which and why.
 * @module
 */
import { join } from "node:path";
import type { Argv } from "yargs";
import { runConfigDefaults } from "../../runner/config.ts";
import { parseFailUnder } from "../../runner/coverage-summary.ts";
import { defineCommand } from "../command-module.ts";
import { listOption, newRunId } from "../options.ts";

function builder(yargs: Argv) {
  return yargs
    .positional("reports", {
      type: "string",
      array: true,
      demandOption: true,
      describe: "Report directories (or report.json files) of the shards",
    })
    .option("report-dir", {
      type: "string",
      default: runConfigDefaults.reportDir,
      describe: "The merged reports go to <dir>/<run-id>/ and <dir>/latest/",
    })
    .option("reporter", {
      type: "string",
      array: true,
      describe:
        "console, json, junit, html, markdown, github, ndjson (comma-separated; default: the first five)",
    })
    .option("fail-under", {
      type: "string",
      describe:
        "Exit 1 when the merged run exercised fewer operations than this share (percent, e.g. 80), saying so in one line",
    })
    .check((args) => {
      if (args["fail-under"] !== undefined) parseFailUnder(args["fail-under"]);
      return true;
    })
    .example("$0 merge-reports shards/*/", "Merge the report directories of every shard");
}

export const mergeReportsCommand = defineCommand({
  command: "merge-reports <reports...>",
  describe: "Merge the reports of a sharded run (--shard i/n) into one and write every report again",
  builder,
  handler: async (args) => {
    const runId = newRunId();
    const { createReporters } = await import("../../reporters/index.ts");
    const { mergedEvents, readShardReport } = await import("../../reporters/merge-reports.ts");
    const { colorFromEnv, reportPathsLine } = await import("../run-with-reporters.ts");
    const failUnder = args["fail-under"] === undefined ? undefined : parseFailUnder(args["fail-under"]);
    const events = mergedEvents(listOption(args.reports).map(readShardReport), runId, failUnder);
    const outputDir = join(args["report-dir"], runId);
    const reporters = createReporters(
      args.reporter ? listOption(args.reporter) : [...runConfigDefaults.reporters],
      {
        outputDir,
        stream: process.stdout,
        isTTY: Boolean(process.stdout.isTTY),
        ci: Boolean(process.env.CI),
        ...colorFromEnv(process.env),
      },
    );
    for (const event of events) await reporters.emit(event);
    await reporters.close((latest) => {
      if (reporters.files.length > 0)
        process.stdout.write(`${reportPathsLine(outputDir, reporters.files, latest)}\n`);
    });
    const finished = events.at(-1);
    return finished?.type === "run-finished" ? finished.exitCode : 2;
  },
});
