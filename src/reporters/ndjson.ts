/**
 * The run's events as they happen (`--reporter ndjson`): `events.ndjson` in the run's directory, one JSON object a
 * line, for another tool to follow the run live (`tail -F`). Each line is an event as the reporters hear it (already
 * redacted where the exchange was recorded), with `version` first: the stream's format, raised when a field changes
 * meaning. `run-snapshot` events are not written (they are the file reporters' own; the stream already holds
 * everything they hold). The file is created 0600 on the first event and appended as events come; a slow disk
 * holds the run (the hook waits for the stream to drain) rather than buffering without bound.
 * @module
 */
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { join } from "node:path";
import { makeDirectorySync } from "../core/directories.ts";
import type { RunEvent, RunEventType } from "../core/events.ts";
import type { Reporter, ReporterOptions } from "./types.ts";

export const ndjsonReportFile = "events.ndjson";

/** The stream's format version (a line's `version`). */
export const ndjsonVersion = 1;

/** Every event type but `run-snapshot`: a new type fails to compile here until it is decided. */
const writtenTypes: Readonly<Record<Exclude<RunEventType, "run-snapshot">, true>> = {
  "run-started": true,
  "suite-started": true,
  "case-started": true,
  exchange: true,
  check: true,
  "failure-group": true,
  "case-finished": true,
  "suite-finished": true,
  "run-finished": true,
  "rate-limit-wait": true,
  warning: true,
};

/** One event as its line (with its newline). */
export function ndjsonLine(event: RunEvent): string {
  return `${JSON.stringify({ version: ndjsonVersion, ...event })}\n`;
}

export function createNdjsonReporter(options: ReporterOptions): Reporter {
  let stream: WriteStream | undefined;
  let failure: Error | undefined;
  const write = (event: RunEvent): void | Promise<void> => {
    if (failure) return;
    if (!stream) {
      makeDirectorySync(options.outputDir);
      stream = createWriteStream(join(options.outputDir, ndjsonReportFile), { flags: "w", mode: 0o600 });
      stream.on("error", (error) => {
        failure ??= error;
      });
    }
    // A failed stream is told at close (its error handler keeps it): the run goes on.
    if (!stream.write(ndjsonLine(event)))
      return once(stream, "drain").then(
        () => undefined,
        () => undefined,
      );
  };
  const hooks = Object.fromEntries(Object.keys(writtenTypes).map((type) => [type, write]));
  return {
    name: "ndjson",
    files: [ndjsonReportFile],
    ...hooks,
    async close() {
      if (!stream) return;
      const closing = stream;
      stream = undefined;
      await new Promise<void>((resolve) => closing.end(resolve));
      if (failure) throw failure;
    },
  };
}
