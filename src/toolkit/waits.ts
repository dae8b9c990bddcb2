/**
 * Waiting inside a case: a pause that ends early when the run is interrupted, and "eventually" waits that poll
 * the target within a deadline chosen by target (the embedded server runs fast, a real cloud slowly), assert the
 * transition happened and log how long it took. Settings: `suiteOptions.workflows.deadlineMs` and `.pollMs`.
 * @module
 */

import type { LiveResponse } from "../runner/contracts.ts";
import { eventually, formatDuration } from "../runner/eventually.ts";
import { isLoopbackTarget } from "../runner/listen-drivers/index.ts";
import { type CaseContext, sharedKey } from "../runner/suite-api.ts";

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
 * Tells whether a target is static (a spec-driven mock): through a whole deadline every answer polled had the same
 * status and body, and an `X-RateLimit-Remaining` that never moved. A live server's counter moves with every
 * request it counts, so an answer without the header never counts as static.
 */
class StaticWatch {
  #first: { status: number; text: string; remaining: string } | undefined;
  #moved = false;
  see(response: LiveResponse): void {
    const remaining = response.headers["x-ratelimit-remaining"];
    const seen = { status: response.status, text: response.text, remaining: remaining ?? "" };
    if (remaining === undefined) this.#moved = true;
    else if (!this.#first) this.#first = seen;
    else if (JSON.stringify(seen) !== JSON.stringify(this.#first)) this.#moved = true;
  }
  get static(): boolean {
    return this.#first !== undefined && !this.#moved;
  }
}

/** Where a suite keeps the name of the wait that showed its target static (`t.shared` is the suite's). */
const staticTarget = sharedKey<string>("conform:static-target");

/**
 * The reason a wait is judged at once instead of waited for: an earlier wait of the suite saw the target answer the
 * same through a whole deadline. Undefined when no wait did.
 */
function shownStatic(t: CaseContext): string | undefined {
  const earlier = t.shared.get(staticTarget);
  return typeof earlier === "string"
    ? `not waited for: during "${earlier}" the target answered the same (status, body, X-RateLimit-Remaining) through a whole deadline, so it shows no change (a static mock?); judged on one answer`
    : undefined;
}

/**
 * Waits for `accept` on `poll`'s answers within the run's deadline, asserting it happened (named `name`) and
 * logging how long the transition took. Answers the last answer when it happened. Once a wait of the suite saw
 * the target answer the same through its whole deadline, later ones are judged on one answer, saying why.
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
  const judgedAtOnce = shownStatic(t);
  const watch = new StaticWatch();
  const outcome = await eventually(poll, accept, {
    deadlineMs: judgedAtOnce ? 0 : deadlineMs,
    intervalMs: pollMs,
    signal: t.signal,
    onPoll: (response) => {
      watch.see(response);
      options.onPoll?.(response);
    },
  });
  if (!outcome.ok && outcome.reason === "deadline" && !judgedAtOnce && watch.static)
    t.shared.set(staticTarget, name);
  const took = `${formatDuration(outcome.elapsedMs)}, ${outcome.polls} poll${outcome.polls === 1 ? "" : "s"}`;
  const missed = judgedAtOnce ?? `not within ${formatDuration(deadlineMs)}`;
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

/** One of several things a case waits for together ({@link waitForAll}). */
export interface AwaitedThing {
  /** Names it in logs and in the failure (`createNodeBalancer of 12`). */
  readonly key: string;
  readonly poll: () => Promise<LiveResponse>;
  readonly accept: (response: LiveResponse) => boolean;
  /** What the last answer showed, for the failure. */
  readonly describe: (response: LiveResponse | undefined) => string;
}

export interface AllWaited {
  /** The accepted answer of each thing that happened, by key. */
  readonly happened: ReadonlyMap<string, LiveResponse>;
  /** Keys of the things that did not happen within the deadline. */
  readonly missed: readonly string[];
  /**
   * True when none of them happened within the deadline: the target has shown it does not deliver this (a mock
   * without state), and later waits for the same kind of thing need not wait again.
   */
  readonly noneHappened: boolean;
}

/**
 * Waits for several things at once under one deadline (not one deadline each, in a row): each round polls every
 * thing still pending, rounds spaced as {@link waitFor} spaces polls. Logs each one when it happens; those missed
 * make one failure named `name` that lists them (and says so when none happened at all).
 */
export async function waitForAll(
  t: CaseContext,
  name: string,
  things: readonly AwaitedThing[],
): Promise<AllWaited> {
  const { deadlineMs, pollMs } = waitTimes(t);
  const judgedAtOnce = shownStatic(t);
  // One watch per thing: each polls its own read.
  const watches = new Map(things.map((thing) => [thing.key, new StaticWatch()]));
  const happened = new Map<string, LiveResponse>();
  const last = new Map<string, LiveResponse>();
  const started = Date.now();
  // One round: every thing still pending polled once; the round's last answer paces the next one.
  const round = async (): Promise<LiveResponse> => {
    let latest: LiveResponse | undefined;
    for (const thing of things.filter((each) => !happened.has(each.key))) {
      latest = await thing.poll();
      watches.get(thing.key)?.see(latest);
      last.set(thing.key, latest);
      if (!thing.accept(latest)) continue;
      happened.set(thing.key, latest);
      t.log(`${name}: ${thing.key} after ${formatDuration(Date.now() - started)}`);
    }
    return latest!;
  };
  const outcome =
    things.length === 0
      ? undefined
      : await eventually(round, () => happened.size === things.length, {
          deadlineMs: judgedAtOnce ? 0 : deadlineMs,
          intervalMs: pollMs,
          signal: t.signal,
        });
  const allStatic = [...watches.values()].every((watch) => watch.static);
  if (outcome && !outcome.ok && outcome.reason === "deadline" && !judgedAtOnce && allStatic)
    t.shared.set(staticTarget, name);
  const missed = things.filter((thing) => !happened.has(thing.key));
  const noneHappened = things.length > 0 && happened.size === 0;
  if (outcome && (missed.length > 0 || outcome.reason === "aborted")) {
    const waited =
      judgedAtOnce ??
      `within ${formatDuration(deadlineMs)} (${outcome.polls} round${outcome.polls === 1 ? "" : "s"} of polls)`;
    const lastSeen = missed.map((thing) => `${thing.key}: ${thing.describe(last.get(thing.key))}`);
    const message = noneHappened
      ? `${name}: none of the ${things.length} happened ${waited}: the target shows no sign of delivering them, all judged absent together; last seen ${lastSeen[0] ?? "nothing"}`
      : `${name}: ${missed.length} of ${things.length} did not happen ${waited}: ${lastSeen.join("; ")}`;
    t.expect(name, false, {
      expected: things.map((thing) => thing.key),
      actual: [...happened.keys()],
      message,
      ...(missed[0] && last.get(missed[0].key) ? { response: last.get(missed[0].key)! } : {}),
    });
  }
  return { happened, missed: missed.map((thing) => thing.key), noneHappened };
}
