/**
 * The built-in reporters by name (vitest `reporters/index.ts` `ReportersMap`), and `createReporters`, which makes
 * the named ones and joins them into one {@link ReporterGroup}: the engine hands every event to `group.emit` and
 * calls `group.close()` once at the end. Closing writes every report into the run's directory, then mirrors that
 * directory once to `<reportDir>/latest/` (once for the whole run, not per file, so `latest` never mixes two runs).
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import type { RunEvent, RunSnapshot } from "../core/events.ts";
import { createConsoleReporter } from "./console.ts";
import { createGithubReporter } from "./github.ts";
import { createHtmlReporter } from "./html.ts";
import { createJsonReporter } from "./json.ts";
import { createJunitReporter } from "./junit.ts";
import { createMarkdownReporter } from "./markdown.ts";
import { createNdjsonReporter } from "./ndjson.ts";
import { refreshLatest, writeLatest } from "./output.ts";
import type { BuiltinReporterOptions, Reporter, ReporterName, ReporterOptions } from "./types.ts";

export { latestDirOf, writeLatest } from "./output.ts";
export type * from "./types.ts";

export type ReporterFactory<Name extends ReporterName> = (
  options: ReporterOptions,
  own?: BuiltinReporterOptions[Name],
) => Reporter;

export const reportersMap: { readonly [Name in ReporterName]: ReporterFactory<Name> } = Object.freeze({
  console: createConsoleReporter,
  json: createJsonReporter,
  junit: createJunitReporter,
  html: createHtmlReporter,
  markdown: createMarkdownReporter,
  github: createGithubReporter,
  ndjson: createNdjsonReporter,
});

export const reporterNames = Object.keys(reportersMap) as ReporterName[];

export function isReporterName(name: string): name is ReporterName {
  return Object.hasOwn(reportersMap, name);
}

/** Options for {@link createReporters}: the common ones, plus each reporter's own by name. */
export interface CreateReportersOptions extends ReporterOptions {
  readonly reporterOptions?: { readonly [Name in ReporterName]?: BuiltinReporterOptions[Name] };
  /** Mirror the run's directory to `<reportDir>/latest/` on close (default true). */
  readonly mirrorLatest?: boolean;
}

/** Several reporters as one: each event goes to each reporter's hook in order. */
export interface ReporterGroup {
  readonly reporters: readonly Reporter[];
  /** Report files the group writes (relative to `outputDir`). */
  readonly files: readonly string[];
  /** Delivers one event; usable as the engine's listener (`(event) => group.emit(event)`). */
  emit(event: RunEvent): void | Promise<void>;
  /**
   * Writes a snapshot of every file report (a `run-snapshot` event: each reporter writes its files from it and what
   * it has heard, atomically), then mirrors the run's directory to `latest` (the first whole, the next ones file by
   * file, so `latest/report.json` is always there). Never rejects: a failure to write is
   * answered (the run goes on, and its end writes the reports again). `emit` of a `run-snapshot` comes here too.
   */
  snapshot(event: RunSnapshot): Promise<SnapshotWritten>;
  /**
   * Closes every reporter (each is closed even if another fails): first those writing files, then the run's
   * directory is mirrored to `latest` and `afterFiles` is told (the CLI names the files written), then the console
   * ones (their last lines, the coverage line, end the output). Rejects with the first reporter's failure (an
   * AggregateError when several failed). Returns the mirror's path.
   */
  close(afterFiles?: (latest: string | undefined) => void): Promise<string | undefined>;
  /**
   * The process exits at once with `exitCode` (a second signal): reporters that can write synchronously do
   * (report.json); answers the paths.
   */
  abandon(exitCode: number): string[];
}

/** What a snapshot wrote: the files of the reporters that wrote theirs, the mirror, and the failures. */
export interface SnapshotWritten {
  readonly files: readonly string[];
  readonly latest: string | undefined;
  readonly failures: readonly unknown[];
}

