/**
 * `conform spec [file]`: validates an API description and prints what the toolkit sees in it (areas,
 * paginated lists and their filters, scopes, deprecated operations, unknown formats); with `--plan`, what a run with
 * the same selection options would request of each operation, or why not, without sending any. Exit 0 when it loads;
 * exit 2 naming where it fails when it does not. Without a file, the bundled description (`specs/cloud-api-v4.yaml`).
 * @module
 */
import { SpecInvalidError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { bundledSpecPath } from "../../spec/bundled.ts";
import type { ApiSpec } from "../../spec/types.ts";
import { defineCommand } from "../command-module.ts";

interface SpecArgs {
  file: string;
  validate: boolean;
  plan: boolean;
  "allow-writes": boolean;
  suite?: string[];
  "suite-path"?: string[];
  tag?: string[];
  "exclude-tag"?: string[];
  operation?: string[];
  "exclude-operation"?: string[];
  method?: string[];
  "path-pattern"?: string[];
}

/** `run`'s selection options that decide what the generic layer requests, taken by `--plan`: key and help. */
const planSelection = {
  suite: ["suites", "Plan with only these suites (ids)"],
  "suite-path": ["suitePaths", "More *.suite.ts files or folders to load"],
  tag: ["tags", "Plan with only suites with one of these tags"],
  "exclude-tag": ["excludeTags", "Plan without suites and cases with these tags"],
  operation: ["operations", "Plan requests only to these operations (operationIds)"],
  "exclude-operation": ["excludeOperations", "Plan no request to these operations"],
  method: ["methods", "Only operations of these HTTP methods (e.g. GET)"],
  "path-pattern": ["paths", "Only operations whose path template matches (* any characters)"],
} as const;

/** The coverage plan for `--plan`, from the description and the selection options alone. */
async function planText(spec: ApiSpec, args: SpecArgs): Promise<string> {
  const { planOperations } = await import("../../runner/plan-operations.ts");
  const { coveragePlanText } = await import("../../reporters/coverage-plan-text.ts");
  const { listOption } = await import("../options.ts");
  const lists = Object.entries(planSelection).map(([name, [key]]) => [
    key,
    listOption(args[name as keyof typeof planSelection]),
  ]);
  const plan = await planOperations(spec, {
    ...(Object.fromEntries(lists) as Record<(typeof planSelection)[keyof typeof planSelection][0], string[]>),
    allowWrites: args["allow-writes"],
  });
  return coveragePlanText(plan);
}

export const specCommand = defineCommand({
  command: "spec [file]",
  describe: "Validate an API description (file or http(s) URL; OpenAPI 3.x or Swagger 2.0) and summarise it",
  builder: (yargs) =>
    yargs
      .positional("file", {
        type: "string",
        // `conform run --spec FILE` names it so: the same words work here.
        alias: "spec",
        default: bundledSpecPath,
        defaultDescription: "the bundled specs/cloud-api-v4.yaml",
        describe: "Path or URL of the description",
      })
      .option("validate", {
        type: "boolean",
        default: true,
        describe: "Check the description against its OpenAPI schema (--no-validate skips it)",
      })
      .option("plan", {
        type: "boolean",
        default: false,
        describe:
          "Also print what a run with these selection options would request of each operation, or why not (no request sent)",
      })
      .option("allow-writes", {
        type: "boolean",
        default: false,
        describe: "Plan a run whose writes are allowed (the embedded reference server always allows them)",
      })
      .options(
        Object.fromEntries(
          Object.entries(planSelection).map(([name, [, describe]]) => [
            name,
            { type: "string", array: true, describe },
          ]),
        ) as { [Name in keyof typeof planSelection]: { type: "string"; array: true; describe: string } },
      )
      .example("$0 spec", "Check the bundled description")
      .example(
        "$0 spec my-api.yaml --plan --exclude-tag writes",
        "What a run would request of each operation",
      )
      .example("$0 spec my-api.yaml --no-validate", "Summarise another description without the schema check"),
  handler: async (args) => {
    const { formatProblems, loadSpec, summarizeSpec } = await import("../../spec/index.ts");
    try {
      const spec = await loadSpec(args.file, { validate: args.validate });
      process.stdout.write(summarizeSpec(spec));
      if (args.plan) process.stdout.write(await planText(spec, args));
      return ExitCode.ok;
    } catch (error) {
      // Every problem, one per line: main() would print only the first.
      if (!(error instanceof SpecInvalidError)) throw error;
      process.stderr.write(`conform: ${error.message} [${error.code}]\n${formatProblems(error.problems)}`);
      return ExitCode.toolkitError;
    }
  },
});
