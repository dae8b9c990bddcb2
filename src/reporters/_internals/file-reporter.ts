/**
 * The one shape of a reporter that writes a file: it remembers the run in a {@link RunRecord}, writes its file
 * on `close()` (nothing when the run never started: no report rather than an empty one), writes a snapshot of it
 * from a copy of the record on `run-snapshot`, and, when asked, writes it synchronously on `abandon` (a second
 * signal: only the canonical record does).
 * @internal
 */
import type { RunStarted } from "../../core/events.ts";
import { writeReportFile, writeReportFileSync } from "../output.ts";
import type { Reporter, ReporterOptions } from "../types.ts";
import { RunRecord } from "./run-record.ts";

/** The file's text from the record: one string, or chunks written as they come (a large report.json). */
export type RenderReport = (record: RunRecord, started: RunStarted) => string | Iterable<string>;

export interface FileReporterSpec {
  readonly name: string;
  readonly file: string;
  readonly render: RenderReport;
  /** Writes the file synchronously when the process quits at once (report.json only). */
  readonly abandon?: boolean;
}

export function createFileReporter(options: ReporterOptions, spec: FileReporterSpec): Reporter {
  const record = new RunRecord();
  const { name, file, render } = spec;
  const reporter: Reporter = {
    name,
    files: [file],
    ...record.hooks,
    async "run-snapshot"(event) {
      if (!record.started) return;
      // Rendered now, from the record as it is at the snapshot; written while later events wait their turn.
      const rendered = render(record.snapshotOf(event), record.started);
      const text = typeof rendered === "string" ? rendered : [...rendered].join("");
      await writeReportFile(options.outputDir, file, text);
    },
    async close() {
      if (!record.started) return;
      await writeReportFile(options.outputDir, file, render(record, record.started));
    },
  };
  if (!spec.abandon) return reporter;
  return {
    ...reporter,
    abandon(exitCode) {
      if (!record.started) return [];
      record.abandon(exitCode);
      const rendered = render(record, record.started);
      return [
        writeReportFileSync(options.outputDir, file, typeof rendered === "string" ? [rendered] : rendered),
      ];
    },
  };
}