/** Calls the reporter's hook for this event, if it has one. */
export function deliver(reporter: Reporter, event: RunEvent): void | Promise<void> {
  const hook = reporter[event.type] as ((event: RunEvent) => void | Promise<void>) | undefined;
  return hook?.call(reporter, event);
}

export function createReporterGroup(
  reporters: readonly Reporter[],
  options: Pick<CreateReportersOptions, "outputDir" | "mirrorLatest">,
): ReporterGroup {
  let closed: Promise<string | undefined> | undefined;
  let mirrored = false;
  const snapshot = async (event: RunSnapshot): Promise<SnapshotWritten> => {
    const writers = reporters.filter((reporter) => reporter["run-snapshot"] && reporter.files.length > 0);
    const results = await Promise.allSettled(writers.map(async (reporter) => deliver(reporter, event)));
    const failures: unknown[] = results.flatMap((result) =>
      result.status === "rejected" ? [result.reason] : [],
    );
    const files = writers.flatMap((reporter, index) =>
      results[index]?.status === "fulfilled" ? reporter.files : [],
    );
    let latest: string | undefined;
    if (files.length > 0 && options.mirrorLatest !== false) {
      try {
        // The first swaps the mirror in whole (no file of another run stays); the next ones replace file by file.
        latest = mirrored
          ? await refreshLatest(options.outputDir, files)
          : await writeLatest(options.outputDir);
        mirrored = latest !== undefined;
      } catch (error) {
        failures.push(error);
      }
    }
    return { files, latest, failures };
  };
  return {
    reporters,
    files: reporters.flatMap((reporter) => reporter.files),
    snapshot,
    emit(event) {
      if (event.type === "run-snapshot") return snapshot(event).then(() => undefined);
      const pending: Promise<void>[] = [];
      for (const reporter of reporters) {
        const result = deliver(reporter, event);
        if (result) pending.push(result);
      }
      // Synchronous hooks (the common case, 20k+ exchange events a second) cost no promise.
      if (pending.length > 0) return Promise.all(pending).then(() => undefined);
    },
    abandon(exitCode) {
      const written: string[] = [];
      for (const reporter of reporters) {
        try {
          written.push(...(reporter.abandon?.(exitCode) ?? []));
        } catch {
          // Exiting anyway: a report that cannot be written is not worth a crash in the last moment.
        }
      }
      return written;
    },
    close(afterFiles) {
      closed ??= (async () => {
        const writers = reporters.filter((reporter) => reporter.files.length > 0);
        const results = await Promise.allSettled(writers.map((reporter) => reporter.close?.()));
        let mirror: string | undefined;
        try {
          if (options.mirrorLatest !== false && writers.length > 0)
            mirror = await writeLatest(options.outputDir);
          afterFiles?.(mirror);
        } catch (error) {
          // The console still closes (its last lines) before the failure is raised.
          results.push({ status: "rejected", reason: error });
        }
        const others = reporters.filter((reporter) => reporter.files.length === 0);
        results.push(...(await Promise.allSettled(others.map((reporter) => reporter.close?.()))));
        const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
        if (failures.length === 1) throw failures[0];
        if (failures.length > 1)
          throw new AggregateError(failures, `${failures.length} reporters failed to close`);
        return mirror;
      })();
      return closed;
    },
  };
}

/**
 * Makes the named reporters (duplicates once) and groups them. Unknown names are a ConfigError that lists the
 * known ones.
 */
export function createReporters(names: readonly string[], options: CreateReportersOptions): ReporterGroup {
  const unknown = names.filter((name) => !isReporterName(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `unknown reporter ${unknown.join(", ")}; known reporters: ${reporterNames.join(", ")}`,
    );
  }
  const reporters = [...new Set(names as ReporterName[])].map((name) => {
    const factory = reportersMap[name] as ReporterFactory<typeof name>;
    return factory(options, options.reporterOptions?.[name] as never);
  });
  return createReporterGroup(reporters, options);
}
