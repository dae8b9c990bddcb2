/**
 * `conform cleanup`: finds what runs left behind on a target (resources whose label starts with the run prefix:
 * load balancers with their profiles and nodes, instances, OAuth clients, personal access tokens) and deletes
 * it, children first; `--dry-run` only lists. The prefix is given as is (`--prefix`), from a run id (`--run`) or from
 * a run's report.json (`--from-report`, which also gives the target's base URL; a merged report gives every shard's
 * prefix, each cleaned in turn). Exit 0 when nothing is left (or the dry run listed), 1 when
 * something could not be listed or deleted, 2 when the cleanup could not run (bad arguments, no token, target
 * unreachable, token refused).
 * @module
 */
import { readFileSync } from "node:fs";
import type { Argv, CommandModule } from "yargs";
import { ConfigError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { runConfigDefaults } from "../../runner/config.ts";
import { labelPrefixOf } from "../../runner/labels.ts";
import type { Leftover } from "../../runner/leftovers.ts";
import { checkNumbers, plainNumber } from "../options.ts";

function builder(yargs: Argv) {
  return yargs
    .option("base-url", {
      type: "string",
      describe: "The API's base URL, ending in /v4 (default with --from-report: the report's target)",
    })
    .option("token", {
      type: "string",
      describe: "Bearer token for the target (prefer --token-env: flags show in process lists)",
    })
    .option("token-env", {
      type: "string",
      describe: "Read the token from this environment variable (default CONFORM_TOKEN)",
    })
    .option("prefix", {
      type: "string",
      describe:
        "Label prefix of the runs to clean up: conform (every run), or one run's, as it prints it (conform-8ze180)",
    })
    .option("run", {
      type: "string",
      describe:
        "The id of the run to clean up (printed at its start and end): its label prefix is derived from it",
    })
    .option("from-report", {
      type: "string",
      describe: "A run's report.json (e.g. reports/latest/report.json): its label prefix and target",
    })
    .option("dry-run", {
      type: "boolean",
      default: false,
      describe: "List what would be deleted; delete nothing",
    })
    .option("ca", { type: "string", describe: "PEM file of a CA to trust for the target" })
    .option("insecure", {
      type: "boolean",
      default: false,
      describe: "Do not verify the target's TLS certificate",
    })
    .option("timeout", { coerce: plainNumber, default: 30_000, describe: "Per-request timeout, in ms" })
    .check((args) => {
      if (args.token !== undefined && args["token-env"] !== undefined)
        throw new ConfigError("give --token or --token-env, not both");
      if (args.ca !== undefined && args.insecure) throw new ConfigError("give --ca or --insecure, not both");
      const given = (["prefix", "run", "from-report"] as const).filter((name) => args[name] !== undefined);
      if (given.length !== 1)
        throw new ConfigError(
          given.length === 0
            ? "say whose leftovers: --prefix conform (every run), --run <id> or --from-report <report.json>"
            : `give one of --prefix, --run, --from-report, not ${given.map((name) => `--${name}`).join(" and ")}`,
        );
      if (args["base-url"] === undefined && args["from-report"] === undefined)
        throw new ConfigError("--base-url is required (or --from-report, which names the target)");
      return checkNumbers(args, ["timeout"]);
    })
    .example(
      "CONFORM_TOKEN=... $0 cleanup --base-url https://api.example.net/v4 --prefix conform --dry-run",
      "List every run's leftovers",
    )
    .example(
      "$0 cleanup --base-url https://api.example.net/v4 --token-env MY_TOKEN --prefix conform-ab12cd",
      "Delete one run's leftovers",
    )
    .example("$0 cleanup --from-report reports/latest/report.json", "Delete the leftovers of the latest run");
}

type CleanupArgs = Awaited<ReturnType<typeof builder>["argv"]> & { exitCode?: number };

/** The token to list and delete with: every operation the cleanup calls needs one, so none at all is refused. */
function readToken(args: CleanupArgs, env: NodeJS.ProcessEnv): string {
  const name = args["token-env"];
  if (name === undefined) {
    const token = args.token ?? (env.CONFORM_TOKEN || undefined);
    if (token === undefined)
      throw new ConfigError(
        "no token given: set CONFORM_TOKEN, or give --token-env VAR (the cleanup lists and deletes with it)",
      );
    return token;
  }
  const token = env[name];
  if (!token) throw new ConfigError(`--token-env ${name}: that environment variable is empty or unset`);
  return token;
}

function readCa(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`--ca ${path} cannot be read: ${(error as Error).message}`);
  }
}

