/**
 * `conform faults`: the fault score. Runs the suites against the embedded reference server clean and with each
 * named fault in turn, prints the table, writes `fault-matrix.json`, and exits 1 when a fault escapes or the clean
 * server fails a check. `--update-docs` rewrites the table of docs/faults.md from this run.
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExitCode } from "../../core/exit-codes.ts";
import { packagePath } from "../../core/package-files.ts";
import { runConfigDefaults } from "../../runner/config.ts";
import { bundledSpecPath } from "../../spec/bundled.ts";
import { defineCommand } from "../command-module.ts";
import { checkNumbers, listOption, newRunId, plainNumber } from "../options.ts";
import { toolVersion } from "../version.ts";

/** The page whose fault table `--update-docs` rewrites. */
const faultTablePage = packagePath("docs/faults.md");

export const faultsCommand = defineCommand({
  command: "faults",
  describe: "Score the suites: run them against the reference server with each named fault, and once clean",
  builder: (yargs) =>
    yargs
      .option("fault", { type: "string", array: true, describe: "Score only these faults (default: all)" })
      .option("full", {
        type: "boolean",
        default: false,
        describe: "Run every suite against every fault (slow)",
      })
      .option("seed", {
        coerce: plainNumber,
        default: 1,
        describe: "Seed of the generated cases (fixed: scores compare)",
      })
      .option("concurrency", { coerce: plainNumber, default: 2, describe: "Faults scored at once" })
      .option("report-dir", {
        type: "string",
        default: runConfigDefaults.reportDir,
        describe: "Where fault-matrix.json goes",
      })
      .option("update-docs", {
        // The flag's name before the table moved from the README to docs/faults.md.
        alias: "update-readme",
        type: "boolean",
        default: false,
        describe: "Rewrite the fault table of docs/faults.md from this run",
      })
      .check((args) => checkNumbers(args, ["seed", "concurrency"])),
  handler: async (args) => {
    const runId = `${newRunId()}-faults`;
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once("SIGINT", interrupt);
    try {
      const { runFaultMatrix } = await import("../../fault-score/score.ts");
      const { faultMatrixText, withFaultTable, writeFaultMatrix } = await import(
        "../../fault-score/matrix-report.ts"
      );
      const matrix = await runFaultMatrix({
        runId,
        config: { ...runConfigDefaults, specPath: bundledSpecPath, seed: args.seed, concurrency: 4 },
        faults: listOption(args.fault),
        full: args.full,
        concurrency: args.concurrency,
        toolVersion,
        signal: controller.signal,
        onRow: (row, done, total) =>
          process.stderr.write(`[${done}/${total}] ${row.caught ? "caught " : "ESCAPED"} ${row.id}\n`),
      });
      process.stdout.write(faultMatrixText(matrix));
      const path = await writeFaultMatrix(join(args["report-dir"], runId), matrix);
      process.stdout.write(`written: ${path}\n`);
      if (args["update-docs"]) {
        writeFileSync(faultTablePage, withFaultTable(readFileSync(faultTablePage, "utf8"), matrix));
        process.stdout.write("docs/faults.md: fault table updated\n");
      }
      return controller.signal.aborted ? ExitCode.interrupted : matrix.exitCode;
    } finally {
      process.off("SIGINT", interrupt);
    }
  },
});
