/**
 * One conformance run, as the CLI asks for it: load the spec and the suites, start or reach the target, select
 * suites and checks, check the target answers (and, for a base URL, like this API: the preflight), run the engine
 * with the given listeners (reporters), stop the target. Toolkit failures (bad config, spec or suite will not load,
 * target unreachable or not this API, nothing to run) throw ToolkitErrors: exit 2.
 * @module
 */
import { builtinChecks, listChecks } from "../checks/index.ts";
import type { CheckDefinition } from "../checks/types.ts";
import { ConfigError, NothingRanError, RunTimedOut, TargetUnreachableError } from "../core/errors.ts";
import type { RunFinished } from "../core/events.ts";
import { loadSpec } from "../spec/load.ts";
import type { ApiSpec } from "../spec/types.ts";
import type { RunConfig } from "./config.ts";
import { discoverSuites } from "./discovery.ts";
import { runEngine } from "./engine.ts";
import { EventBus, type RunListener } from "./event-bus.ts";
import type { CleanupLedger } from "./ledger.ts";
import { type OperationSelection, selectOperations } from "./operation-selection.ts";
import { checkToken, preflight } from "./preflight.ts";
import { selectSuites } from "./selection.ts";
import { assignShards, suiteWeights } from "./shard.ts";
import type { SuiteHooks } from "./suite-api.ts";
import { startTarget } from "./target.ts";
import { transportReason } from "./transport-reason.ts";

export interface RunOptions {
  readonly runId: string;
  readonly listeners: readonly RunListener[];
  /**
   * Aborts the run (SIGINT, SIGTERM): cases in flight end `interrupted`, cleanup still runs, the exit code is 130
   * (143 when the abort reason is the RunInterrupted of a SIGTERM).
   */
  readonly signal: AbortSignal;
  /** The cleanup ledger the run records what it creates on (to read what is left if the process must quit early). */
  readonly ledger?: CleanupLedger;
  readonly toolVersion: string;
  /** Functions for the suites: progress of generated properties, a login driver. */
  readonly hooks?: SuiteHooks;
}

/** The checks a run applies: all built-in ones, or those named, minus those excluded; unknown ids are refused. */
export function selectChecks(only: readonly string[], exclude: readonly string[]): CheckDefinition[] {
  const unknown = [...only, ...exclude].filter((id) => !Object.hasOwn(builtinChecks, id));
  if (unknown.length > 0) {
    throw new ConfigError(
      `unknown check ${unknown.join(", ")}; known checks: ${Object.keys(builtinChecks).join(", ")}`,
    );
  }
  return listChecks().filter(
    (check) => (only.length === 0 || only.includes(check.id)) && !exclude.includes(check.id),
  );
}

/**
 * The run's signal: the caller's (SIGINT, SIGTERM), and with `--max-time` a timer that aborts it with a
 * {@link RunTimedOut} (the run then ends like an interruption, exit 2). `stop` clears the timer.
 */
export function runSignal(
  signal: AbortSignal,
  maxTimeMs: number | undefined,
): { signal: AbortSignal; stop: () => void } {
  if (maxTimeMs === undefined) return { signal, stop: () => {} };
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(new RunTimedOut(maxTimeMs)), maxTimeMs);
  return { signal: AbortSignal.any([signal, limit.signal]), stop: () => clearTimeout(timer) };
}

export async function runConformance(config: RunConfig, options: RunOptions): Promise<RunFinished> {
  const limited = runSignal(options.signal, config.maxTimeMs);
  try {
    return await runLimited(config, { ...options, signal: limited.signal });
  } finally {
    limited.stop();
  }
}

async function runLimited(config: RunConfig, options: RunOptions): Promise<RunFinished> {
  const checks = selectChecks(config.checks, config.excludeChecks);
  // Compiled validators are shared with earlier runs of this process on the same description (`conform faults`
  // runs the suites once per fault): each schema compiles once, and stays optimised.
  const spec = await loadSpec(config.specPath, { shareCompiled: true });
  const operations = selectOperations(spec, config);
  const discovered = await discoverSuites(config.suitePaths);
  const started = await startTarget(config, spec);
  try {
    const { target } = started;
    const selection = shardOf(
      selectSuites(
        discovered.map((entry) => entry.suite),
        { ...config, embedded: target.embedded },
      ),
      config,
    );
    if (selection.selected.length === 0 && selection.refused.length === 0) {
      throw new NothingRanError("no suite matches the selection (--suite, --tag, --exclude-tag)");
    }
    if (selection.selected.length === 0) {
      throw new NothingRanError(
        `every selected suite was refused: ${selection.refused.map((entry) => `${entry.suite.id}: ${entry.reason}`).join("; ")}`,
      );
    }
    const warnings = await checkTarget(target, spec, config, options.signal);
    const bus = new EventBus();
    for (const listener of options.listeners) bus.subscribe(listener);
    const finished = await runEngine({
      runId: options.runId,
      spec,
      target,
      config,
      suites: selection.selected,
      refused: selection.refused,
      warnings,
      checks,
      operations,
      bus,
      signal: options.signal,
      toolVersion: options.toolVersion,
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.ledger ? { ledger: options.ledger } : {}),
    });
    await bus.flush();
    return finished;
  } finally {
    await started.close();
  }
}

