/**
 * The options `conform run` shares with `fuzz`, `verify` and `proxy`, in named groups as `--help` shows them
 * (target, selection, run, bounds, reports, CI), and the checks that refuse a bad combination before anything runs.
 * @module
 */
import type { Arguments, Argv, Options } from "yargs";
import { ConfigError } from "../core/errors.ts";
import { addedHeadersOf } from "../runner/added-headers.ts";
import { parseRatePolicy, runConfigDefaults } from "../runner/config.ts";
import { parseFailUnder } from "../runner/coverage-summary.ts";
import { listenFlagsProblem } from "../runner/listen-drivers/index.ts";
import { parseShard } from "../runner/shard.ts";
import { checkNumbers, configFileNames, foundConfigFile, plainNumber, readConfigFile } from "./options.ts";

const groups = {
  target: "Target:",
  selection: "Selection:",
  behaviour: "Run:",
  bounds: "Bounds:",
  output: "Reports:",
  ci: "CI:",
};

/** The config file option: a file of any of run's options, the current folder's by default. */
function configOption<T>(yargs: Argv<T>) {
  return (
    yargs
      .config(
        "config",
        `A JSON or YAML file holding any of these options (command-line flags win; default: ${configFileNames.join(", ")} in the current folder, if there)`,
        readConfigFile,
      )
      // yargs reads the config option's default as a file too: the current folder's, when it has one.
      .default("config", foundConfigFile(), "")
  );
}

/** Where requests go and how: the target, its token, added headers, TLS, the description. */
function targetOptions<T>(yargs: Argv<T>) {
  const options = {
    "base-url": {
      type: "string",
      describe: "The API's base URL, ending in /v4 (default: start the embedded reference server)",
    },
    "auth-url": {
      type: "string",
      describe: "The login server (default: the base URL's origin)",
    },
    token: {
      type: "string",
      describe: "Bearer token for the target (prefer --token-env: flags show in process lists)",
    },
    "token-env": {
      type: "string",
      describe: "Read the token from this environment variable (default CONFORM_TOKEN)",
    },
    header: {
      alias: "H",
      type: "string",
      array: true,
      describe:
        'Add "Name: value" to every request (repeatable); a name with key, token, secret... is never recorded; not Authorization',
    },
    ca: {
      type: "string",
      describe: "PEM file of a CA to trust for the target",
    },
    insecure: {
      type: "boolean",
      default: false,
      describe: "Do not verify the target's TLS certificate",
    },
    spec: {
      type: "string",
      describe: "OpenAPI description to check against (default: the bundled one)",
    },
  } satisfies Record<string, Options>;
  return yargs.options(options).group(Object.keys(options), groups.target);
}

/** Which suites, cases and checks run. */
function suiteSelectionOptions<T>(yargs: Argv<T>) {
  const options = {
    suite: {
      type: "string",
      array: true,
      describe: "Run only these suites (ids)",
    },
    "suite-path": {
      type: "string",
      array: true,
      describe: "More *.suite.ts files or folders to load",
    },
    tag: {
      type: "string",
      array: true,
      describe: "Run only suites with one of these tags",
    },
    "exclude-tag": {
      type: "string",
      array: true,
      describe:
        "Leave out suites and cases with these tags (e.g. costly, writes, data-plane); an unknown tag is refused",
    },
    check: {
      type: "string",
      array: true,
      describe: "Apply only these checks to every exchange",
    },
    "exclude-check": {
      type: "string",
      array: true,
      describe: "Do not apply these checks",
    },
  } satisfies Record<string, Options>;
  return yargs.options(options).group(Object.keys(options), groups.selection);
}

/** Which operations requests may reach and whether they may write; `--list` prints the whole selection. */
function operationSelectionOptions<T>(yargs: Argv<T>) {
  const options = {
    operation: {
      type: "string",
      array: true,
      describe:
        "Send requests only to these operations (operationIds); a case reaching another is skipped, saying so",
    },
    "exclude-operation": {
      type: "string",
      array: true,
      describe:
        "Send no request to these operations (the end-of-run cleanup still deletes what the run made)",
    },
    method: {
      type: "string",
      array: true,
      describe: "Only operations of these HTTP methods (e.g. GET)",
    },
    // Not --path: that is the fast-check path of a replayed property (replay lines carry it).
    "path-pattern": {
      type: "string",
      array: true,
      describe: "Only operations whose path template matches (* any characters: /compute/instances*)",
    },
    list: {
      type: "boolean",
      default: false,
      describe: "Print the selection (suites, cases, checks, operations) and exit without running",
    },
    "allow-writes": {
      type: "boolean",
      default: false,
      describe: "Let suites tagged `writes` create and delete resources on a real target",
    },
  } satisfies Record<string, Options>;
  return yargs.options(options).group(Object.keys(options), groups.selection);
}

