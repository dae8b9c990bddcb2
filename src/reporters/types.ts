/**
 * The reporter contract: a reporter listens to the engine's {@link RunEvent} stream through optional hooks, one per
 * event type, keyed by the event's own `type`, and flushes whatever it writes in `close()`. Reporters compute nothing
 * the engine did not emit (ARCHITECTURE.md, "How to add things": a reporter).
 * @module
 */
import type { Writable } from "node:stream";
import type { RunEvent, RunEventType } from "../core/events.ts";

export type { RunEvent, RunEventType } from "../core/events.ts";

/** The event of one type: `EventOf<"case-finished">` is `CaseFinished`. */
export type EventOf<K extends RunEventType> = Extract<RunEvent, { readonly type: K }>;

/** One optional hook per event type; a hook may return a promise, which the caller awaits before the next event. */
export type ReporterHooks = {
  readonly [K in RunEventType]?: (event: EventOf<K>) => void | Promise<void>;
};

/**
 * A reporter: hooks for the events it cares about, and `close()` to write its output. `close()` is called once,
 * after the last event, whether or not `run-finished` came (a crash or Ctrl-C): a file reporter then still writes
 * what it has, marked incomplete.
 * @public
 */
export interface Reporter extends ReporterHooks {
  /** The reporter's name in {@link ReporterName} (for messages). */
  readonly name: string;
  /** File names this reporter writes into `outputDir` (empty for console output). */
  readonly files: readonly string[];
  close?(): Promise<void>;
  /**
   * The process is about to exit at once with `exitCode` (a second signal): write what can be written now,
   * synchronously, and answer the paths written. Only the canonical record does (`report.json`, with that exit code
   * and the cases still running counted as interrupted); the others are left unwritten.
   */
  abandon?(exitCode: number): readonly string[];
}

/** Options every reporter receives from the engine. */
export interface ReporterOptions {
  /** The run's own report directory, `<reportDir>/<runId>/`; created on first write. */
  readonly outputDir: string;
  /** Where console output goes (usually `process.stdout`). */
  readonly stream: Writable;
  /** Whether `stream` is a terminal: colours and the progress bar only then. */
  readonly isTTY: boolean;
  /** Running under CI (the `CI` environment variable): no progress bar, whatever `isTTY` says. */
  readonly ci: boolean;
  /** Overrides colour (default: `isTTY`), e.g. false for `NO_COLOR`, true for `FORCE_COLOR`. */
  readonly color?: boolean;
}

export interface ConsoleReporterOptions {
  /** Failure groups printed as blocks at the end, largest first; the rest are counted (default 30). */
  readonly maxGroups?: number;
  /** Failures of a group shown in full in its block; the rest are counted (default 2). */
  readonly examplesPerGroup?: number;
  /** Groups listed one line each in the end summary (default 20). */
  readonly summaryGroups?: number;
  /** Minimum time between two progress bar redraws, in ms (default 100). */
  readonly progressIntervalMs?: number;
  /** Rows of the coverage table printed at the end (default 100); the rest are counted (all are in the reports). */
  readonly maxCoverageRows?: number;
}

/** None yet: the JSON report's shape is fixed by its schema. */
export type JsonReporterOptions = Readonly<Record<never, never>>;

/** None yet. */
export type JunitReporterOptions = Readonly<Record<never, never>>;

export interface HtmlReporterOptions {
  /** The page title (default "conform report"). */
  readonly title?: string;
}

export interface MarkdownReporterOptions {
  /** Failure groups listed (default 30): a PR comment must stay short. */
  readonly maxGroups?: number;
}

/** None yet. */
export type GithubReporterOptions = Readonly<Record<never, never>>;

/** None yet. */
export type NdjsonReporterOptions = Readonly<Record<never, never>>;

/** Per-reporter options by name (vitest `BuiltinReporterOptions`). */
export interface BuiltinReporterOptions {
  readonly console: ConsoleReporterOptions;
  readonly json: JsonReporterOptions;
  readonly junit: JunitReporterOptions;
  readonly html: HtmlReporterOptions;
  readonly markdown: MarkdownReporterOptions;
  readonly github: GithubReporterOptions;
  readonly ndjson: NdjsonReporterOptions;
}

export type ReporterName = keyof BuiltinReporterOptions;
