/**
 * `conform cleanup`: finds what runs left behind on a target (resources whose label starts with the run prefix:
 * load balancers with their profiles and nodes, instances, OAuth clients, personal access tokens) and deletes
 * it, children first; `--dry-run` only lists. Exit 0 when nothing is left (or the dry run listed), 1 when
 * something could not be listed or deleted, 2 when the cleanup could not run (bad arguments, target unreachable,
 * token refused).
 * @module
 */
import { readFileSync } from "node:fs";
import type { Argv, CommandModule } from "yargs";
import { ConfigError } from "../../core/errors.ts";
import { ExitCode } from "../../core/exit-codes.ts";
import { cleanLeftovers } from "../../runner/leftovers.ts";
import { checkNumbers } from "../options.ts";

function builder(yargs: Argv) {
  return yargs
    .option("base-url", {
      type: "string",
      demandOption: true,
      describe: "The API's base URL, ending in /v4",
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
      demandOption: true,
      describe: "Label prefix of the runs to clean up: conform (every run), or conform-<run> (one run)",
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
    .option("timeout", { type: "number", default: 30_000, describe: "Per-request timeout, in ms" })
    .check((args) => {
      if (args.token !== undefined && args["token-env"] !== undefined)
        throw new ConfigError("give --token or --token-env, not both");
      if (args.ca !== undefined && args.insecure) throw new ConfigError("give --ca or --insecure, not both");
      return checkNumbers(args, ["timeout"]);
    })
    .example(
      "CONFORM_TOKEN=... $0 cleanup --base-url https://api.example.net/v4 --prefix conform --dry-run",
      "List every run's leftovers",
    )
    .example(
      "$0 cleanup --base-url https://api.example.net/v4 --token-env MY_TOKEN --prefix conform-ab12cd",
      "Delete one run's leftovers",
    );
}

type CleanupArgs = Awaited<ReturnType<typeof builder>["argv"]> & { exitCode?: number };

function readToken(args: CleanupArgs, env: NodeJS.ProcessEnv): string | undefined {
  const name = args["token-env"];
  if (name === undefined) return args.token ?? (env.CONFORM_TOKEN || undefined);
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

export const cleanupCommand: CommandModule<object, CleanupArgs> = {
  command: "cleanup",
  describe: "Delete what runs left behind on a target (by label prefix), children first",
  builder: builder as unknown as CommandModule<object, CleanupArgs>["builder"],
  handler: async (args) => {
    const baseUrl = args["base-url"].replace(/\/$/, "");
    if (!/^https?:\/\/[^/]/.test(baseUrl))
      throw new ConfigError(`--base-url ${baseUrl} is not an http(s) URL`);
    const write = (line: string) => process.stdout.write(`${line}\n`);
    write(
      `conform cleanup → ${baseUrl}  prefix ${args.prefix}${args["dry-run"] ? "  (dry run: nothing is deleted)" : ""}`,
    );
    const report = await cleanLeftovers({
      baseUrl,
      token: readToken(args, process.env),
      prefix: args.prefix,
      dryRun: args["dry-run"],
      ca: readCa(args.ca),
      insecure: args.insecure,
      timeoutMs: args.timeout,
      onProgress: (line) => write(`  ${line}`),
    });
    const summary = args["dry-run"]
      ? `${report.found.length} leftover${report.found.length === 1 ? "" : "s"} found`
      : `${report.deleted.length} of ${report.found.length} leftover${report.found.length === 1 ? "" : "s"} deleted`;
    write(report.failed.length > 0 ? `${summary}; ${report.failed.length} problem(s):` : summary);
    for (const problem of report.failed) write(`  ${problem}`);
    args.exitCode = report.failed.length > 0 ? ExitCode.checkFailed : ExitCode.ok;
  },
};