/** What a run with this config would run, without starting a target (`conform run --list`). */
export interface PlannedSelection {
  readonly spec: ApiSpec;
  readonly suites: ReturnType<typeof selectSuites>;
  readonly checks: readonly CheckDefinition[];
  readonly operations: OperationSelection;
}

export async function planSelection(config: RunConfig): Promise<PlannedSelection> {
  const checks = selectChecks(config.checks, config.excludeChecks);
  const spec = await loadSpec(config.specPath, { shareCompiled: true });
  const operations = selectOperations(spec, config);
  const discovered = await discoverSuites(config.suitePaths);
  const suites = shardOf(
    selectSuites(
      discovered.map((entry) => entry.suite),
      { ...config, embedded: config.baseUrl === undefined },
    ),
    config,
  );
  return { spec, suites, checks, operations };
}

/**
 * The selection cut to this run's shard (`--shard i/n`): the split is over the selected and refused suites together,
 * so a refused suite is reported by one shard only. A shard left with no suite is exit 2, saying so.
 */
function shardOf(
  selection: ReturnType<typeof selectSuites>,
  config: RunConfig,
): ReturnType<typeof selectSuites> {
  const { shard } = config;
  if (!shard) return selection;
  const all = [...selection.selected, ...selection.refused.map((entry) => entry.suite)];
  const assigned = assignShards(all, shard.count, suiteWeights(all, config.durations));
  const mine = (id: string) => assigned.get(id) === shard.index;
  const cut = {
    selected: selection.selected.filter((suite) => mine(suite.id)),
    refused: selection.refused.filter((entry) => mine(entry.suite.id)),
  };
  if (all.length > 0 && cut.selected.length === 0 && cut.refused.length === 0)
    throw new NothingRanError(
      `shard ${shard.index}/${shard.count} holds no suite: the selection has ${all.length} (use fewer shards)`,
    );
  return cut;
}

/**
 * Before the suites: one request that must get any HTTP answer at all (otherwise the run cannot start), then, for a
 * base URL the user gave, the preflight (`preflight.ts`): the description's public list must answer like this API.
 * The embedded server is the described API by construction, and a named fault that breaks its lists is for the
 * suites to catch, so it gets no preflight. Then the token (`checkToken`): one the target refuses is exit 2 too;
 * none at all is a warning, answered for the run to show.
 */
async function checkTarget(
  target: {
    readonly baseUrl: string;
    readonly ca: string | undefined;
    readonly embedded: boolean;
    readonly token: string | undefined;
  },
  spec: ApiSpec,
  config: RunConfig,
  signal: AbortSignal,
): Promise<string[]> {
  const { Agent, request } = await import("undici");
  const agent = new Agent({
    connect: { ca: target.ca, rejectUnauthorized: !config.insecure, timeout: config.timeoutMs },
  });
  // Ctrl-C, SIGTERM and --max-time end these requests too; so does the per-request bound (headers, then body).
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(config.timeoutMs + config.requestDeadlineMs)]);
  const get = async (url: string, token?: string) => {
    try {
      const answer = await request(url, {
        method: "GET",
        dispatcher: agent,
        headers: {
          ...config.headers,
          accept: "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        headersTimeout: config.timeoutMs,
        bodyTimeout: config.timeoutMs,
        signal: bounded,
      });
      const type = answer.headers["content-type"];
      return {
        status: answer.statusCode,
        contentType: Array.isArray(type) ? type[0] : type,
        text: await cappedText(answer.body, config.maxResponseBytes),
      };
    } catch (error) {
      // An interruption (or the run's time limit) is not the target's fault: the run ends with its code.
      if (signal.aborted) throw signal.reason;
      throw new TargetUnreachableError(
        `target ${target.baseUrl} is unreachable: ${transportReason(error, config)}`,
        {
          cause: error,
        },
      );
    }
  };
  try {
    await get(target.baseUrl);
    if (target.embedded) return [];
    await preflight(spec, target.baseUrl, { get });
    const warning = await checkToken(spec, target.baseUrl, target.token, { get });
    return warning ? [warning] : [];
  } finally {
    await agent.close();
  }
}

/** At most `cap` bytes of a body as text (the start-up check needs a glimpse, never a huge answer whole). */
async function cappedText(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  cap: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of body) {
    chunks.push(chunk.subarray(0, cap - kept));
    kept += Math.min(chunk.length, cap - kept);
    if (kept >= cap) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}
