/**
 * The arguments of `conform run` (and of `fuzz`, `verify` and `proxy`, which share its options) read into the
 * library's RunConfig: the token from its variable, lists split, earlier reports read and checked.
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import { addedHeadersOf } from "../runner/added-headers.ts";
import { parseRatePolicy, type RunConfig, runConfigDefaults } from "../runner/config.ts";
import { parseFailUnder } from "../runner/coverage-summary.ts";
import { baselineOf, durationsOf } from "../runner/earlier-report.ts";
import { withListenFlags } from "../runner/listen-drivers/index.ts";
import { parseShard } from "../runner/shard.ts";
import { bundledSpecPath } from "../spec/bundled.ts";
import type { ArgsOf } from "./command-module.ts";
import { listOption } from "./options.ts";
import { headerTexts, type runOptions } from "./run-options.ts";

/** The parsed arguments of `conform run`, and the part of them `fuzz`, `verify` and `proxy` share. */
export type RunArgs = ArgsOf<typeof runOptions>;

/**
 * Maps parsed arguments to a RunConfig. Async: the reader of earlier reports (ajv and the report's schema) loads
 * only when --baseline or --durations is given, so `--help` starts without it.
 */
export async function toRunConfig(args: RunArgs, env: NodeJS.ProcessEnv = process.env): Promise<RunConfig> {
  const { readReportFile } =
    args.durations === undefined && args.baseline === undefined
      ? { readReportFile: undefined }
      : await import("../reporters/report-file.ts");
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