/** How the run goes: its seed, concurrency, pacing and time-outs, and when it stops or fails. */
function behaviourOptions<T>(yargs: Argv<T>) {
  const options = {
    seed: {
      coerce: plainNumber,
      describe: "Seed for generated cases (default: random, printed in the report)",
    },
    concurrency: {
      coerce: plainNumber,
      default: runConfigDefaults.concurrency,
      describe: "Suites run at once",
    },
    "rate-limit": {
      type: "string",
      default: "auto",
      describe: "auto (follow X-RateLimit-* headers), or a budget such as 5/s, 100/m or 2000/h",
    },
    timeout: {
      coerce: plainNumber,
      default: runConfigDefaults.timeoutMs,
      describe: "Per-request timeout (connect, headers, body), in ms",
    },
    "max-failures": {
      coerce: plainNumber,
      default: 0,
      describe: "Stop starting cases after this many failures (0: never)",
    },
    "warnings-as-errors": {
      type: "boolean",
      default: false,
      describe:
        "Exit 1 when the run ends with warnings (cases left out, answers mostly 401/403/404, long rate-limit waits, checks that judged nothing)",
    },
    "fail-under": {
      type: "string",
      describe:
        "Exit 1 when fewer operations than this share (percent, e.g. 80) were exercised, saying so in one line",
    },
  } satisfies Record<string, Options>;
  return yargs.options(options).group(Object.keys(options), groups.behaviour);
}

/** The bounds a hostile or broken target meets: sizes, deadlines, waits, the bodies kept. */
function boundsOptions<T>(yargs: Argv<T>) {
  const options = {
    "max-response-bytes": {
      coerce: plainNumber,
      default: runConfigDefaults.maxResponseBytes,
      describe:
        'A body above this, as received or decoded (gzip), is not read: the exchange fails "answer too large"',
    },
    "request-deadline": {
      coerce: plainNumber,
      default: runConfigDefaults.requestDeadlineMs,
      describe: "Per request, from the answer's headers to its last byte, in ms (a trickling body ends)",
    },
    "max-wait": {
      coerce: plainNumber,
      default: runConfigDefaults.maxWaitMs,
      describe:
        "Longest wait for a Retry-After or a spent rate-limit window, in ms; beyond it the case errors",
    },
    "max-time": {
      coerce: plainNumber,
      describe:
        "The whole run's time limit, in ms (default: none); reaching it ends the run like Ctrl-C (cleanup, reports), exit 2",
    },
    "kept-body-bytes": {
      coerce: plainNumber,
      default: runConfigDefaults.keptBodyBytes,
      describe: "Body kept with each failing exchange in the reports (the rest is cut, saying so)",
    },
    "kept-report-bytes": {
      coerce: plainNumber,
      default: runConfigDefaults.keptReportBytes,
      describe: "Bodies kept over all failing exchanges of a run; past it, failing exchanges keep no body",
    },
  } satisfies Record<string, Options>;
  return yargs.options(options).group(Object.keys(options), groups.bounds);
}

/** What the run writes: colour, a HAR file, the report folder, the reporters. */
function reportOptions<T>(yargs: Argv<T>) {
  const options = {
    color: {
      type: "boolean",
      describe:
        "Colour the console (default: on a terminal, unless NO_COLOR is set); --no-color turns it off",
    },
    har: {
      type: "string",
      describe: "Also write every exchange to this file as HAR 1.2 (secrets redacted as in the reports)",
    },
    "report-dir": {
      type: "string",
      default: runConfigDefaults.reportDir,
      describe: "Reports go to <dir>/<run-id>/ and <dir>/latest/",
    },
    reporter: {
      type: "string",
      array: true,
      describe:
        "console, json, junit, html, markdown, github, ndjson (comma-separated; default: the first five)",
    },
  } satisfies Record<string, Options>;
  return yargs.options(options).group(Object.keys(options), groups.output);
}

