/**
 * `conform run`: runs the suites against a target (the embedded reference server when no --base-url is given)
 * and writes reports. The handler maps arguments to a RunConfig, calls the runner, returns the exit code.
 * @module
 */
import { isAbsolute, join, relative, sep } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { ConfigError } from "../../core/errors.ts";
import type { RunFinished } from "../../core/events.ts";
import { createReporters } from "../../reporters/index.ts";
import { parseRatePolicy, type RunConfig, runConfigDefaults } from "../../runner/config.ts";
import { LabelMaker } from "../../runner/labels.ts";
import { CleanupLedger } from "../../runner/ledger.ts";
import { listenFlagsProblem, withListenFlags } from "../../runner/listen-drivers/index.ts";
import { type RunOptions, runConformance } from "../../runner/run.ts";
import type { SuiteHooks } from "../../runner/suite-api.ts";
import { bundledSpecPath } from "../../spec/bundled.ts";
import { handleInterruptions } from "../interruption.ts";
import { checkNumbers, listOption, newRunId, readConfigFile } from "../options.ts";
import { toolVersion } from "../version.ts";

const groups = { target: "Target:", selection: "Selection:", behaviour: "Run:", output: "Reports:" };

/** Every option of `conform run` and its checks, without examples: `conform fuzz` reuses them. */
export function runOptions(yargs: Argv) {
  return yargs
    .config(
      "config",
      "A JSON or YAML file holding any of these options (command-line flags win)",
      readConfigFile,
    )
    .option("base-url", {
      type: "string",
      group: groups.target,
      describe: "The API's base URL, ending in /v4 (default: start the embedded reference server)",
    })
    .option("auth-url", {
      type: "string",
      group: groups.target,
      describe: "The login server (default: the base URL's origin)",
    })
    .option("token", {
      type: "string",
      group: groups.target,
      describe: "Bearer token for the target (prefer --token-env: flags show in process lists)",
    })
    .option("token-env", {
      type: "string",
      group: groups.target,
      describe: "Read the token from this environment variable (default CONFORM_TOKEN)",
    })
    .option("ca", {
      type: "string",
      group: groups.target,
      describe: "PEM file of a CA to trust for the target",
    })
    .option("insecure", {
      type: "boolean",
      default: false,
      group: groups.target,
      describe: "Do not verify the target's TLS certificate",
    })
    .option("spec", {
      type: "string",
      group: groups.target,
      describe: "OpenAPI description to check against (default: the bundled one)",
    })
    .option("suite", {
      type: "string",
      array: true,
      group: groups.selection,
      describe: "Run only these suites (ids)",
    })
    .option("suite-path", {
      type: "string",
      array: true,
      group: groups.selection,
      describe: "More *.suite.ts files or folders to load",
    })
    .option("tag", {
      type: "string",
      array: true,
      group: groups.selection,
      describe: "Run only suites with one of these tags",
    })
    .option("exclude-tag", {
      type: "string",
      array: true,
      group: groups.selection,
      describe: "Leave out suites with these tags (e.g. costly, slow)",
    })
    .option("check", {
      type: "string",
      array: true,
      group: groups.selection,
      describe: "Apply only these checks to every exchange",
    })
    .option("exclude-check", {
      type: "string",
      array: true,
      group: groups.selection,
      describe: "Do not apply these checks",
    })
    .option("allow-writes", {
      type: "boolean",
      default: false,
      group: groups.selection,
      describe: "Let suites tagged `writes` create and delete resources on a real target",
    })
    .option("seed", {
      type: "number",
      group: groups.behaviour,
      describe: "Seed for generated cases (default: random, printed in the report)",
    })
    .option("concurrency", {
      type: "number",
      default: runConfigDefaults.concurrency,
      group: groups.behaviour,
      describe: "Suites run at once",
    })
    .option("rate-limit", {
      type: "string",
      default: "auto",
      group: groups.behaviour,
      describe: "auto (follow X-RateLimit-* headers), or a budget such as 5/s or 100/m",
    })
    .option("timeout", {
      type: "number",
      default: runConfigDefaults.timeoutMs,
      group: groups.behaviour,
      describe: "Per-request timeout (connect, headers, body), in ms",
    })
    .option("max-failures", {
      type: "number",
      default: 0,
      group: groups.behaviour,
      describe: "Stop starting cases after this many failures (0: never)",
    })
    .option("report-dir", {
      type: "string",
      default: runConfigDefaults.reportDir,
      group: groups.output,
      describe: "Reports go to <dir>/<run-id>/ and <dir>/latest/",
    })
    .option("reporter", {
      type: "string",
      array: true,
      group: groups.output,
      describe: "console, json, junit, html, markdown (comma-separated; default: all)",
    })
    .option("listen-driver", {
      type: "string",
      choices: ["reference", "command", "none"],
      group: groups.behaviour,
      describe:
        "How workflow suites make a node listen: reference (loopback reference server; default there), command (real clouds), none (skip those steps)",
    })
    .option("listen-command", {
      type: "string",
      group: groups.behaviour,
      describe:
        "Command run while a node listens, e.g. 'ssh -tt root@{address} \"nc -lk {port}\"' ({address}, {port}, {label})",
    })
    .option("data-plane", {
      type: "boolean",
      default: false,
      group: groups.behaviour,
      describe:
        "Let cases tagged data-plane connect to the target's load balancers (their ports, TLS); always on for the embedded server",
    })
    .option("suite-options", {
      type: "string",
      hidden: true,
      describe: "Settings for suites (config file only)",
    })
    .check((args) => {
      if (args.token !== undefined && args["token-env"] !== undefined)
        throw new ConfigError("give --token or --token-env, not both");
      if (args.ca !== undefined && args.insecure) throw new ConfigError("give --ca or --insecure, not both");
      if (parseRatePolicy(String(args["rate-limit"])) === undefined)
        throw new ConfigError(`--rate-limit ${args["rate-limit"]}: use auto, N/s or N/m`);
      const listenProblem = listenFlagsProblem(
        args["listen-driver"],
        args["listen-command"],
        args["base-url"],
      );
      if (listenProblem) throw new ConfigError(listenProblem);
      return checkNumbers(args, ["seed", "concurrency", "timeout", "max-failures"]);
    });
}

