/**
 * Running with reporters, as `run`, `fuzz`, `verify` and `proxy` do: the reporters the config names (colour from the
 * environment), the report directory proved writable before the run, the HAR when asked, SIGINT and SIGTERM handled
 * (`interruption.ts`), and at the end the line naming the report files written.
 * @module
 */
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { makeDirectory } from "../core/directories.ts";
import { ConfigError, RunInterrupted, RunTimedOut } from "../core/errors.ts";
import type { RunFinished, RunSnapshot } from "../core/events.ts";
import { ExitCode } from "../core/exit-codes.ts";
import { createReporters, type ReporterGroup, type SnapshotWritten } from "../reporters/index.ts";
import type { RunConfig } from "../runner/config.ts";
import type { RunListener } from "../runner/event-bus.ts";
import { LabelMaker } from "../runner/labels.ts";
import { CleanupLedger } from "../runner/ledger.ts";
import { neverStartedEvents } from "../runner/never-started.ts";
import type { RunOptions } from "../runner/run.ts";
import type { SuiteHooks } from "../runner/suite-api.ts";
import { HarWriter } from "../traffic/har.ts";
import { handleInterruptions } from "./interruption.ts";
import { newRunId } from "./options.ts";
import { toolVersion } from "./version.ts";

/** NO_COLOR (https://no-color.org) turns colour off, FORCE_COLOR on; otherwise colour follows the terminal. */
export function colorFromEnv(env: NodeJS.ProcessEnv): { color?: boolean } {
  if (env.NO_COLOR) return { color: false };
  if (env.FORCE_COLOR !== undefined) return { color: env.FORCE_COLOR !== "0" };
  return {};
}

export interface RunWithReportersOptions {
  readonly hooks?: SuiteHooks;
  /** Judging traffic conform did not make (`proxy`, `verify`): it creates nothing, so there is no cleanup to tell. */
  readonly traffic?: boolean;
  /** More listeners of the run's events (the proxy's line per exchange). */
  readonly listeners?: readonly RunListener[];
}

/**
 * Runs with the reporters the config names and SIGINT and SIGTERM handled (`../interruption.ts`: a first signal
 * interrupts and cleans up, exit 130 or 143; a second quits at once, saying what is left); answers the exit code.
 * A `run-snapshot` (the proxy's `--report-every`) writes the reports so far and says where in one line on stderr, or
 * why not: a failed snapshot does not end the run. `conform run`, `fuzz`, `verify` and `proxy` share it.
 */
export async function runWithReporters(
  config: RunConfig,
  start: (options: RunOptions) => Promise<RunFinished>,
  { hooks, traffic = false, listeners = [] }: RunWithReportersOptions = {},
): Promise<number> {
  const runId = newRunId();
  const startedAt = new Date();
  const outputDir = join(config.reportDir, runId);
  const reporters = reportersOf(config, outputDir);
  // Before the run, not after it: a run whose reports cannot be written is lost work.
  if (reporters.files.length > 0) await ensureWritable(outputDir);
  const har = config.harPath === undefined ? undefined : new HarWriter(config.harPath, toolVersion);
  const controller = new AbortController();
  const ledger = new CleanupLedger();
  const reportsWritten = handleInterruptions({
    controller,
    left: traffic ? undefined : leftoversOf(config, runId),
    ledger: () => ledger.left(),
    reporters,
    write: (text) => process.stderr.write(text),
    exit: (code) => process.exit(code),
  });
  let exitCode: number | undefined;
  let runStarted = false;
  try {
    const finished = await start({
      runId,
      listeners: [
        (event) => {
          if (event.type === "run-started") runStarted = true;
        },
        (event) =>
          event.type === "run-snapshot"
            ? reporters.snapshot(event).then((written) => {
                process.stderr.write(`${snapshotLine(event, outputDir, written)}\n`);
              })
            : reporters.emit(event),
        ...(har ? [har.listener] : []),
        ...listeners,
      ],
      signal: controller.signal,
      ledger,
      toolVersion,
      ...(hooks ? { hooks } : {}),
    }).catch((error: unknown) => {
      // Interrupted (or out of time) before the suites started, e.g. waiting for the target's first answer.
      if (error instanceof RunInterrupted || error instanceof RunTimedOut) return error;
      throw error;
    });
    if (finished instanceof RunInterrupted || finished instanceof RunTimedOut) {
      process.stderr.write(`conform: ${finished.message} before the suites started\n`);
      // Its reports say so: the run's start and end, with no case, as any run's are told.
      if (!runStarted)
        for (const event of neverStartedEvents(config, { runId, startedAt, toolVersion, reason: finished }))
          await reporters.emit(event);
      exitCode = finished instanceof RunInterrupted ? finished.exitCode : ExitCode.toolkitError;
      return exitCode;
    }
    exitCode = finished.exitCode;
    return exitCode;
  } finally {
    try {
      await har?.close();
      await closeReports(reporters, outputDir);
    } finally {
      // Only now: a second signal while the reports are written still quits at once with what it can write (and
      // an interrupted run ends its process here, a later signal handled until then).
      reportsWritten(exitCode);
    }
  }
}