/** How the workflow suites make nodes listen and reach the load balancers' ports. */
function workflowOptions<T>(yargs: Argv<T>) {
  const options = {
    "listen-driver": {
      type: "string",
      choices: ["reference", "command", "none"],
      describe:
        "How workflow suites make a node listen: reference (loopback reference server; default there), command (real clouds), none (skip those steps)",
    },
    "listen-command": {
      type: "string",
      describe:
        "Command run while a node listens, e.g. 'ssh -tt root@{address} \"nc -lk {port}\"' ({address}, {port}, {label})",
    },
    "data-plane": {
      type: "boolean",
      default: false,
      describe:
        "Let cases tagged data-plane connect to the target's load balancers (their ports, TLS); always on for the embedded server",
    },
  } satisfies Record<string, Options>;
  return yargs.options(options).group(Object.keys(options), groups.behaviour);
}

/** Shards and their balance, and a baseline of known failures. */
function ciOptions<T>(yargs: Argv<T>) {
  const options = {
    shard: {
      type: "string",
      describe:
        "Run shard i of n of the selected suites (e.g. 1/4): the same split on every machine; merge with `conform merge-reports`",
    },
    durations: {
      type: "string",
      describe: "An earlier report.json whose suite durations balance the shards (default: by case count)",
    },
    baseline: {
      type: "string",
      describe:
        "An earlier report.json of known failures: its failure groups do not fail the exit code, new ones do, and those gone are reported fixed",
    },
  } satisfies Record<string, Options>;
  return yargs.options(options).group(Object.keys(options), groups.ci);
}

/** Every group of run's options, in the order `--help` shows the groups (innermost first). */
function groupedOptions(yargs: Argv) {
  return ciOptions(
    workflowOptions(
      reportOptions(
        boundsOptions(
          behaviourOptions(
            operationSelectionOptions(suiteSelectionOptions(targetOptions(configOption(yargs)))),
          ),
        ),
      ),
    ),
  );
}

/** Run's arguments as yargs' checks see them (before the camel-case copies). */
type ParsedRunOptions = Arguments<ReturnType<typeof groupedOptions> extends Argv<infer T> ? T : never>;

/** Token, TLS, URL and header options that cannot go together or hold what they must not. */
function targetProblem(args: ParsedRunOptions): string | undefined {
  if (args.token !== undefined && args["token-env"] !== undefined)
    return "give --token or --token-env, not both";
  if (args.ca !== undefined && args.insecure) return "give --ca or --insecure, not both";
  if (args.token !== undefined && String(args.token).trim() === "")
    return "--token is empty: give the target's token, or leave --token out";
  for (const option of ["base-url", "auth-url"] as const) {
    const problem = credentialsProblem(option, args[option]);
    if (problem) return problem;
  }
  // Throws its own ConfigError naming the header.
  addedHeadersOf(headerTexts(args.header));
  return undefined;
}

function behaviourProblem(args: ParsedRunOptions): string | undefined {
  if (parseRatePolicy(String(args["rate-limit"])) === undefined)
    return `--rate-limit ${args["rate-limit"]}: use auto, N/s, N/m or N/h`;
  return listenFlagsProblem(args["listen-driver"], args["listen-command"], args["base-url"]);
}

function ciProblem(args: ParsedRunOptions): string | undefined {
  // Throws its own ConfigError naming the shard.
  if (args.shard !== undefined) parseShard(String(args.shard));
  if (args.durations !== undefined && args.shard === undefined)
    return "--durations balances shards: give it with --shard i/n";
  // Throws its own ConfigError naming the value.
  if (args["fail-under"] !== undefined) parseFailUnder(args["fail-under"]);
  if (args["fail-under"] !== undefined && args.shard !== undefined)
    return "--fail-under measures the whole run, and a shard holds a part of it: give --fail-under to conform merge-reports";
  return undefined;
}

/** Throws a ConfigError (exit 2) for the first problem of run's arguments, each told in one line naming its option. */
function checkRunArgs(args: ParsedRunOptions): true {
  for (const problemOf of [targetProblem, behaviourProblem, ciProblem]) {
    const problem = problemOf(args);
    if (problem) throw new ConfigError(problem);
  }
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
}

/** Every option of `conform run` and its checks, without examples: `fuzz`, `verify` and `proxy` reuse them. */
export function runOptions(yargs: Argv) {
  return groupedOptions(yargs)
    .option("suite-options", {
      type: "string",
      hidden: true,
      describe: "Settings for suites (config file only)",
    })
    .check(checkRunArgs);
}

/** Every `--header` given (a config file's `header` may be one text or a list); a header's value may hold commas. */
export function headerTexts(value: unknown): string[] {
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