/**
 * What a report.json says of a run's labels and target (any 1.x or 2.x report; before 1.1 the prefix is derived from
 * the run id). A merged report (`conform merge-reports`) gives every shard's prefix: each shard labelled its own.
 */
export function readReportTarget(path: string): { prefixes: string[]; baseUrl: string; embedded: boolean } {
  let report: {
    runId?: unknown;
    labelPrefix?: unknown;
    target?: { baseUrl?: unknown; embedded?: unknown };
    mergedFrom?: unknown;
  };
  try {
    report = JSON.parse(readFileSync(path, "utf8")) as typeof report;
  } catch (error) {
    throw new ConfigError(`--from-report ${path} cannot be read as JSON: ${(error as Error).message}`);
  }
  const prefixOf = (labelPrefix: unknown, runId: unknown) =>
    typeof labelPrefix === "string"
      ? labelPrefix
      : typeof runId === "string"
        ? labelPrefixOf(runConfigDefaults.labelPrefix, runId)
        : undefined;
  const prefix = prefixOf(report.labelPrefix, report.runId);
  const baseUrl = report.target?.baseUrl;
  if (prefix === undefined || typeof baseUrl !== "string")
    throw new ConfigError(`--from-report ${path} is not a conform report (no labelPrefix, runId or target)`);
  // A shard entry before 2.2 has no labelPrefix: its run id gives it (with the default stem).
  const shards = Array.isArray(report.mergedFrom)
    ? report.mergedFrom.flatMap((shard: { labelPrefix?: unknown; runId?: unknown }) => {
        const one = prefixOf(shard?.labelPrefix, shard?.runId);
        return one === undefined ? [] : [one];
      })
    : [];
  return {
    prefixes: [...new Set(shards.length > 0 ? shards : [prefix])],
    baseUrl,
    embedded: report.target?.embedded === true,
  };
}

/** The label prefixes (one, or a merged report's shards') and base URL the arguments name. */
function whoseLeftovers(args: CleanupArgs): { prefixes: string[]; baseUrl: string } {
  const fromReport = args["from-report"];
  if (fromReport !== undefined) {
    const report = readReportTarget(fromReport);
    if (args["base-url"] === undefined && report.embedded)
      throw new ConfigError(
        `--from-report ${fromReport}: that run's target was the embedded reference server, gone with the run (nothing to clean); give --base-url to clean another target`,
      );
    return { prefixes: report.prefixes, baseUrl: args["base-url"] ?? report.baseUrl };
  }
  const prefix =
    args.run !== undefined ? labelPrefixOf(runConfigDefaults.labelPrefix, args.run) : args.prefix;
  return { prefixes: [prefix ?? ""], baseUrl: args["base-url"] ?? "" };
}

export const cleanupCommand: CommandModule<object, CleanupArgs> = {
  command: "cleanup",
  describe: "Delete what runs left behind on a target (by label prefix), children first",
  builder: builder as unknown as CommandModule<object, CleanupArgs>["builder"],
  handler: async (args) => {
    const whose = whoseLeftovers(args);
    const token = readToken(args, process.env);
    const baseUrl = whose.baseUrl.replace(/\/$/, "");
    if (!/^https?:\/\/[^/]/.test(baseUrl))
      throw new ConfigError(`--base-url ${baseUrl} is not an http(s) URL`);
    const write = (line: string) => process.stdout.write(`${line}\n`);
    const found: Leftover[] = [];
    const deleted: Leftover[] = [];
    const failed: string[] = [];
    for (const prefix of whose.prefixes) {
      write(
        `conform cleanup → ${baseUrl}  prefix ${prefix}${args["dry-run"] ? "  (dry run: nothing is deleted)" : ""}`,
      );
      const { cleanLeftovers } = await import("../../runner/leftovers.ts");
      const report = await cleanLeftovers({
        baseUrl,
        token,
        prefix,
        dryRun: args["dry-run"],
        ca: readCa(args.ca),
        insecure: args.insecure,
        timeoutMs: args.timeout,
        onProgress: (line) => write(`  ${line}`),
      });
      found.push(...report.found);
      deleted.push(...report.deleted);
      failed.push(...report.failed);
    }
    const report = { found, deleted, failed };
    const summary = args["dry-run"]
      ? `${report.found.length} leftover${report.found.length === 1 ? "" : "s"} found`
      : `${report.deleted.length} of ${report.found.length} leftover${report.found.length === 1 ? "" : "s"} deleted`;
    write(report.failed.length > 0 ? `${summary}; ${report.failed.length} problem(s):` : summary);
    for (const problem of report.failed) write(`  ${problem}`);
    args.exitCode = report.failed.length > 0 ? ExitCode.checkFailed : ExitCode.ok;
  },
};
