/**
 * Waiting inside a case: a pause that ends early when the run is interrupted, and "eventually" waits that poll
 * the target within a deadline chosen by target (the embedded server runs fast, a real cloud slowly), assert the
 * transition happened and log how long it took. Settings: `suiteOptions.workflows.deadlineMs` and `.pollMs`.
 * @module
 */
import { eventually, formatDuration } from "../runner/eventually.ts";
import type { LiveResponse } from "../runner/http-client.ts";
import { isLoopbackTarget } from "../runner/listen-drivers/index.ts";
import type { CaseContext } from "../runner/suite-api.ts";

/** Waits `ms` (or until the run is interrupted). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

interface WaitTimes {
  /** How long a transition may take before the step fails. */
  readonly deadlineMs: number;
  /** The least time between two polls. */
  readonly pollMs: number;
}

/**
 * Deadlines by target: the embedded server runs 50 times faster than real time; a loopback server is a reference
 * server or an emulator; a real cloud's balancers take tens of seconds.
 */
function waitTimes(t: CaseContext): WaitTimes {
  const raw = (t.options.workflows ?? {}) as Record<string, unknown>;
  const positive = (key: string) =>
    typeof raw[key] === "number" && raw[key] > 0 ? (raw[key] as number) : undefined;
  const loopback = isLoopbackTarget(t.target);
  return {
    deadlineMs: positive("deadlineMs") ?? (t.target.embedded ? 5_000 : loopback ? 60_000 : 300_000),
    pollMs: positive("pollMs") ?? (t.target.embedded ? 25 : loopback ? 200 : 3_000),
  };
}

export interface WaitOptions {
  /** Called with each answer polled. */
  readonly onPoll?: (response: LiveResponse) => void;
  /** false: a wait that does not happen is only logged (something the description does not promise). */
  readonly required?: boolean;
}

/**
 * Waits for `accept` on `poll`'s answers within the run's deadline, asserting it happened (named `name`) and
 * logging how long the transition took. Answers the last answer when it happened.
 */
export async function waitFor(
  t: CaseContext,
  name: string,
  poll: () => Promise<LiveResponse>,
  accept: (response: LiveResponse) => boolean,
  describe: (response: LiveResponse | undefined) => string,
  options: WaitOptions = {},
): Promise<LiveResponse | undefined> {
  const { deadlineMs, pollMs } = waitTimes(t);
  const outcome = await eventually(poll, accept, {
    deadlineMs,
    intervalMs: pollMs,
    signal: t.signal,
    ...(options.onPoll ? { onPoll: options.onPoll } : {}),
  });
  const took = `${formatDuration(outcome.elapsedMs)}, ${outcome.polls} poll${outcome.polls === 1 ? "" : "s"}`;
  const missed = `not within ${formatDuration(deadlineMs)}`;
  if (outcome.ok) t.log(`${name}: after ${took}`);
  else t.log(`${name}: ${missed} (${took}); last seen ${describe(outcome.last)}`);
  if (options.required !== false || outcome.reason === "aborted") {
    t.expect(name, outcome.ok, {
      expected: name,
      actual: describe(outcome.last),
      message: outcome.ok
        ? name
        : `${name}: ${missed} (${outcome.reason}); last seen ${describe(outcome.last)}`,
      ...(outcome.last ? { response: outcome.last } : {}),
    });
  }
  return outcome.ok ? outcome.last : undefined;
}
