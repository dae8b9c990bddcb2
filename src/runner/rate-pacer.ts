/**
 * Pacing so a run does not provoke 429s: with a fixed budget, requests are spaced evenly (N per second); in
 * `auto`, the pacer learns each rate-limit window from `X-RateLimit-Remaining`/`Reset` answers and, when a window
 * is spent, holds the next requests of that window until it resets. Windows are keyed by operation, as targets
 * apply dedicated limits per kind of endpoint. A wait of a second or more is announced (`onWait`) once per window,
 * so a person watching knows why nothing moves.
 *
 * Shards (`--shard i/n`) sharing one token run in `n` processes that each see the target's shared remaining count,
 * not each other's requests. With `share` n, a process counts its own part of a window only: `floor(remaining / n)`
 * of what the target says remains, less its requests of that caller still in flight (sent after the target counted,
 * or not yet answered), so the shards together stay within the window without talking to each other.
 * @module
 */
import { WaitTooLongError } from "../core/errors.ts";
import type { RatePolicy } from "./config.ts";

interface WindowState {
  remaining: number;
  /** Epoch ms. */
  resetAt: number;
  /** `X-RateLimit-Limit`, when given: windows of one caller with the same limit and reset are one rule. */
  limit?: number;
}

export interface PacerClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realPacerClock: PacerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
};

/** Told of a wait worth saying (a second or more): the pacing key, how long, and why. */
export type WaitListener = (key: string, waitMs: number, reason: "window" | "budget") => void;

/** Waits shorter than this are not announced: they are pacing, not a stall. */
export const announcedWaitMs = 1000;

export class RatePacer {
  readonly #windows = new Map<string, WindowState>();
  /** The window (its reset time) last announced per key, so concurrent requests announce it once. */
  readonly #announced = new Map<string, number>();
  #budgetAnnounced = 0;
  readonly #onWait: WaitListener | undefined;
  #nextSlot = 0;
  /** Total milliseconds spent waiting, for the report. */
  waitedMs = 0;
  readonly #policy: RatePolicy;
  readonly #clock: PacerClock;
  readonly #maxWaitMs: number;
  readonly #share: number;
  /** Requests acquired and not yet settled, per caller (the part of the key after NUL), for `share` > 1. */
  readonly #inFlight = new Map<string, number>();

  /**
   * `maxWaitMs`: the longest wait for a spent window; a window resetting later fails the request (`--max-wait`).
   * `share`: how many processes (shards) share the target's limits for the same token (default 1).
   */
  constructor(
    policy: RatePolicy,
    clock: PacerClock = realPacerClock,
    onWait?: WaitListener,
    maxWaitMs = Number.POSITIVE_INFINITY,
    share = 1,
  ) {
    this.#policy = policy;
    this.#clock = clock;
    this.#onWait = onWait;
    this.#maxWaitMs = maxWaitMs;
    this.#share = Math.max(1, Math.floor(share));
  }

  /**
   * Waits until a request to `key` may go: undefined when it may go at once (no promise to await, the usual case);
   * rejects with a WaitTooLongError when the wait would pass the ceiling. Ends early when `signal` aborts.
   */
  acquire(key: string, signal?: AbortSignal): Promise<void> | undefined {
    if (this.#share > 1) this.#inFlight.set(callerOf(key), (this.#inFlight.get(callerOf(key)) ?? 0) + 1);
    let wait = 0;
    let reason: "window" | "budget" = "budget";
    const now = this.#clock.now();
    if (this.#policy.kind === "fixed") {
      const spacing = 1000 / this.#policy.perSecond;
      const slot = Math.max(now, this.#nextSlot);
      this.#nextSlot = slot + spacing;
      wait = slot - now;
    }
    const window = this.#windows.get(key);
    if (window && window.resetAt > now) {
      if (window.remaining <= 0 && window.resetAt - now + 50 > wait) {
        wait = window.resetAt - now + 50;
        reason = "window";
        // A window resetting in an hour (or in 2100) must not hold the run: the request fails, saying so.
        if (wait > this.#maxWaitMs)
          return Promise.reject(
            new WaitTooLongError(
              `the rate-limit window of ${key.split("\u0000")[0]} is spent and resets in ${Math.round(wait / 1000)} s (X-RateLimit-Reset), beyond the ${Math.round(this.#maxWaitMs / 1000)} s ceiling (--max-wait)`,
            ),
          );
      }
      // Count the request against the window before the answer comes, so concurrent requests see it.
      window.remaining -= 1;
      if (this.#share > 1 && window.limit !== undefined)
        for (const [other, state] of this.#windows)
          if (other !== key && this.#sameRule(other, state, key, window)) state.remaining -= 1;
    }
    if (wait <= 0) return undefined;
    this.waitedMs += wait;
    if (this.#onWait && wait >= announcedWaitMs) {
      if (reason === "window" && this.#announced.get(key) !== window?.resetAt) {
        this.#announced.set(key, window?.resetAt ?? 0);
        this.#onWait(key, wait, reason);
      } else if (reason === "budget" && now >= this.#budgetAnnounced) {
        this.#budgetAnnounced = now + wait;
        this.#onWait(key, wait, reason);
      }
    }
    return this.#clock.sleep(wait, signal);
  }

  /** Learns from an answer's rate-limit headers (lower-cased names). */
  observe(key: string, headers: Readonly<Record<string, string>>): void {
    const remaining = Number(headers["x-ratelimit-remaining"]);
    const reset = Number(headers["x-ratelimit-reset"]);
    if (!Number.isInteger(remaining) || !Number.isInteger(reset)) return;
    if (this.#share <= 1) {
      this.#windows.set(key, { remaining, resetAt: reset * 1000 });
      return;
    }
    const caller = callerOf(key);
    const own = Math.floor(remaining / this.#share) - Math.max(0, (this.#inFlight.get(caller) ?? 0) - 1);
    const limit = Number(headers["x-ratelimit-limit"]);
    const window: WindowState = { remaining: own, resetAt: reset * 1000 };
    if (Number.isInteger(limit)) window.limit = limit;
    this.#windows.set(key, window);
    // A target limits a kind of endpoint, not one operation: this caller's windows with the same limit and reset
    // are the same rule, and learn what it has left (the other shards spend it too).
    if (window.limit === undefined) return;
    for (const [other, state] of this.#windows)
      if (other !== key && this.#sameRule(other, state, key, window))
        state.remaining = Math.min(state.remaining, own);
  }

  #sameRule(key: string, state: WindowState, otherKey: string, other: WindowState): boolean {
    return (
      state.limit !== undefined &&
      state.limit === other.limit &&
      state.resetAt === other.resetAt &&
      callerOf(key) === callerOf(otherKey)
    );
  }

  /** A request `acquire` let through has its answer (or failed): it no longer counts as in flight. */
  settle(key: string): void {
    if (this.#share <= 1) return;
    const caller = callerOf(key);
    const left = (this.#inFlight.get(caller) ?? 0) - 1;
    if (left > 0) this.#inFlight.set(caller, left);
    else this.#inFlight.delete(caller);
  }
}

/** The caller part of a pacing key (`<operation>\u0000<caller>`): the token's limits span its operations. */
function callerOf(key: string): string {
  const at = key.indexOf("\u0000");
  return at < 0 ? "" : key.slice(at + 1);
}
