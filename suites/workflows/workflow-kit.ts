/**
 * What the workflow suites share: their settings (`suiteOptions.workflows`), choosing a region and an instance
 * type from the target's own catalogue, reading error bodies, registering what a step creates (also what a
 * faulty target creates when it should have refused), a strong root password, the listen driver of the run,
 * and "eventually" waits that log how long each transition took. Only HTTP: nothing here knows the reference
 * server's internals.
 * @module
 */
import { randomBytes } from "node:crypto";
import type { CaseContext, LiveResponse } from "../../src/index.ts";
import { eventually, formatDuration } from "../../src/runner/eventually.ts";
import {
  createListenDriver,
  isLoopbackTarget,
  type ListenDriver,
  readListenOptions,
} from "../../src/runner/listen-drivers/index.ts";

/** `suiteOptions.workflows`: every key optional. */
export interface WorkflowSettings {
  /** Region of the load balancers and instances (default: the first listed region with status ok that offers both). */
  readonly region: string | undefined;
  /** Instance type (default: the cheapest listed type). */
  readonly type: string | undefined;
  /** Image of the instances (default `compute/debian12`). */
  readonly image: string;
  /** How long a transition may take before the step fails. */
  readonly deadlineMs: number;
  /** The least time between two polls. */
  readonly pollMs: number;
}

/**
 * Defaults by target: the embedded server runs 50 times faster than real time (health checks every ~40 ms here);
 * a loopback server is a reference server or an emulator; a real cloud's balancers take tens of seconds.
 */
export function settings(t: CaseContext): WorkflowSettings {
  const raw = (t.options.workflows ?? {}) as Record<string, unknown>;
  const loopback = isLoopbackTarget(t.target);
  const text = (key: string) => (typeof raw[key] === "string" ? (raw[key] as string) : undefined);
  const number = (key: string) =>
    typeof raw[key] === "number" && raw[key] > 0 ? (raw[key] as number) : undefined;
  return {
    region: text("region"),
    type: text("type"),
    image: text("image") ?? "compute/debian12",
    deadlineMs: number("deadlineMs") ?? (t.target.embedded ? 5_000 : loopback ? 60_000 : 300_000),
    pollMs: number("pollMs") ?? (t.target.embedded ? 25 : loopback ? 200 : 3_000),
  };
}

/** The profile settings that make health transitions quick everywhere (check every 2 s, down after 2 misses). */
export const quickChecks = Object.freeze({
  check: "connection",
  check_interval: 2,
  check_timeout: 1,
  check_attempts: 2,
});

export const success = (response: LiveResponse): boolean => response.status >= 200 && response.status < 300;

/** The `field`s of an error body (empty when none). */
export function errorFields(response: LiveResponse): string[] {
  const errors = (response.json as { errors?: { field?: unknown }[] } | undefined)?.errors;
  return Array.isArray(errors)
    ? errors.map((error) => error?.field).filter((field): field is string => typeof field === "string")
    : [];
}

/** Asserts a refusal: a 400 whose errors name `field`. */
export function expectRefusal(t: CaseContext, name: string, response: LiveResponse, field: string): boolean {
  const refused = t.expect(`${name} is refused with 400`, response.status === 400, {
    expected: 400,
    actual: response.status,
    response,
  });
  const fields = errorFields(response);
  const named = t.expect(`${name}: the error names ${field}`, fields.includes(field), {
    expected: `an error with field ${field}`,
    actual: response.json,
    response,
  });
  return refused && named;
}

/** The id of what a response created, or undefined. */
export function createdId(response: LiveResponse): number | undefined {
  const id = (response.json as { id?: unknown } | undefined)?.id;
  return success(response) && typeof id === "number" ? id : undefined;
}

/**
 * Registers what a request created with the cleanup ledger, even when it should have been refused: a faulty
 * target must not be left holding the run's resources.
 */
export function registerCreated(
  t: CaseContext,
  response: LiveResponse,
  what: string,
  path: (id: number) => string,
) {
  const id = createdId(response);
  if (id !== undefined) t.cleanup(`${what} ${id}`, path(id));
  return id;
}

interface Region {
  id: string;
  status?: string;
  capabilities?: string[];
}

