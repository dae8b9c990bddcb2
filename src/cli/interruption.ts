/**
 * Signals during a run. SIGINT (Ctrl-C) and SIGTERM (a cancelled CI job, `timeout`, `docker stop`) are handled
 * alike: the first aborts the run with a {@link RunInterrupted} naming the signal (reads in flight are abandoned,
 * writes in flight finish so the cleanup ledger knows what they made, cases in flight end `interrupted`), cleanup
 * runs, the reports are written with `complete: false` and the run exits 130 (SIGINT) or 143 (SIGTERM). A second
 * signal quits at once with the same code: it says what the ledger still holds and the `conform cleanup` command
 * that removes it, adds that as a warning to report.json and writes report.json synchronously (the other reports
 * are written asynchronously and are left unwritten: no promise settles after `process.exit`).
 * @module
 */
import { RunInterrupted } from "../core/errors.ts";
import { type HandledSignal, signalExitCodes } from "../core/exit-codes.ts";
import type { ReporterGroup } from "../reporters/index.ts";
import type { LedgerEntry } from "../runner/ledger.ts";

export interface LeftBehind {
  /** The target's base URL, or undefined for the embedded reference server (it goes with the process). */
  readonly baseUrl: string | undefined;
  /** The label stem of the run's resources (`conform-ab12cd`), its `--prefix` for `conform cleanup`. */
  readonly prefix: string;
  readonly caFile?: string | undefined;
  readonly insecure?: boolean;
}

/** The `conform cleanup` command that removes what this run left on its target (its token as the run had it). */
export function cleanupCommandFor(left: LeftBehind): string {
  const trust = left.caFile ? ` --ca ${shellWord(left.caFile)}` : left.insecure ? " --insecure" : "";
  return `conform cleanup --base-url ${shellWord(left.baseUrl ?? "")} --prefix ${left.prefix}${trust}`;
}

/** What a run quitting at once prints: what the ledger still holds, and how to remove it (and anything unrecorded). */
export function leftBehindLines(left: LeftBehind, entries: readonly LedgerEntry[]): string[] {
  if (left.baseUrl === undefined)
    return ["nothing is left: the target was the embedded reference server, which stops with this process"];
  const listed = entries.map((entry) => `  ${entry.description} (DELETE ${entry.deletePath})`);
  return [
    entries.length === 0
      ? "the cleanup ledger is empty (a write in flight may still have created something)"
      : `left on the target (${entries.length}, from the cleanup ledger):`,
    ...listed,
    `remove what the run left (labels starting ${left.prefix}), with the run's token in CONFORM_TOKEN or --token-env: ${cleanupCommandFor(left)}`,
  ];
}

export interface InterruptionOptions {
  readonly controller: AbortController;
  readonly left: LeftBehind;
  /** What the cleanup ledger still holds, read when a second signal comes. */
  readonly entries: () => readonly LedgerEntry[];
  readonly reporters: ReporterGroup;
  readonly write: (text: string) => void;
  readonly exit: (code: number) => void;
}

/** Handles SIGINT and SIGTERM for one run; answers the function that stops handling them. */
export function handleInterruptions(options: InterruptionOptions): () => void {
  const { controller, write } = options;
  const onSignal = (signal: HandledSignal) => {
    if (!controller.signal.aborted) {
      write(
        `\nconform: interrupted (${signal}); cleaning up what the run created (${signal === "SIGINT" ? "Ctrl-C" : "a signal"} again quits at once)\n`,
      );
      controller.abort(new RunInterrupted(signal));
      return;
    }
    const lines = leftBehindLines(options.left, options.entries());
    write(`\nconform: ${signal} again: quitting before the cleanup ended\n${lines.join("\n")}\n`);
    void options.reporters.emit({
      type: "warning",
      message: `quit before the cleanup ended: ${lines.join("; ")}`,
    });
    for (const path of options.reporters.abandon()) write(`report written: ${path}\n`);
    options.exit(signalExitCodes[signal]);
  };
  const handlers = { SIGINT: () => onSignal("SIGINT"), SIGTERM: () => onSignal("SIGTERM") } as const;
  for (const [name, handler] of Object.entries(handlers)) process.on(name, handler);
  return () => {
    for (const [name, handler] of Object.entries(handlers)) process.off(name, handler);
  };
}

/** A word safe to paste into a POSIX shell: as is when plain, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