function builder(yargs: Argv) {
  return runOptions(yargs)
    .example("$0 run", "Every suite against the embedded reference server")
    .example(
      "CONFORM_TOKEN=... $0 run --base-url https://api.example.net/v4 --tag read-only",
      "Read-only suites against a real target",
    )
    .example("$0 run --suite filters --seed 42 --reporter console,json", "Replay a generated run");
}

export type RunArgs = Awaited<ReturnType<typeof builder>["argv"]> & { exitCode?: number };

/** Maps parsed arguments to a RunConfig (pure, tested on its own). */
export function toRunConfig(args: RunArgs, env: NodeJS.ProcessEnv = process.env): RunConfig {
  const tokenEnv = args["token-env"];
  let token = args.token;
  if (tokenEnv !== undefined) {
    token = env[tokenEnv];
    if (!token) throw new ConfigError(`--token-env ${tokenEnv}: that environment variable is empty or unset`);
  }
  token ??= args["base-url"] !== undefined ? env.CONFORM_TOKEN || undefined : undefined;
  const suiteOptions = (args as { "suite-options"?: unknown })["suite-options"];
  return {
    ...runConfigDefaults,
    baseUrl: args["base-url"],
    authUrl: args["auth-url"],
    token,
    specPath: args.spec ?? bundledSpecPath,
    suitePaths: listOption(args["suite-path"]),
    suites: listOption(args.suite),
    tags: listOption(args.tag),
    excludeTags: listOption(args["exclude-tag"]),
    checks: listOption(args.check),
    excludeChecks: listOption(args["exclude-check"]),
    seed: args.seed ?? Math.floor(Math.random() * 2 ** 31),
    concurrency: args.concurrency,
    rate: parseRatePolicy(String(args["rate-limit"]))!,
    timeoutMs: args.timeout,
    caFile: args.ca,
    insecure: args.insecure,
    reportDir: args["report-dir"],
    reporters: args.reporter ? listOption(args.reporter) : [...runConfigDefaults.reporters],
    allowWrites: args["allow-writes"],
    maxFailures: args["max-failures"],
    suiteOptions: {
      ...withListenFlags(
        typeof suiteOptions === "object" && suiteOptions !== null
          ? (suiteOptions as Record<string, unknown>)
          : {},
        args["listen-driver"],
        args["listen-command"],
      ),
      ...(args["data-plane"] ? { dataPlane: true } : {}),
    },
  };
}