/** The first listed region with status ok offering every capability asked for (other than `except`), or undefined. */
export async function findRegion(
  t: CaseContext,
  capabilities: readonly string[],
  except?: string,
): Promise<string | undefined> {
  const page = await t.api.get("/regions", { query: { page_size: 500 } });
  if (!t.expect("GET /regions answers 200", page.status === 200, { expected: 200, actual: page.status })) {
    return undefined;
  }
  return ((page.json as { data?: Region[] } | undefined)?.data ?? []).find(
    (region) =>
      region.id !== except &&
      region.status !== "outage" &&
      capabilities.every((capability) => region.capabilities?.includes(capability)),
  )?.id;
}

/** The configured region, or the first listed one offering every capability asked for; skips the case without one. */
export async function chooseRegion(t: CaseContext, capabilities: readonly string[]): Promise<string> {
  const configured = settings(t).region;
  if (configured) return configured;
  const found = await findRegion(t, capabilities);
  if (!found) t.skip(`no region offers ${capabilities.join(" and ")} on this target`);
  return found;
}

interface InstanceType {
  id: string;
  price?: { hourly?: number };
}

/** The configured instance type, or the cheapest listed one. */
export async function chooseType(t: CaseContext): Promise<string> {
  const configured = settings(t).type;
  if (configured) return configured;
  const page = await t.api.get("/compute/types", { query: { page_size: 500 } });
  t.expect("GET /compute/types answers 200", page.status === 200, { expected: 200, actual: page.status });
  const types = (page.json as { data?: InstanceType[] } | undefined)?.data ?? [];
  const cheapest = [...types].sort(
    (a, b) => (a.price?.hourly ?? Number.POSITIVE_INFINITY) - (b.price?.hourly ?? Number.POSITIVE_INFINITY),
  )[0];
  if (!cheapest) t.skip("no instance type is listed on this target");
  return cheapest.id;
}

/** A strong root password (random, 144 bits), registered as a secret so no report ever shows it. */
export function strongPassword(t: CaseContext): string {
  const password = `${randomBytes(18).toString("base64url")}-Cf9`;
  t.secret(password);
  return password;
}

const driverKey = "listen-driver";

/** The run's listen driver, made once per suite; a malformed option skips the case with the reason. */
export function listenDriver(t: CaseContext): ListenDriver {
  const existing = t.shared.get(driverKey) as ListenDriver | undefined;
  if (existing) return existing;
  const { options, problem } = readListenOptions(t.options);
  if (problem) t.skip(problem);
  const driver = createListenDriver(options, t.target);
  // Listeners never outlive an interrupted run.
  t.signal.addEventListener("abort", () => void driver.close(), { once: true });
  t.shared.set(driverKey, driver);
  return driver;
}

/** Copies what the driver printed (commands, their output, listeners opened and closed) into the case's log. */
export function logDriverOutput(t: CaseContext, driver: ListenDriver): void {
  for (const line of driver.takeOutput()) t.log(`listen: ${line}`);
}

/**
 * Waits for `accept` on `poll`'s answers within the run's deadline, asserting it happened (named `name`) and
 * logging how long the transition took. Returns the last answer when it happened. With `required: false` a wait
 * that does not happen is only logged (a wait for something the description does not promise).
 */
export async function waitFor(
  t: CaseContext,
  name: string,
  poll: () => Promise<LiveResponse>,
  accept: (response: LiveResponse) => boolean,
  describe: (response: LiveResponse | undefined) => string,
  onPoll?: (response: LiveResponse) => void,
  required = true,
): Promise<LiveResponse | undefined> {
  const { deadlineMs, pollMs } = settings(t);
  const outcome = await eventually(poll, accept, {
    deadlineMs,
    intervalMs: pollMs,
    signal: t.signal,
    ...(onPoll ? { onPoll: (response) => onPoll(response) } : {}),
  });
  const took = `${formatDuration(outcome.elapsedMs)}, ${outcome.polls} poll${outcome.polls === 1 ? "" : "s"}`;
  if (outcome.ok) t.log(`${name}: after ${took}`);
  else
    t.log(`${name}: not within ${formatDuration(deadlineMs)} (${took}); last seen ${describe(outcome.last)}`);
  if (required || outcome.reason === "aborted")
    t.expect(name, outcome.ok, {
      expected: name,
      actual: describe(outcome.last),
      message: outcome.ok
        ? name
        : `${name}: not within ${formatDuration(deadlineMs)} (${outcome.reason}); last seen ${describe(outcome.last)}`,
      ...(outcome.last ? { response: outcome.last } : {}),
    });
  return outcome.ok ? outcome.last : undefined;
}
