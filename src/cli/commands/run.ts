import type { Argv, CommandModule } from "yargs";
import { ConfigError } from "../../core/errors.ts";
import { addedHeadersOf } from "../../runner/added-headers.ts";
import { parseRatePolicy, type RunConfig, runConfigDefaults } from "../../runner/config.ts";
import { parseFailUnder } from "../../runner/coverage-summary.ts";
import { baselineOf, durationsOf } from "../../runner/earlier-report.ts";
import { listenFlagsProblem, withListenFlags } from "../../runner/listen-drivers/index.ts";
import { parseShard } from "../../runner/shard.ts";
import { bundledSpecPath } from "../../spec/bundled.ts";
import {
  checkNumbers,
  configFileNames,
  foundConfigFile,
  listOption,
  plainNumber,
  readConfigFile,
} from "../options.ts";

const groups = {
  target: "Target:",
  selection: "Selection:",
  behaviour: "Run:",
  bounds: "Bounds:",
  output: "Reports:",
  ci: "CI:",
};

/** Every option of `conform run` and its checks, without examples: `conform fuzz` reuses them. */
export function runOptions(yargs: Argv) {
  return (
    yargs
      .config(
        "config",
        `A JSON or YAML file holding any of these options (command-line flags win; default: ${configFileNames.join(", ")} in the current folder, if there)`,
        readConfigFile,
      )
      // yargs reads the config option's default as a file too: the current folder's, when it has one.
      .default("config", foundConfigFile(), "")
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
      .option("header", {
        alias: "H",
        type: "string",
        array: true,
        group: groups.target,
        describe:
          'Add "Name: value" to every request (repeatable); a name with key, token, secret... is never recorded; not Authorization',
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
        describe:
          "Leave out suites and cases with these tags (e.g. costly, writes, data-plane); an unknown tag is refused",
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
      .option("operation", {
        type: "string",
        array: true,
        group: groups.selection,
        describe:
          "Send requests only to these operations (operationIds); a case reaching another is skipped, saying so",
      })
      .option("exclude-operation", {
        type: "string",
        array: true,
        group: groups.selection,
        describe:
          "Send no request to these operations (the end-of-run cleanup still deletes what the run made)",
      })
      .option("method", {
        type: "string",
        array: true,
        group: groups.selection,
        describe: "Only operations of these HTTP methods (e.g. GET)",
      })
      // Not --path: that is the fast-check path of a replayed property (replay lines carry it).
      .option("path-pattern", {
        type: "string",
        array: true,
        group: groups.selection,
        describe: "Only operations whose path template matches (* any characters: /compute/instances*)",
      })
      .option("list", {
        type: "boolean",
        default: false,
        group: groups.selection,
        describe: "Print the selection (suites, cases, checks, operations) and exit without running",
      })
      .option("allow-writes", {
        type: "boolean",
        default: false,
        group: groups.selection,
        describe: "Let suites tagged `writes` create and delete resources on a real target",
      })
      .option("seed", {
        coerce: plainNumber,
        group: groups.behaviour,
        describe: "Seed for generated cases (default: random, printed in the report)",
      })
      .option("concurrency", {
        coerce: plainNumber,
        default: runConfigDefaults.concurrency,
        group: groups.behaviour,
        describe: "Suites run at once",
      })
      .option("rate-limit", {
        type: "string",
        default: "auto",
        group: groups.behaviour,
        describe: "auto (follow X-RateLimit-* headers), or a budget such as 5/s, 100/m or 2000/h",
      })
      .option("timeout", {
        coerce: plainNumber,
        default: runConfigDefaults.timeoutMs,
        group: groups.behaviour,
        describe: "Per-request timeout (connect, headers, body), in ms",
      })
      .option("max-failures", {
        coerce: plainNumber,
        default: 0,
        group: groups.behaviour,
        describe: "Stop starting cases after this many failures (0: never)",
      })
      .option("warnings-as-errors", {
        type: "boolean",
        default: false,
        group: groups.behaviour,
        describe:
          "Exit 1 when the run ends with warnings (cases left out, answers mostly 401/403/404, long rate-limit waits, checks that judged nothing)",
      })
      .option("fail-under", {
        type: "string",
        group: groups.behaviour,
        describe:
          "Exit 1 when fewer operations than this share (percent, e.g. 80) were exercised, saying so in one line",
      })
      .option("max-response-bytes", {
        coerce: plainNumber,
        default: runConfigDefaults.maxResponseBytes,
        group: groups.bounds,
        describe:
          'A body above this, as received or decoded (gzip), is not read: the exchange fails "answer too large"',
      })
      .option("request-deadline", {
        coerce: plainNumber,
        default: runConfigDefaults.requestDeadlineMs,
        group: groups.bounds,
        describe: "Per request, from the answer's headers to its last byte, in ms (a trickling body ends)",
      })
      .option("max-wait", {
        coerce: plainNumber,
        default: runConfigDefaults.maxWaitMs,
        group: groups.bounds,
        describe:
          "Longest wait for a Retry-After or a spent rate-limit window, in ms; beyond it the case errors",
      })
      .option("max-time", {
        coerce: plainNumber,
        group: groups.bounds,
        describe:
          "The whole run's time limit, in ms (default: none); reaching it ends the run like Ctrl-C (cleanup, reports), exit 2",
      })
      .option("kept-body-bytes", {
        coerce: plainNumber,
        default: runConfigDefaults.keptBodyBytes,
        group: groups.bounds,
        describe: "Body kept with each failing exchange in the reports (the rest is cut, saying so)",
      })
      .option("kept-report-bytes", {
        coerce: plainNumber,
        default: runConfigDefaults.keptReportBytes,
        group: groups.bounds,
        describe: "Bodies kept over all failing exchanges of a run; past it, failing exchanges keep no body",
      })
      .option("color", {
        type: "boolean",
        group: groups.output,
        describe:
          "Colour the console (default: on a terminal, unless NO_COLOR is set); --no-color turns it off",
      })
      .option("har", {
        type: "string",
        group: groups.output,
        describe: "Also write every exchange to this file as HAR 1.2 (secrets redacted as in the reports)",
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
        describe:
          "console, json, junit, html, markdown, github, ndjson (comma-separated; default: the first five)",
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
      .option("shard", {
        type: "string",
        group: groups.ci,
        describe:
          "Run shard i of n of the selected suites (e.g. 1/4): the same split on every machine; merge with `conform merge-reports`",
      })
      .option("durations", {
        type: "string",
        group: groups.ci,
        describe: "An earlier report.json whose suite durations balance the shards (default: by case count)",
      })
      .option("baseline", {
        type: "string",
        group: groups.ci,
        describe:
          "An earlier report.json of known failures: its failure groups do not fail the exit code, new ones do, and those gone are reported fixed",
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
        if (args.ca !== undefined && args.insecure)
          throw new ConfigError("give --ca or --insecure, not both");
        if (parseRatePolicy(String(args["rate-limit"])) === undefined)
          throw new ConfigError(`--rate-limit ${args["rate-limit"]}: use auto, N/s, N/m or N/h`);
        const listenProblem = listenFlagsProblem(
          args["listen-driver"],
          args["listen-command"],
          args["base-url"],
        );
        if (listenProblem) throw new ConfigError(listenProblem);
        if (args.token !== undefined && String(args.token).trim() === "")
          throw new ConfigError("--token is empty: give the target's token, or leave --token out");
        for (const option of ["base-url", "auth-url"] as const) {
          const problem = credentialsProblem(option, args[option]);
          if (problem) throw new ConfigError(problem);
        }
        if (args.shard !== undefined) parseShard(String(args.shard));
        if (args["fail-under"] !== undefined) parseFailUnder(args["fail-under"]);
        if (args["fail-under"] !== undefined && args.shard !== undefined)
          throw new ConfigError(
            "--fail-under measures the whole run, and a shard holds a part of it: give --fail-under to conform merge-reports",
          );
        addedHeadersOf(headerTexts(args.header));
        if (args.durations !== undefined && args.shard === undefined)
          throw new ConfigError("--durations balances shards: give it with --shard i/n");
        return checkNumbers(args, [
          "seed",
          "concurrency",
          "timeout",
          "max-failures",
          "max-response-bytes",
          "request-deadline",
          "max-wait",
          "max-time",
          "kept-body-bytes",
          "kept-report-bytes",
        ]);
      })
  );
}

function builder(yargs: Argv) {
  return runOptions(yargs)
    .example("$0 run", "Every suite against the embedded reference server")
    .example(
      "CONFORM_TOKEN=... $0 run --base-url https://api.example.net/v4 --tag read-only",
      "Read-only suites against a real target",
    )
    .example("$0 run --suite filters --seed 42 --reporter console,json", "Replay a generated run")
    .example("$0 run -H 'X-Tenant: acme' -H 'X-Api-Key: ...'", "Add headers to every request")
    .example("$0 run --operation getRegions --list", "What a selection would run");
}

export type RunArgs = Awaited<ReturnType<typeof builder>["argv"]> & { exitCode?: number };

/**
 * Maps parsed arguments to a RunConfig. Async: the reader of earlier reports (ajv and the report's schema) loads
 * only when --baseline or --durations is given, so `--help` starts without it.
 */
export async function toRunConfig(args: RunArgs, env: NodeJS.ProcessEnv = process.env): Promise<RunConfig> {
  const { readReportFile } =
    args.durations === undefined && args.baseline === undefined
      ? { readReportFile: undefined }
      : await import("../../reporters/report-file.ts");
  const tokenEnv = args["token-env"];
  let token = args.token;
  if (tokenEnv !== undefined) {
    token = env[tokenEnv];
    if (!token) throw new ConfigError(`--token-env ${tokenEnv}: that environment variable is empty or unset`);
  }
  if (token === undefined && args["base-url"] !== undefined && env.CONFORM_TOKEN !== undefined) {
    // Set but empty (an unset CI secret): running unauthenticated would blame the target for the toolkit's mistake.
    if (env.CONFORM_TOKEN.trim() === "")
      throw new ConfigError("CONFORM_TOKEN is set but empty: give the target's token, or unset it");
    token = env.CONFORM_TOKEN;
  }
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
    operations: listOption(args.operation),
    excludeOperations: listOption(args["exclude-operation"]),
    methods: listOption(args.method),
    paths: listOption(args["path-pattern"]),
    seed: args.seed ?? Math.floor(Math.random() * 2 ** 31),
    concurrency: args.concurrency,
    rate: parseRatePolicy(String(args["rate-limit"]))!,
    timeoutMs: args.timeout,
    headers: addedHeadersOf(headerTexts(args.header)),
    caFile: args.ca,
    insecure: args.insecure,
    reportDir: args["report-dir"],
    harPath: args.har,
    reporters: args.reporter ? listOption(args.reporter) : [...runConfigDefaults.reporters],
    color: args.color,
    allowWrites: args["allow-writes"],
    maxFailures: args["max-failures"],
    warningsAsErrors: args["warnings-as-errors"],
    failUnder: args["fail-under"] === undefined ? undefined : parseFailUnder(args["fail-under"]),
    maxResponseBytes: args["max-response-bytes"],
    requestDeadlineMs: args["request-deadline"],
    maxWaitMs: args["max-wait"],
    maxTimeMs: args["max-time"],
    keptBodyBytes: args["kept-body-bytes"],
    keptReportBytes: args["kept-report-bytes"],
    shard: args.shard === undefined ? undefined : parseShard(String(args.shard)),
    // Earlier reports are untrusted files: checked against the report's schema before a field is used.
    durations:
      args.durations === undefined
        ? undefined
        : durationsOf(readReportFile!(args.durations, `--durations ${args.durations}`)),
    baseline:
      args.baseline === undefined
        ? undefined
        : baselineOf(readReportFile!(args.baseline, `--baseline ${args.baseline}`), args.baseline),
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

/** Every `--header` given (a config file's `header` may be one text or a list); a header's value may hold commas. */
function headerTexts(value: unknown): string[] {
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);
}

/**
 * Credentials in a URL option (`https://user:pass@host/v4`) would be printed and written to every report: refused,
 * without repeating them. Undefined when the URL holds none (or is not a URL: the target check says that).
 */
export function credentialsProblem(option: string, value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username === "" && url.password === "") return undefined;
  return `--${option} holds credentials (user:password@): refused, they would be printed and written to every report; give the target's token with --token-env`;
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: "run",
  describe: "Run the conformance and workflow suites against a target and write reports",
  builder: builder as unknown as CommandModule<object, RunArgs>["builder"],
  handler: async (args) => {
    // Loaded when a run starts: `--help` and the other commands start without the runner.
    const { runConformance } = await import("../../runner/run.ts");
    const { runWithReporters } = await import("../run-with-reporters.ts");
    const config = await toRunConfig(args);
    if (args.list) {
      const { planSelection } = await import("../../runner/run.ts");
      const { selectionListing } = await import("../../runner/listing.ts");
      process.stdout.write(selectionListing(await planSelection(config), config));
      args.exitCode = 0;
      return;
    }
    args.exitCode = await runWithReporters(config, (options) => runConformance(config, options));
  },
};
