/**
 * One conformance run, as the CLI asks for it: load the spec and the suites, start or reach the target, select
 * suites and checks, run the engine with the given listeners (reporters), stop the target. Toolkit failures
 * (bad config, spec or suite will not load, target unreachable, nothing to run) throw ToolkitErrors: exit 2.
 * @module
 */
import { builtinChecks, listChecks } from "../checks/index.ts";
import type { CheckDefinition } from "../checks/types.ts";
import { ConfigError, NothingRanError, TargetUnreachableError } from "../core/errors.ts";
import type { RunFinished } from "../core/events.ts";
import { loadSpec } from "../spec/load.ts";
import type { RunConfig } from "./config.ts";
import { discoverSuites } from "./discovery.ts";
import { runEngine } from "./engine.ts";
import { EventBus, type RunListener } from "./event-bus.ts";
import { selectSuites } from "./selection.ts";
import type { SuiteHooks } from "./suite-api.ts";
import { startTarget } from "./target.ts";
import { transportReason } from "./tls-advice.ts";

export interface RunOptions {
  readonly runId: string;
  readonly listeners: readonly RunListener[];
  /** Aborts the run (Ctrl-C): cases stop, cleanup still runs, the exit code is 130. */
  readonly signal: AbortSignal;
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

export async function runConformance(config: RunConfig, options: RunOptions): Promise<RunFinished> {
  const checks = selectChecks(config.checks, config.excludeChecks);
  const spec = await loadSpec(config.specPath);
  const discovered = await discoverSuites(config.suitePaths);
  const started = await startTarget(config, spec);
  try {
    const { target } = started;
    const selection = selectSuites(
      discovered.map((entry) => entry.suite),
      { ...config, embedded: target.embedded },
    );
    if (selection.selected.length === 0 && selection.refused.length === 0) {
      throw new NothingRanError("no suite matches the selection (--suite, --tag, --exclude-tag)");
    }
    if (selection.selected.length === 0) {
      throw new NothingRanError(
        `every selected suite was refused: ${selection.refused.map((entry) => `${entry.suite.id}: ${entry.reason}`).join("; ")}`,
      );
    }
    await assertReachable(target.baseUrl, target.ca, config);
    const bus = new EventBus();
    for (const listener of options.listeners) bus.subscribe(listener);
    const finished = await runEngine({
      runId: options.runId,
      spec,
      target,
      config,
      suites: selection.selected,
      refused: selection.refused,
      checks,
      bus,
      signal: options.signal,
      toolVersion: options.toolVersion,
      ...(options.hooks ? { hooks: options.hooks } : {}),
    });
    await bus.flush();
    return finished;
  } finally {
    await started.close();
  }
}

/** One request that must get any HTTP answer at all; otherwise the run cannot start (exit 2). */
async function assertReachable(baseUrl: string, ca: string | undefined, config: RunConfig): Promise<void> {
  const { Agent, request } = await import("undici");
  const agent = new Agent({
    connect: { ca, rejectUnauthorized: !config.insecure, timeout: config.timeoutMs },
  });
  try {
    const answer = await request(baseUrl, {
      method: "GET",
      dispatcher: agent,
      headersTimeout: config.timeoutMs,
    });
    await answer.body.dump();
  } catch (error) {
    throw new TargetUnreachableError(`target ${baseUrl} is unreachable: ${transportReason(error)}`, {
      cause: error,
    });
  } finally {
    await agent.close();
  }
}
