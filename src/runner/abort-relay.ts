/**
 * An AbortSignal's abort, relayed through an EventEmitter, which undici takes as a request's `signal` (its
 * documented `AbortSignal | EventEmitter`). Every request of a run shares the run's signal, and undici adds a
 * listener for each and removes it when the answer ends: on an AbortSignal (an EventTarget) that is several µs
 * of every request (`npm run bench:profile`), on an EventEmitter a fraction of it. One relay per signal.
 * @module
 */
import { EventEmitter } from "node:events";

/**
 * What undici sees. It has no `aborted` property on purpose: undici hands anything with one to Node's
 * `addAbortListener`, which accepts AbortSignals only. The client never starts a request on an aborted signal
 * (it checks first), so undici needs only the event, and the reason it reads when the event comes.
 */
export class AbortRelay extends EventEmitter {
  readonly #signal: AbortSignal;

  constructor(signal: AbortSignal) {
    super();
    this.#signal = signal;
    // One listener per request in flight: many is not a leak.
    this.setMaxListeners(0);
    signal.addEventListener("abort", () => this.emit("abort"), { once: true });
  }

  /** The signal's reason: undici reads it when the relayed abort arrives. */
  get reason(): unknown {
    return this.#signal.reason;
  }
}

const relays = new WeakMap<AbortSignal, AbortRelay>();

/** The relay of `signal`, made on first use and kept as long as the signal lives. */
export function abortRelayOf(signal: AbortSignal): AbortRelay {
  let relay = relays.get(signal);
  if (!relay) {
    relay = new AbortRelay(signal);
    relays.set(signal, relay);
  }
  return relay;
}
