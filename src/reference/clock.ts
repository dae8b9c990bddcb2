/**
 * Time for the reference server: a clock that tests can move by hand, and a time scale that shrinks the
 * server's own delays (boot, health-check interval) so a workflow runs in seconds instead of minutes.
 * @module
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/** A clock that only moves when told: for expiry and rate-limit windows in tests. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}
