/**
 * Errors no suite awaited: a promise rejected with nothing to catch it, or a throw in a timer callback. Node would
 * end the process (exit 1, no report, no cleanup); during a run's suites they are caught here instead, and every
 * case running when one came ends errored with `SUITE_UNHANDLED_ERROR` (with suites running concurrently the
 * process cannot tell whose it was: the message says how many cases were running).
 * @module
 */

export interface StrayError {
  /** How many strays came before this one (a case compares it with the count when it started). */
  readonly index: number;
  readonly message: string;
}

export class StrayErrors {
  #count = 0;
  #last: StrayError | undefined;
  /** Cases running now. */
  running = 0;

  /** How many strays came so far. */
  get count(): number {
    return this.#count;
  }

  /** The last stray, when one came after `count` strays (the count a case saw when it started). */
  since(count: number): StrayError | undefined {
    return this.#count > count ? this.#last : undefined;
  }

  /** Records one stray error. */
  add(error: unknown): void {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.#last = { index: this.#count, message: `${text} (${this.running} case(s) were running)` };
    this.#count += 1;
  }

  /** Catches the process's unhandled rejections and uncaught exceptions until the answered function is called. */
  install(): () => void {
    const onError = (error: unknown) => this.add(error);
    process.on("unhandledRejection", onError);
    process.on("uncaughtException", onError);
    return () => {
      process.off("unhandledRejection", onError);
      process.off("uncaughtException", onError);
    };
  }
}
