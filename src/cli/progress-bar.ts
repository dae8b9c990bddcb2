/**
 * The progress of a `conform fuzz` campaign: the property being checked and how many of its runs are done. On a
 * terminal, one line redrawn in place on stderr (stdout stays the reporters'); elsewhere, and under CI (`CI` set,
 * even on a terminal), one line when a property starts.
 * @module
 */

export interface ProgressStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** `▕██████░░░░░░▏`: `done` of `total` in `width` cells. */
export function renderBar(done: number, total: number, width: number): string {
  const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : 0;
  return `▕${"█".repeat(filled)}${"░".repeat(width - filled)}▏`;
}

export class ProgressBar {
  readonly #stream: ProgressStream;
  readonly #title: string;
  readonly #redraw: boolean;
  #shown = false;

  constructor(stream: ProgressStream, title: string, options: { readonly ci?: boolean } = {}) {
    this.#stream = stream;
    this.#title = title;
    this.#redraw = Boolean(stream.isTTY) && !options.ci;
  }

  /** Run `run` of `of` of the property `label` is done (`run === of`: the property is finished). */
  update(label: string, run: number, of: number): void {
    if (!this.#redraw) {
      if (run === 1) this.#stream.write(`${this.#title}: ${label} (${of} runs)\n`);
      return;
    }
    if (run >= of) {
      this.clear();
      return;
    }
    const counter = `${run}/${of}`;
    const line = `${this.#title} ${renderBar(run, of, 20)} ${counter} ${label}`;
    const width = Math.max(20, (this.#stream.columns ?? 80) - 1);
    this.#stream.write(`\r\u001b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    this.#shown = true;
  }

  /** Removes the line (before anything else prints). */
  clear(): void {
    if (!this.#shown) return;
    this.#stream.write("\r\u001b[2K");
    this.#shown = false;
  }
}