/** NO_COLOR (https://no-color.org) turns colour off, FORCE_COLOR on; otherwise colour follows the terminal. */
export function colorFromEnv(env: NodeJS.ProcessEnv): { color?: boolean } {
  if (env.NO_COLOR) return { color: false };
  if (env.FORCE_COLOR !== undefined) return { color: env.FORCE_COLOR !== "0" };
  return {};
}

/**
 * Runs with the reporters the config names and SIGINT and SIGTERM handled (`../interruption.ts`: a first signal
 * interrupts and cleans up, exit 130 or 143; a second quits at once, saying what is left); answers the exit code.
 * `conform run` and `conform fuzz` share it.
 */
export async function runWithReporters(
  config: RunConfig,
  start: (options: RunOptions) => Promise<RunFinished>,
  hooks?: SuiteHooks,
): Promise<number> {
  const runId = newRunId();
  const outputDir = join(config.reportDir, runId);
  const reporters = createReporters(config.reporters, {
    outputDir,
    stream: process.stdout,
    isTTY: Boolean(process.stdout.isTTY),
    ci: Boolean(process.env.CI),
    ...colorFromEnv(process.env),
  });
  const controller = new AbortController();
  const ledger = new CleanupLedger();
  const stopHandling = handleInterruptions({
    controller,
    left: {
      baseUrl: config.baseUrl,
      prefix: new LabelMaker(config.labelPrefix, runId).stem,
      caFile: config.caFile,
      insecure: config.insecure,
    },
    entries: () => ledger.left(),
    reporters,
    write: (text) => process.stderr.write(text),
    exit: (code) => process.exit(code),
  });
  try {
    const finished = await start({
      runId,
      listeners: [(event) => reporters.emit(event)],
      signal: controller.signal,
      ledger,
      toolVersion,
      ...(hooks ? { hooks } : {}),
    });
    return finished.exitCode;
  } finally {
    try {
      const latest = await reporters.close();
      if (reporters.files.length > 0)
        process.stdout.write(`${reportPathsLine(outputDir, reporters.files, latest)}\n`);
    } finally {
      // Only now: a second signal while the reports are written still quits at once with what it can write.
      stopHandling();
    }
  }
}

/** Where the reports went: `reports: reports/<run>/{report.json, ...} (also in reports/latest/)`. */
export function reportPathsLine(
  outputDir: string,
  files: readonly string[],
  latest: string | undefined,
): string {
  const shown = (path: string) => {
    const fromHere = relative(process.cwd(), path);
    return fromHere.startsWith("..") || isAbsolute(fromHere) ? path : fromHere;
  };
  const mirror = latest ? ` (also in ${shown(latest)}${sep})` : "";
  return `reports: ${files.map((file) => shown(join(outputDir, file))).join(", ")}${mirror}`;
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: "run",
  describe: "Run the conformance and workflow suites against a target and write reports",
  builder: builder as unknown as CommandModule<object, RunArgs>["builder"],
  handler: async (args) => {
    const config = toRunConfig(args);
    args.exitCode = await runWithReporters(config, (options) => runConformance(config, options));
  },
};
