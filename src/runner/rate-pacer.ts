/**
 * Pacing so a run does not provoke 429s: with a fixed budget, requests are spaced evenly (N per second); in
 * `auto`, the pacer learns each rate-limit window from `X-RateLimit-Remaining`/`Reset` answers and, when a window
 * is spent, holds the next requests of that window until it resets. A wait of a second or more is announced
 * (`onWait`) once per window, so a person watching knows why nothing moves.
 *
 * Windows are per limit class as the target reports it: a target limits a kind of endpoint per caller (the
 * description: dedicated limits for paginated lists and instance creation, a general one for the rest), so the
 * answers of one caller (the part of the key after NUL) that carry the same `X-RateLimit-Limit` are one window,
 * which every operation answered so shares: requests to any of them spend it, and a window learnt from one holds
 * them all. An operation joins its class with its first answer (the headers do not say the class of an operation
 * not yet sent, so that first request goes unpaced); an answer without `X-RateLimit-Limit` keeps a window of its
 * operation alone. When a class's window has passed, its next window is taken to hold `Limit` requests until an
 * answer tells its reset: requests held for the reset go at once, up to the limit, never idle while it has room.
 * What an answer says remains is less the class's requests still in flight (sent after the target counted, or not
 * yet answered), so concurrent requests never overshoot a window.
 *
 * Shards (`--shard i/n`) sharing one token run in `n` processes that each see the target's shared remaining count,
 * not each other's requests. With `share` n, a process counts its own part of a window only: `floor(remaining / n)`
 * of what the target says remains (`floor(limit / n)` of a new window), less its requests of that class still in
 * flight, so the shards together stay within the window without talking to each other.
 * @module
 */
import { WaitTooLongError } from "../core/errors.ts";
import type { PacerClock, RatePolicy, WaitListener } from "./contracts.ts";

/** One limit class's window, shared by the operations the target answered with it. */
interface WindowState {
  remaining: number;
  /** Epoch ms; NaN while the window that follows a passed one has not been answered yet. */
  resetAt: number;
  /** `X-RateLimit-Limit`, when given. */
  readonly limit: number | undefined;
  /** The pacing keys (operation and caller) this window counts. */
  readonly keys: Set<string>;
  /** Requests held for this window's reset, to count in the next window. */
  heldForNext: number;
}

/** How long a request held for a new window's first answer waits before looking again. */
const unansweredWindowPollMs = 50;
/** Sent this long after a window's `Reset`: the target's clock and ours may differ a little. */
const resetMarginMs = 50;

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

/** Waits shorter than this are not announced: they are pacing, not a stall. */
export const announcedWaitMs = 1000;

