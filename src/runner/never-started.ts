/**
 * A run interrupted (SIGINT, SIGTERM, `--max-time`) before its suites started: while conform loaded, or while it
 * waited for the target's first answer. It still has a run: its start and its end, with no case, told to the
 * reporters as any run's are, so every report the config names is written and says why it is empty.
 * @module
 */
import type { RunFinished, RunStarted, RunWarning } from "../core/events.ts";
import type { RunConfig } from "./config.ts";
import { abortExitCode, emptyCounts, selectionOf } from "./engine.ts";
import { LabelMaker } from "./labels.ts";

export interface NeverStarted {
  readonly runId: string;
  /** When the run began (before it loaded its description): its duration counts from there. */
  readonly startedAt: Date;
  readonly toolVersion: string;
  /** Why it ended: a RunInterrupted or RunTimedOut. */
  readonly reason: Error;
}

/**
 * The events of a run that ended before its suites started: its start (no suite planned; the description may not
 * have been read, so its version is `unknown` and it has no operation), a warning saying why, its end (status
 * `interrupted`, no case, nothing created, the exit code of the interruption).
 */
export function neverStartedEvents(
  config: RunConfig,
  run: NeverStarted,
): [RunStarted, RunWarning, RunFinished] {
  const finishedAt = new Date();
  return [
    {
      type: "run-started",
      runId: run.runId,
      startedAt: run.startedAt.toISOString(),
      target: {
        baseUrl: config.baseUrl ?? "",
        authUrl: config.authUrl,
        embedded: config.baseUrl === undefined,
      },
      spec: { source: config.specPath, version: "unknown", operations: 0 },
      seed: config.seed,
      labelPrefix: new LabelMaker(config.labelPrefix, run.runId).stem,
      suites: [],
      ...selectionOf(config),
      toolVersion: run.toolVersion,
      nodeVersion: process.version,
    },
    { type: "warning", message: `${run.reason.message} before the suites started: no case ran` },
    {
      type: "run-finished",
      runId: run.runId,
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - run.startedAt.getTime(),
      status: "interrupted",
      counts: emptyCounts(),
      exchanges: 0,
      coverage: [],
      retries: 0,
      rateLimited: 0,
      cleanup: { deleted: 0, failed: [] },
      groups: [],
      exitCode: abortExitCode(run.reason),
    },
  ];
}
