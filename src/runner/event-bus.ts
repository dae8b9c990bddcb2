/**
 * Delivers run events to listeners in order. A listener may be async (a reporter writing a file): while one of
 * its calls is pending, its next events wait in a chain behind it, so it sees events in order without holding
 * the engine back. A listener with nothing pending is called at once (the common case: a dozen events per
 * request, and a promise for each would cost more than the listeners). `flush()` waits for every chain; a
 * listener's failure, thrown or rejected, is kept and rethrown there, never lost.
 * @module
 */
import type { RunEvent } from "../core/events.ts";

export type RunListener = (event: RunEvent) => void | Promise<void>;

interface Subscription {
  readonly listener: RunListener;
  /** The listener's unfinished calls, chained; undefined when it has none. */
  pending: Promise<void> | undefined;
}

export class EventBus {
  readonly #subscriptions: Subscription[] = [];
  readonly #failures: unknown[] = [];

  subscribe(listener: RunListener): void {
    this.#subscriptions.push({ listener, pending: undefined });
  }

  emit(event: RunEvent): void {
    for (const subscription of this.#subscriptions) {
      if (subscription.pending) {
        this.#wait(
          subscription,
          subscription.pending.then(() => subscription.listener(event)),
        );
        continue;
      }
      let returned: void | Promise<void>;
      try {
        returned = subscription.listener(event);
      } catch (error) {
        this.#failures.push(error);
        continue;
      }
      if (returned) this.#wait(subscription, returned);
    }
  }

  async flush(): Promise<void> {
    // Waiting may not be enough once: a chain may have grown while an earlier one settled.
    while (this.#subscriptions.some((subscription) => subscription.pending)) {
      await Promise.all(this.#subscriptions.map((subscription) => subscription.pending));
    }
    if (this.#failures.length > 0) throw this.#failures[0];
  }

  /** Makes `call` the subscription's pending chain; it never rejects, and clears itself when it is the last. */
  #wait(subscription: Subscription, call: Promise<void>): void {
    const chain: Promise<void> = call.then(
      () => this.#settled(subscription, chain),
      (error: unknown) => {
        this.#failures.push(error);
        this.#settled(subscription, chain);
      },
    );
    subscription.pending = chain;
  }

  #settled(subscription: Subscription, chain: Promise<void>): void {
    if (subscription.pending === chain) subscription.pending = undefined;
  }
}