export class RatePacer {
  /** The window each pacing key counts against. */
  readonly #windows = new Map<string, WindowState>();
  /** Windows of limit classes, by caller and limit. */
  readonly #classes = new Map<string, WindowState>();
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
  /** Requests acquired and not yet settled, per pacing key. */
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
    if (window) {
      if (window.resetAt <= now && window.limit !== undefined) {
        // The window passed: the next one holds the limit (less what was held for it) until an answer says more.
        window.remaining = Math.floor(window.limit / this.#share) - window.heldForNext;
        window.heldForNext = 0;
        window.resetAt = Number.NaN;
      }
      if (Number.isNaN(window.resetAt) && window.remaining <= 0) {
        // A new window spent by requests still unanswered: its first answer tells when it resets.
        if (this.#inFlightOf(window) > 0) return this.#later(key, unansweredWindowPollMs, signal);
        window.remaining = Math.floor((window.limit ?? 1) / this.#share);
      }
      if (window.resetAt > now && window.remaining <= 0 && window.resetAt - now + resetMarginMs > wait) {
        wait = window.resetAt - now + resetMarginMs;
        reason = "window";
        // A window resetting in an hour (or in 2100) must not hold the run: the request fails, saying so.
        if (wait > this.#maxWaitMs) {
          this.#admit(key);
          return Promise.reject(
            new WaitTooLongError(
              `the rate-limit window of ${key.split("\u0000")[0]} is spent and resets in ${secondsText(wait)} (X-RateLimit-Reset), beyond the ${secondsText(this.#maxWaitMs)} ceiling (--max-wait)`,
            ),
          );
        }
        // Held until the reset and counted in the window that follows; when that one is full already, held
        // until then and looked at again.
        if (window.limit !== undefined && window.heldForNext >= Math.floor(window.limit / this.#share))
          return this.#later(key, wait, signal);
        if (window.limit !== undefined) window.heldForNext += 1;
      } else if (!(window.resetAt <= now)) window.remaining -= 1;
    }
    this.#admit(key);
    if (wait <= 0) return undefined;
    this.waitedMs += wait;
    this.#announce(key, wait, reason, window, now);
    return this.#clock.sleep(wait, signal);
  }

  /** The request goes (or is failed): counted in flight until `settle`. */
  #admit(key: string): void {
    this.#inFlight.set(key, (this.#inFlight.get(key) ?? 0) + 1);
  }

  /** Waits `wait`, then acquires again (the window's state will have changed meanwhile). */
  async #later(key: string, wait: number, signal?: AbortSignal): Promise<void> {
    this.waitedMs += wait;
    await this.#clock.sleep(wait, signal);
    if (signal?.aborted) return this.#admit(key);
    return this.acquire(key, signal);
  }

  #announce(
    key: string,
    wait: number,
    reason: "window" | "budget",
    window: WindowState | undefined,
    now: number,
  ): void {
    if (!this.#onWait || wait < announcedWaitMs) return;
    if (reason === "window") {
      // Once per window, whichever of its operations waits first.
      const id = [...(window?.keys ?? [key])][0] ?? key;
      if (this.#announced.get(id) === window?.resetAt) return;
      this.#announced.set(id, window?.resetAt ?? 0);
      this.#onWait(key, wait, reason);
    } else if (now >= this.#budgetAnnounced) {
      this.#budgetAnnounced = now + wait;
      this.#onWait(key, wait, reason);
    }
  }

  /** Learns from an answer's rate-limit headers (lower-cased names). */
  observe(key: string, headers: Readonly<Record<string, string>>): void {
    const remaining = Number(headers["x-ratelimit-remaining"]);
    const reset = Number(headers["x-ratelimit-reset"]);
    if (!Number.isInteger(remaining) || !Number.isInteger(reset)) return;
    const limitHeader = Number(headers["x-ratelimit-limit"]);
    const limit = Number.isInteger(limitHeader) && limitHeader > 0 ? limitHeader : undefined;
    const window = this.#windowOf(key, limit);
    const resetAt = reset * 1000;
    // An answer of a window already passed (a late one) says nothing of the current one.
    if (resetAt <= this.#clock.now()) return;
    // This request is still in flight (settled after this): the others of the class may not be counted yet.
    const own = Math.floor(remaining / this.#share) - Math.max(0, this.#inFlightOf(window) - 1);
    if (Number.isNaN(window.resetAt) || resetAt > window.resetAt) {
      // A newer window: what it has left, less the requests in flight (those held for it among them).
      window.resetAt = resetAt;
      window.remaining = own;
      window.heldForNext = 0;
    } else if (resetAt === window.resetAt) window.remaining = Math.min(window.remaining, own);
  }

  /** The window `key` counts against, given its answer's limit: its class's, joined now if it was elsewhere. */
  #windowOf(key: string, limit: number | undefined): WindowState {
    const current = this.#windows.get(key);
    // Every answer asks: a key whose window has this limit is in its class already (a class's window is made with
    // its limit, and a key's caller never changes), so no class key is built.
    if (current !== undefined && current.limit === limit) return current;
    const classKey = limit === undefined ? `\u0001${key}` : `${callerPartOf(key)}\u0000${limit}`;
    let window = this.#classes.get(classKey);
    if (window === current && window) return window;
    if (!window) {
      window = { remaining: 0, resetAt: Number.NaN, limit, keys: new Set(), heldForNext: 0 };
      this.#classes.set(classKey, window);
    }
    current?.keys.delete(key);
    window.keys.add(key);
    this.#windows.set(key, window);
    return window;
  }

  #inFlightOf(window: WindowState): number {
    let count = 0;
    for (const key of window.keys) count += this.#inFlight.get(key) ?? 0;
    return count;
  }

  /** A request `acquire` let through has its answer (or failed): it no longer counts as in flight. */
  settle(key: string): void {
    const left = (this.#inFlight.get(key) ?? 0) - 1;
    if (left > 0) this.#inFlight.set(key, left);
    else this.#inFlight.delete(key);
  }
}

/** The caller part of a pacing key (`<operation>\u0000<caller>`): the token's limits span its operations. */
function callerPartOf(key: string): string {
  const at = key.indexOf("\u0000");
  return at < 0 ? "" : key.slice(at + 1);
}

/** `61.4 s`, `90 s`: a tenth of a second shown where it tells a wait from its ceiling. */
function secondsText(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? `${seconds} s` : `${seconds.toFixed(1)} s`;
}
