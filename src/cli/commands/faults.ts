/**
 * `conform faults`: the fault score. Runs the suites against the embedded reference server clean and with each
 * named fault in turn, prints the table, writes `fault-matrix.json`, and exits 1 when a fault escapes or the clean
 * server fails a check. `--suite`, `--tag` and `--exclude-tag` score only the suites `conform run` would select
 * with them, each against every fault. `--update-docs` rewrites the table of docs/faults.md from a whole score.
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { packagePath } from "../../core/package-files.ts";
import { runConfigDefaults } from "../../runner/config.ts";
import { bundledSpecPath } from "../../spec/bundled.ts";
import { defineCommand } from "../command-module.ts";
import { checkNumbers, listOption, newRunId, plainNumber } from "../options.ts";
import { toolVersion } from "../version.ts";

/** The page whose fault table `--update-docs` rewrites. */
const faultTablePage = packagePath("docs/faults.md");

/** Options that make a part of the score: its table must not stand in docs/faults.md for the whole one. */
const partialScoreOptions = ["suite", "tag", "exclude-tag", "fault"] as const;

/** `--update-docs` only from a whole score: every fault, every suite (as CI runs it). */
function wholeScoreForDocs(args: Readonly<Record<string, unknown>>): true {
  if (!args["update-docs"]) return true;
  const given = partialScoreOptions.filter((option) => listOption(args[option]).length > 0);
  if (given.length === 0) return true;
  throw new ConfigError(
    `--update-docs cannot take ${given.map((option) => `--${option}`).join(", ")}: docs/faults.md shows the whole score (every fault, every suite), and a part of it would replace that table`,
  );
}

export const faultsCommand = defineCommand({
  command: "faults",
  describe: "Score the suites: run them against the reference server with each named fault, and once clean",
  builder: (yargs) =>
    yargs
      .option("fault", { type: "string", array: true, describe: "Score only these faults (default: all)" })
      .option("suite", {
        type: "string",
        array: true,
        describe: "Score only these suites (ids), each against every fault",
      })
      .option("tag", {
        type: "string",
        array: true,
        describe: "Score only suites with one of these tags, each against every fault",
      })
      .option("exclude-tag", {
        type: "string",
        array: true,
        describe: "Leave out suites and cases with these tags; the rest run against every fault",
      })
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
      .check((args) => checkNumbers(args, ["seed", "concurrency"]) && wholeScoreForDocs(args)),
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
        config: {
          ...runConfigDefaults,
          specPath: bundledSpecPath,
          seed: args.seed,
          concurrency: 4,
          suites: listOption(args.suite),
          tags: listOption(args.tag),
          excludeTags: listOption(args["exclude-tag"]),
        },
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
