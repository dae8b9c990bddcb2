/**
 * Delivers run events to listeners in order. A listener may be async (a reporter writing a file): each
 * listener's calls are chained so it sees events in order without holding the engine back; `flush()` waits
 * for all of them, and a listener's failure is kept and rethrown there, never lost.
 * @module
 */
import type { RunEvent } from "../core/events.ts";

export type RunListener = (event: RunEvent) => void | Promise<void>;

export class EventBus {
  readonly #listeners: { listener: RunListener; chain: Promise<void> }[] = [];
  readonly #failures: unknown[] = [];

  subscribe(listener: RunListener): void {
    this.#listeners.push({ listener, chain: Promise.resolve() });
  }

  emit(event: RunEvent): void {
    for (const entry of this.#listeners) {
      entry.chain = entry.chain
        .then(() => entry.listener(event))
        .catch((error: unknown) => {
          this.#failures.push(error);
        });
    }
  }

  async flush(): Promise<void> {
    await Promise.all(this.#listeners.map((entry) => entry.chain));
    if (this.#failures.length > 0) throw this.#failures[0];
  }
}