/** The reporters the config names, writing into the run's folder; --color/--no-color win over the environment. */
function reportersOf(config: RunConfig, outputDir: string): ReporterGroup {
  return createReporters(config.reporters, {
    outputDir,
    stream: process.stdout,
    isTTY: Boolean(process.stdout.isTTY),
    ci: Boolean(process.env.CI),
    ...(config.color === undefined ? colorFromEnv(process.env) : { color: config.color }),
  });
}

/** What a second signal needs to tell the user what the run left on its target, and how to clean it. */
function leftoversOf(config: RunConfig, runId: string) {
  return {
    baseUrl: config.baseUrl,
    prefix: new LabelMaker(config.labelPrefix, runId).stem,
    caFile: config.caFile,
    insecure: config.insecure,
  };
}

/** Closes the reporters (they write their files) and names the files written, in one line. */
async function closeReports(reporters: ReporterGroup, outputDir: string): Promise<void> {
  // Named once the files are written and before the console's last lines (the coverage line ends the output).
  await reporters.close((latest) => {
    // Only what was written: a run refused before its suites (exit 2: a config or target problem) writes none.
    const written = reporters.files.filter((file) => existsSync(join(outputDir, file)));
    if (written.length > 0) process.stdout.write(`${reportPathsLine(outputDir, written, latest)}\n`);
  });
}

/**
 * One line per snapshot: `conform: snapshot 3 (120 exchanges judged): reports/<run>/report.json, ...`, or why it
 * was not written (the run goes on; its end writes the reports again).
 */
export function snapshotLine(event: RunSnapshot, outputDir: string, written: SnapshotWritten): string {
  const head = `conform: snapshot ${event.sequence} (${event.finished.exchanges} ${event.finished.exchanges === 1 ? "exchange" : "exchanges"} judged)`;
  if (written.failures.length > 0) {
    const why = written.failures
      .map(
        (failure) => (failure as NodeJS.ErrnoException).code ?? (failure as Error).message ?? String(failure),
      )
      .join(", ");
    const some =
      written.files.length > 0 ? ` (${reportPathsLine(outputDir, written.files, written.latest)})` : "";
    return `${head} not written: ${why}${some}; the run goes on`;
  }
  if (written.files.length === 0) return `${head}: no report file to write`;
  return `${head}, ${reportPathsLine(outputDir, written.files, written.latest)}`;
}

/** Creates the run's report directory (owner only) and proves a file can be written there; ConfigError (exit 2) if not. */
export async function ensureWritable(outputDir: string): Promise<void> {
  const probe = join(outputDir, `.writable.${process.pid}.tmp`);
  try {
    await makeDirectory(outputDir);
    await writeFile(probe, "", { mode: 0o600 });
    await rm(probe, { force: true });
  } catch (error) {
    throw new ConfigError(
      `--report-dir: ${outputDir} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a writable --report-dir`,
    );
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
