/**
 * `conform spec [file]`: validates an API description and prints what the toolkit sees in it (areas,
 * paginated lists and their filters, scopes, deprecated operations, unknown formats). Exit 0 when it loads;
 * exit 2 naming where it fails when it does not. Without a file, the bundled description (`specs/cloud-api-v4.yaml`).
 * @module
 */
import { SpecInvalidError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { bundledSpecPath } from "../../spec/bundled.ts";
import { defineCommand } from "../command-module.ts";

export const specCommand = defineCommand({
  command: "spec [file]",
  describe: "Validate an API description (file or http(s) URL; OpenAPI 3.x or Swagger 2.0) and summarise it",
  builder: (yargs) =>
    yargs
      .positional("file", {
        type: "string",
        default: bundledSpecPath,
        defaultDescription: "the bundled specs/cloud-api-v4.yaml",
        describe: "Path or URL of the description",
      })
      .option("validate", {
        type: "boolean",
        default: true,
        describe: "Check the description against its OpenAPI schema (--no-validate skips it)",
      })
      .example("$0 spec", "Check the bundled description")
      .example("$0 spec my-api.yaml --no-validate", "Summarise another description without the schema check"),
  handler: async (args) => {
    const { formatProblems, loadSpec, summarizeSpec } = await import("../../spec/index.ts");
    try {
      const spec = await loadSpec(args.file, { validate: args.validate });
      process.stdout.write(summarizeSpec(spec));
      return ExitCode.ok;
    } catch (error) {
      // Every problem, one per line: main() would print only the first.
      if (!(error instanceof SpecInvalidError)) throw error;
      process.stderr.write(`conform: ${error.message} [${error.code}]\n${formatProblems(error.problems)}`);
      return ExitCode.toolkitError;
    }
  },
});
