/**
 * "Eventually" for workflow suites: poll a read until its answer is accepted or a deadline passes, spacing the
 * polls by an interval that also respects the target's rate limits. After every answer the next wait is the
 * larger of the interval and what the `X-RateLimit-Remaining`/`X-RateLimit-Reset` window allows (keeping a few
 * requests in hand for the rest of the case); a 429 waits its `Retry-After`. The HTTP client already paces and
 * retries 429s; this keeps a long wait from spending a whole window on polls in the first place.
 *
 * The outcome says how long the wait took and how many polls it made, so a case can log each transition's time.
 * @module
 */
import type { LiveResponse, PacerClock } from "./contracts.ts";
import { realPacerClock } from "./rate-pacer.ts";
import { retryAfterMs } from "./transport/failures.ts";

export interface EventuallyOptions {
  /** Give up after this long (ms), counting from the first poll. */
  readonly deadlineMs: number;
  /** The least time between two polls (ms). */
  readonly intervalMs: number;
  /** Requests of a rate-limit window left for the rest of the case (default 5). */
  readonly reserve?: number;
  readonly signal?: AbortSignal;
  readonly clock?: PacerClock;
  /** Sees every answer (e.g. to record the states passed through). */
  readonly onPoll?: (response: LiveResponse, elapsedMs: number) => void;
}

export interface EventuallyOutcome {
  /** True when an answer was accepted before the deadline. */
  readonly ok: boolean;
  /** Why it stopped without success. */
  readonly reason?: "deadline" | "aborted";
  /** The last answer (the accepted one when ok). */
  readonly last: LiveResponse | undefined;
  readonly elapsedMs: number;
  readonly polls: number;
}

/** How long to wait before the next poll, given the last answer's headers (lower-cased names). */
export function pollDelay(
  response: Pick<LiveResponse, "status" | "headers">,
  now: number,
  intervalMs: number,
  reserve = 5,
): number {
  if (response.status === 429) {
    return Math.max(intervalMs, retryAfterMs(response.headers["retry-after"], now) ?? 1_000);
  }
  const remaining = Number(response.headers["x-ratelimit-remaining"]);
  const resetHeader = response.headers["x-ratelimit-reset"];
  const resetAt = Number(resetHeader) * 1000;
  if (
    resetHeader === undefined ||
    !Number.isFinite(remaining) ||
    !Number.isFinite(resetAt) ||
    resetAt <= now
  ) {
    return intervalMs;
  }
  const budget = remaining - reserve;
  // Window spent (but for the reserve): wait for it to reset.
  if (budget <= 0) return Math.max(intervalMs, resetAt - now);
  return Math.max(intervalMs, Math.ceil((resetAt - now) / budget));
}

/** Polls until `accept` says yes, the deadline passes, or the signal aborts. Transport errors propagate. */
export async function eventually(
  poll: () => Promise<LiveResponse>,
  accept: (response: LiveResponse) => boolean,
  options: EventuallyOptions,
): Promise<EventuallyOutcome> {
  const clock = options.clock ?? realPacerClock;
  const started = clock.now();
  let polls = 0;
  let last: LiveResponse | undefined;
  for (;;) {
    if (options.signal?.aborted) {
      return { ok: false, reason: "aborted", last, elapsedMs: clock.now() - started, polls };
    }
    last = await poll();
    polls += 1;
    const now = clock.now();
    options.onPoll?.(last, now - started);
    if (accept(last)) return { ok: true, last, elapsedMs: now - started, polls };
    const left = started + options.deadlineMs - now;
    if (left <= 0) return { ok: false, reason: "deadline", last, elapsedMs: now - started, polls };
    // The last poll lands on the deadline rather than after it.
    await clock.sleep(
      Math.min(left, pollDelay(last, now, options.intervalMs, options.reserve)),
      options.signal,
    );
  }
}

/** `1.23 s` or `850 ms`, for logs of how long a transition took. */
export function formatDuration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
