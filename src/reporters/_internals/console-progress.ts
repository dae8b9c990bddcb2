/**
 * The console's live part: lines printed as the run goes, and on a terminal (never under CI) a progress bar that
 * a printed line clears first; a case waiting on a slow answer shows on the bar, or in a line per minute where
 * there is no bar.
 * @internal
 */
import type { Writable } from "node:stream";
import type { Paint } from "./console-paint.ts";
import { formatDuration } from "./durations.ts";
import { terminalSafe } from "./text.ts";
import { WaitingCases } from "./waiting-cases.ts";

/** On the progress bar, a case is shown waiting once it has had no answer for this long. */
const barWaitMs = 3000;

export interface ProgressOptions {
  readonly stream: Writable;
  readonly paint: Paint;
  /** A bar only on a terminal and never under CI. */
  readonly bar: boolean;
  /** Minimum time between two redraws, in ms. */
  readonly intervalMs: number;
  /** Delay before the bar first shows, in ms (short runs never see it). */
  readonly delayMs: number;
  /** Without a bar, a line per case per this long without an answer, in ms. */
  readonly noticeMs: number;
  /** How often to look for a case waiting on an answer, in ms. */
  readonly tickMs: number;
  readonly now: () => number;
}

export class ConsoleProgress {
  readonly waiting = new WaitingCases();
  readonly #options: ProgressOptions;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #planned = 0;
  #done = 0;
  #failed = 0;
  #startedAt = 0;
  #lastDraw = Number.NEGATIVE_INFINITY;
  #shown = false;
  #suite = "";
  /** Until when a rate-limit wait the run announced holds requests back (a quiet case is then not the target's). */
  #pacedUntil = Number.NEGATIVE_INFINITY;

  constructor(options: ProgressOptions) {
    this.#options = options;
  }

  /** The run started with `planned` cases: the bar counts them, the ticker watches for slow answers. */
  start(planned: number): void {
    this.#startedAt = this.#options.now();
    this.#planned = planned;
    this.#ticker ??= setInterval(() => this.#showWaiting(), this.#options.tickMs);
    // The run's own work keeps the process alive; this only watches it.
    this.#ticker.unref?.();
  }

  suite(id: string): void {
    this.#suite = id;
  }

  /** The run announced a rate-limit wait of `waitMs` from now. */
  paced(waitMs: number): void {
    this.#pacedUntil = Math.max(this.#pacedUntil, this.#options.now() + waitMs);
  }

  /** How long a case has been quiet: "no answer" blames the target, wrong while the run itself holds requests. */
  #quiet(quietMs: number, now: number): string {
    return now <= this.#pacedUntil
      ? `quiet for ${formatDuration(quietMs)}, during a rate-limit wait`
      : `no answer for ${formatDuration(quietMs)}`;
  }

  caseDone(failed: boolean): void {
    this.#done += 1;
    if (failed) this.#failed += 1;
    this.draw();
  }

  stop(): void {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    this.waiting.clear();
  }

  /** Prints a line, clearing the bar first (the next draw brings it back). */
  print(line: string): void {
    this.clear();
    this.#options.stream.write(`${line}\n`);
  }

  clear(): void {
    if (!this.#shown) return;
    this.#options.stream.write("\r\u001b[2K");
    this.#shown = false;
  }

  draw(force = false): void {
    const { paint, bar: enabled, stream } = this.#options;
    if (!enabled || this.#planned === 0) return;
    const time = this.#options.now();
    if (time - this.#startedAt < this.#options.delayMs) return;
    if (!force && time - this.#lastDraw < this.#options.intervalMs) return;
    this.#lastDraw = time;
    const width = 24;
    const filled = Math.round(Math.min(1, this.#done / this.#planned) * width);
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
    const failed = this.#failed > 0 ? paint("red", ` · ${this.#failed} failed`) : "";
    const slow = this.waiting.longest(time, barWaitMs);
    const where = slow
      ? paint("yellow", ` · ${terminalSafe(slow.label, true)}: ${this.#quiet(slow.quietMs, time)}`)
      : this.#suite
        ? paint("gray", ` · ${terminalSafe(this.#suite, true)}`)
        : "";
    stream.write(`\r\u001b[2K${paint("cyan", bar)} ${this.#done}/${this.#planned} cases${failed}${where}`);
    this.#shown = true;
  }

  #showWaiting(): void {
    if (this.#options.bar) {
      this.draw(true);
      return;
    }
    const now = this.#options.now();
    for (const slow of this.waiting.due(now, this.#options.noticeMs))
      this.print(
        this.#options.paint(
          "gray",
          `⏳ still running: ${terminalSafe(slow.label, true)}: ${this.#quiet(slow.quietMs, now)}`,
        ),
      );
  }
}
