/**
 * `conform cleanup`: finds what runs left behind on a target (resources whose label starts with the run prefix, in
 * every collection the description lists and can delete, with what lives under them) and deletes it, children
 * first, through the description's deletes (`--spec`, default the bundled one); `--dry-run` only lists. The prefix is given as is (`--prefix`), from a run id (`--run`) or from
 * a run's report.json (`--from-report`, checked as untrusted: its target must be the `--base-url` given, its prefixes
 * one run's shape; a merged report gives every shard's prefix, each cleaned in turn). Exit 0 when nothing is left (or the dry run listed), 1 when
 * something could not be listed or deleted, 2 when the cleanup could not run (bad arguments, no token, target
 * unreachable, token refused).
 * @module
 */
import type { Argv } from "yargs";
import { ConfigError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { inputLimits, readInputFile } from "../../core/input-file.ts";
import { addedHeadersOf } from "../../runner/added-headers.ts";
import { runConfigDefaults } from "../../runner/config.ts";
import { labelPrefixOf } from "../../runner/labels.ts";
import type { Leftover } from "../../runner/leftovers.ts";
import { type ArgsOf, defineCommand } from "../command-module.ts";
import { checkNumbers, plainNumber } from "../options.ts";

/**
 * An empty `--prefix`, or a `--run` with no letter or digit (its prefix would be the stem alone, `conform-`), would
 * take every run's leftovers for one run's: refused, saying how to ask for that on purpose.
 */
function refuseEveryRun(args: { prefix?: string | undefined; run?: string | undefined }): void {
  if (args.prefix !== undefined && args.prefix.trim() === "")
    throw new ConfigError(
      "--prefix is empty: give a label prefix (conform: every run's leftovers; conform-ab12cd: one run's)",
    );
  if (args.run !== undefined && labelPrefixOf(runConfigDefaults.labelPrefix, args.run).endsWith("-"))
    throw new ConfigError(
      `--run ${JSON.stringify(args.run)} names no run (no letter or digit) and would match every run's leftovers: give the run id conform printed (20261123T021500Z-3fa0), or --prefix conform for every run's`,
    );
}

function builder(yargs: Argv) {
  return yargs
    .option("base-url", {
      type: "string",
      describe: "The API's base URL, ending in /v4 (with --from-report: the report's target, to confirm it)",
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
    .option("spec", {
      type: "string",
      describe: "OpenAPI description whose collections are searched (default: the bundled one)",
    })
    .option("dry-run", {
      type: "boolean",
      default: false,
      describe: "List what would be deleted; delete nothing",
    })
    .option("header", {
      alias: "H",
      type: "string",
      array: true,
      describe: 'Add "Name: value" to every request (as conform run -H); a secret-named one is never printed',
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
      refuseEveryRun(args);
      if (args["base-url"] === undefined && args["from-report"] === undefined)
        throw new ConfigError("--base-url is required");
      addedHeadersOf((args.header ?? []).map(String));
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
    .example(
      "$0 cleanup --from-report reports/latest/report.json --base-url https://api.example.net/v4",
      "Delete the leftovers of the latest run (its target confirmed)",
    );
}

type CleanupArgs = ArgsOf<typeof builder>;

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
    return readInputFile(path, inputLimits.pem);
  } catch (error) {
    throw new ConfigError(`--ca ${path} ${(error as Error).message}`);
  }
}

/** The shape of one run's label prefix (`labelPrefixOf`): the only prefix a report file may name for deletion. */
const runPrefixShape = /^conform-[a-z0-9]{6}$/;

/** The most shards a merged report may name (far above any CI matrix). */
const maxShards = 1000;

/** A string field of an untrusted report: its value, or a one-line refusal naming it. */
function textField(value: unknown, name: string, path: string, maxLength: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value.length === 0 || value.length > maxLength)
    throw new ConfigError(
      `--from-report ${path}: ${name} is not a string of 1 to ${maxLength} characters; nothing was deleted`,
    );
  return value;
}

/** A run's label prefix as a report names it (or as its run id gives it), refused unless a run's shape. */
function runPrefixOf(entry: { labelPrefix?: unknown; runId?: unknown }, where: string, path: string) {
  const labelPrefix = textField(entry.labelPrefix, `${where}labelPrefix`, path, 64);
  const runId = textField(entry.runId, `${where}runId`, path, 200);
  const prefix =
    labelPrefix ?? (runId === undefined ? undefined : labelPrefixOf(runConfigDefaults.labelPrefix, runId));
  if (prefix !== undefined && !runPrefixShape.test(prefix))
    throw new ConfigError(
      `--from-report ${path}: ${where}labelPrefix ${JSON.stringify(prefix)} is not one run's prefix (conform- and 6 letters or digits); nothing was deleted (give --prefix to clean by another prefix)`,
    );
  return prefix;
}

/**
 * What a report.json says of a run's labels and target (any 1.x or 2.x report; before 1.1 the prefix is derived from
 * the run id). A merged report (`conform merge-reports`) gives every shard's prefix: each shard labelled its own.
 * The file is untrusted: bounded, each field read checked for its type and size, and a prefix taken only when it has
 * a run's shape (`conform-ab12cd`), so no report can widen the cleanup to someone else's resources.
 */
export function readReportTarget(path: string): { prefixes: string[]; baseUrl: string; embedded: boolean } {
  let report: {
    runId?: unknown;
    labelPrefix?: unknown;
    target?: { baseUrl?: unknown; embedded?: unknown };
    mergedFrom?: unknown;
  };
  try {
    report = JSON.parse(readInputFile(path, inputLimits.report)) as typeof report;
  } catch (error) {
    throw new ConfigError(`--from-report ${path} cannot be read as JSON: ${(error as Error).message}`);
  }
  if (typeof report !== "object" || report === null || Array.isArray(report))
    throw new ConfigError(`--from-report ${path} is not a conform report (not a JSON object)`);
  const prefix = runPrefixOf(report, "", path);
  const target = typeof report.target === "object" && report.target !== null ? report.target : {};
  const baseUrl = textField(target.baseUrl, "target.baseUrl", path, 2048);
  if (prefix === undefined || baseUrl === undefined)
    throw new ConfigError(`--from-report ${path} is not a conform report (no labelPrefix, runId or target)`);
  const merged = report.mergedFrom;
  if (merged !== undefined && merged !== null && (!Array.isArray(merged) || merged.length > maxShards))
    throw new ConfigError(`--from-report ${path}: mergedFrom is not a list of at most ${maxShards} shards`);
  // A shard entry before 2.2 has no labelPrefix: its run id gives it (with the default stem).
  const shards = (Array.isArray(merged) ? merged : []).flatMap((shard: unknown, index) => {
    if (typeof shard !== "object" || shard === null)
      throw new ConfigError(`--from-report ${path}: mergedFrom[${index}] is not an object`);
    const one = runPrefixOf(shard, `mergedFrom[${index}].`, path);
    return one === undefined ? [] : [one];
  });
  return {
    prefixes: [...new Set(shards.length > 0 ? shards : [prefix])],
    baseUrl,
    embedded: target.embedded === true,
  };
}

/** A URL's origin, or undefined when it is not an http(s) URL. */
function originOf(url: string): string | undefined {
  const parsed = URL.parse(url);
  return parsed && /^https?:$/.test(parsed.protocol) ? parsed.origin : undefined;
}

/**
 * The label prefixes (one, or a merged report's shards') and base URL the arguments name. The token goes only to the
 * base URL given on the command line: a report names its target, but a report is a file anyone may have written, so
 * `--from-report` needs `--base-url` too, of the report's own origin (unless the report's target was the embedded
 * server, gone with its run).
 */
function whoseLeftovers(args: CleanupArgs): { prefixes: string[]; baseUrl: string } {
  const fromReport = args["from-report"];
  if (fromReport !== undefined) {
    const report = readReportTarget(fromReport);
    const given = args["base-url"];
    if (given === undefined)
      throw new ConfigError(
        report.embedded
          ? `--from-report ${fromReport}: that run's target was the embedded reference server, gone with the run (nothing to clean); give --base-url to clean another target`
          : `--from-report ${fromReport}: the token goes only to a target you name: give --base-url ${JSON.stringify(report.baseUrl)} (the report's target) to confirm it`,
      );
    if (!report.embedded && originOf(given) !== undefined && originOf(given) !== originOf(report.baseUrl))
      throw new ConfigError(
        `--from-report ${fromReport} is a run against ${JSON.stringify(report.baseUrl)}, not --base-url ${given}: nothing was sent (give the report of a run against this target, or --prefix)`,
      );
    return { prefixes: report.prefixes, baseUrl: given };
  }
  const prefix =
    args.run !== undefined ? labelPrefixOf(runConfigDefaults.labelPrefix, args.run) : args.prefix;
  return { prefixes: [prefix ?? ""], baseUrl: args["base-url"] ?? "" };
}

export const cleanupCommand = defineCommand({
  command: "cleanup",
  describe: "Delete what runs left behind on a target (by label prefix), children first",
  builder,
  handler: async (args) => {
    const whose = whoseLeftovers(args);
    const token = readToken(args, process.env);
    const baseUrl = whose.baseUrl.replace(/\/$/, "");
    if (!/^https?:\/\/[^/]/.test(baseUrl))
      throw new ConfigError(`--base-url ${baseUrl} is not an http(s) URL`);
    const write = (line: string) => process.stdout.write(`${line}\n`);
    const { loadSpec } = await import("../../spec/load.ts");
    const { bundledSpecPath } = await import("../../spec/bundled.ts");
    const spec = await loadSpec(args.spec ?? bundledSpecPath);
    const found: Leftover[] = [];
    const deleted: Leftover[] = [];
    const failed: string[] = [];
    for (const prefix of whose.prefixes) {
      write(
        `conform cleanup → ${baseUrl}  prefix ${prefix}${args["dry-run"] ? "  (dry run: nothing is deleted)" : ""}`,
      );
      const { cleanLeftovers } = await import("../../runner/leftovers.ts");
      const report = await cleanLeftovers({
        spec,
        baseUrl,
        token,
        prefix,
        dryRun: args["dry-run"],
        ca: readCa(args.ca),
        insecure: args.insecure,
        timeoutMs: args.timeout,
        headers: addedHeadersOf((args.header ?? []).map(String)),
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
    return report.failed.length > 0 ? ExitCode.checkFailed : ExitCode.ok;
  },
});
