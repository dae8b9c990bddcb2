/**
 * Signals during a run. SIGINT (Ctrl-C) and SIGTERM (a cancelled CI job, `timeout`, `docker stop`) are handled
 * alike: the first aborts the run with a {@link RunInterrupted} naming the signal (reads in flight are abandoned,
 * writes in flight finish so the cleanup ledger knows what they made, cases in flight end `interrupted`), cleanup
 * runs, the reports are written with `complete: false` and the run exits 130 (SIGINT) or 143 (SIGTERM). A second
 * signal quits at once with the same code: it says what the ledger still holds (unidentified resources too, and
 * that a write in flight may have made more) and the `conform cleanup` command that removes it, adds a one-line
 * summary of that as a warning, and writes report.json synchronously with the exit code and the cases still running
 * counted as interrupted (the other reports are written asynchronously and are left unwritten: no promise settles
 * after `process.exit`).
 * @module
 */
import { RunInterrupted } from "../core/errors.ts";
import { ExitCode, type HandledSignal, signalExitCodes } from "../core/exit-codes.ts";
import type { ReporterGroup } from "../reporters/index.ts";
import { type LeftOnLedger, unidentifiedFailure } from "../runner/ledger.ts";

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

const embeddedGone =
  "nothing is left: the target was the embedded reference server, which stops with this process";
const inFlight = "a write in flight may have created something the ledger does not hold yet";

/**
 * What a run quitting at once prints: what the ledger still holds (by path, and what only its label finds), that
 * a write in flight may have made more, and how to remove it all.
 */
export function leftBehindLines(left: LeftBehind, ledger: LeftOnLedger): string[] {
  if (left.baseUrl === undefined) return [embeddedGone];
  const count = ledger.entries.length + ledger.unidentified.length;
  return [
    count === 0 ? "the cleanup ledger is empty" : `left on the target (${count}, from the cleanup ledger):`,
    ...ledger.entries.map((entry) => `  ${entry.description} (DELETE ${entry.deletePath})`),
    ...ledger.unidentified.map((entry) => `  ${unidentifiedFailure(entry)}`),
    `${inFlight}: the command below finds it by label`,
    `remove what the run left (labels starting ${left.prefix}), with the run's token in CONFORM_TOKEN or --token-env: ${cleanupCommandFor(left)}`,
  ];
}

/** The same in one line, for the reports' warnings (the console prints the lines above). */
export function leftBehindSummary(left: LeftBehind, ledger: LeftOnLedger): string {
  if (left.baseUrl === undefined) return `quit before the cleanup ended; ${embeddedGone}`;
  const unidentified = ledger.unidentified.length > 0 ? `, ${ledger.unidentified.length} unidentified` : "";
  return `quit before the cleanup ended: ${ledger.entries.length + ledger.unidentified.length} left on the cleanup ledger${unidentified} (${inFlight}); remove them with ${cleanupCommandFor(left)}`;
}

export interface InterruptionOptions {
  readonly controller: AbortController;
  /** Undefined for a command that creates nothing (`proxy`, `verify`): no cleanup to speak of. */
  readonly left: LeftBehind | undefined;
  /** What the cleanup ledger still holds, read when a second signal comes. */
  readonly ledger: () => LeftOnLedger;
  readonly reporters: ReporterGroup;
  readonly write: (text: string) => void;
  readonly exit: (code: number) => void;
}

/**
 * Handles SIGINT and SIGTERM for one run; answers the function to call once its reports are written, with the
 * run's exit code (undefined when it ended by an error, which is still to be told). Before any signal, that stops
 * handling them. After one, every later signal is handled until the process exits (the default action would kill
 * it by the signal, its exit code lost): the reports are written by then, so it quits at once with the signal's
 * code. And the interrupted run exits there and then: left to wind down by itself, Node closes its signal watchers
 * before the process ends, and a signal in that stretch (milliseconds under load) would kill it by the signal.
 * A run left with nothing to wait on (Node's `beforeExit` while it is pending: a case awaiting what can never
 * settle) would end the process with no verdict (exit 13): it quits as a second signal does, exit 2.
 */
export function handleInterruptions(options: InterruptionOptions): (exitCode?: number) => void {
  const { controller, write } = options;
  let reportsWritten = false;
  /** Quits now, before the run ended: what the ledger holds, report.json written synchronously, the exit. */
  const quitAtOnce = (headline: string, exitCode: number) => {
    if (options.left) {
      const ledger = options.ledger();
      const lines = leftBehindLines(options.left, ledger);
      write(`\nconform: ${headline} before the cleanup ended\n${lines.join("\n")}\n`);
      void options.reporters.emit({ type: "warning", message: leftBehindSummary(options.left, ledger) });
    } else write(`\nconform: ${headline} at once\n`);
    for (const path of options.reporters.abandon(exitCode)) write(`report written: ${path}\n`);
    options.exit(exitCode);
  };
  const onSignal = (signal: HandledSignal) => {
    if (reportsWritten) {
      write(`\nconform: ${signal} again: the reports are written; quitting at once\n`);
      options.exit(signalExitCodes[signal]);
      return;
    }
    if (!controller.signal.aborted) {
      const doing = options.left
        ? "cleaning up what the run created"
        : "writing the reports of what was judged";
      write(
        `\nconform: interrupted (${signal}); ${doing} (${signal === "SIGINT" ? "Ctrl-C" : "a signal"} again quits at once)\n`,
      );
      controller.abort(new RunInterrupted(signal));
      return;
    }
    quitAtOnce(`${signal} again: quitting`, signalExitCodes[signal]);
  };
  const onStalled = () =>
    quitAtOnce(
      "the run stalled, waiting on something that can never happen (a defect: please report it); quitting",
      ExitCode.toolkitError,
    );
  const handlers = { SIGINT: () => onSignal("SIGINT"), SIGTERM: () => onSignal("SIGTERM") } as const;
  for (const [name, handler] of Object.entries(handlers)) process.on(name, handler);
  process.on("beforeExit", onStalled);
  // Taken once these handlers listen, so no signal falls between the hold and them: it acts as if it came now.
  const held = takeHeldSignal();
  if (held) onSignal(held);
  return (exitCode) => {
    reportsWritten = true;
    process.off("beforeExit", onStalled);
    if (!controller.signal.aborted)
      for (const [name, handler] of Object.entries(handlers)) process.off(name, handler);
    else if (exitCode !== undefined) options.exit(exitCode);
  };
}

/**
 * The signal bin/conform.js held while the command loaded (bin/signal-hold.js), if any; it stops holding either
 * way. The hold is found by a registered symbol: bin/ is plain JavaScript, outside the sources and the build.
 */
export function takeHeldSignal(): HandledSignal | undefined {
  const hold: unknown = Reflect.get(process, Symbol.for("conform.signalHold"));
  return isSignalHold(hold) ? hold.take() : undefined;
}

function isSignalHold(value: unknown): value is { take(): HandledSignal | undefined } {
  return typeof value === "object" && value !== null && typeof Reflect.get(value, "take") === "function";
}

/** A word safe to paste into a POSIX shell: as is when plain, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
