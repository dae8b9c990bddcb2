/**
 * `conform diff OLD NEW`: the failure groups new, fixed and still failing between two runs' report.json, and the
 * coverage gained or lost; Markdown on stdout (`--json` for JSON), both written with `--output-dir`. Exit 1 when
 * NEW has failure groups OLD did not have, 0 otherwise, 2 when a report cannot be read.
 * @module
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Argv } from "yargs";
import { makeDirectory } from "../../core/directories.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { defineCommand } from "../command-module.ts";

function builder(yargs: Argv) {
  return yargs
    .positional("old", {
      type: "string",
      demandOption: true,
      describe: "The earlier report (dir or report.json)",
    })
    .positional("new", {
      type: "string",
      demandOption: true,
      describe: "The later report (dir or report.json)",
    })
    .option("json", { type: "boolean", default: false, describe: "Print JSON instead of Markdown" })
    .option("output-dir", { type: "string", describe: "Also write diff.md and diff.json here" })
    .example("$0 diff main/report.json reports/latest", "What this branch fixed or broke against main");
}

export const diffCommand = defineCommand({
  command: "diff <old> <new>",
  describe: "Failure groups new, fixed and still failing between two reports, and coverage gained or lost",
  builder,
  handler: async (args) => {
    const { readShardReport } = await import("../../reporters/merge-reports.ts");
    const { diffMarkdown, diffReports } = await import("../../reporters/report-diff.ts");
    const diff = diffReports(readShardReport(args.old).report, readShardReport(args.new).report);
    const markdown = diffMarkdown(diff);
    const json = `${JSON.stringify(diff, null, 2)}\n`;
    process.stdout.write(args.json ? json : markdown);
    if (args["output-dir"] !== undefined) {
      await makeDirectory(args["output-dir"], 0o755);
      await writeFile(join(args["output-dir"], "diff.md"), markdown);
      await writeFile(join(args["output-dir"], "diff.json"), json);
    }
    return diff.newGroups.length > 0 ? ExitCode.checkFailed : ExitCode.ok;
  },
});
