/**
 * Runs suites through the real runner against the embedded reference server, clean or with named faults, and
 * collects the event stream: how suite tests prove "green against the reference, red against a wrong variant".
 */
import { expect } from "vitest";
import type { CaseFinished, RunEvent, RunFinished } from "../../src/core/events.ts";
import { type RunConfig, runConfigDefaults } from "../../src/runner/config.ts";
import { runConformance } from "../../src/runner/run.ts";
import type { SuiteHooks } from "../../src/runner/suite-api.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";

export interface SuiteRun {
  readonly finished: RunFinished;
  readonly events: readonly RunEvent[];
  /** Cases that did not pass, with their status. */
  readonly problems: readonly CaseFinished[];
  /** Ids of failed checks and assertions (`assert:<name>`), over all cases. */
  readonly failedChecks: ReadonlySet<string>;
}

/** Runs with the defaults, `overrides` and the suites' `hooks` (functions a program hands the suites). */
export async function runSuites(overrides: Partial<RunConfig>, hooks?: SuiteHooks): Promise<SuiteRun> {
  const events: RunEvent[] = [];
  const config: RunConfig = { ...runConfigDefaults, specPath: bundledSpecPath, seed: 1, ...overrides };
  const finished = await runConformance(config, {
    runId: "20261123T000000Z-suite",
    listeners: [(event) => void events.push(event)],
    signal: new AbortController().signal,
    toolVersion: "test",
    ...(hooks ? { hooks } : {}),
  });
  const cases = events.filter((event): event is CaseFinished => event.type === "case-finished");
  const problems = cases.filter((event) => event.status !== "passed" && event.status !== "skipped");
  const failedChecks = new Set(
    cases.flatMap((event) =>
      event.results.filter((result) => result.outcome.status === "failed").map((result) => result.checkId),
    ),
  );
  return { finished, events, problems, failedChecks };
}

/** The run's exchanges sent with `method` to a URL ending in `pathEnd` (a login driver's form posts, say). */
export function exchangesTo(run: SuiteRun, method: string, pathEnd: string): RunEvent[] {
  return run.events.filter(
    (event) =>
      event.type === "exchange" &&
      event.exchange.request.method === method &&
      event.exchange.request.url.endsWith(pathEnd),
  );
}

/** A readable summary of what failed, for assertion messages. */
export function describeProblems(run: SuiteRun): string {
  return run.problems
    .map((event) => {
      const failures = event.results
        .filter((result) => result.outcome.status === "failed")
        .map((result) => `  ${result.checkId}: ${"message" in result.outcome ? result.outcome.message : ""}`);
      return [
        `${event.suiteId}/${event.caseId} ${event.status}${event.error ? `: ${event.error.message}` : ""}`,
        ...failures,
      ].join("\n");
    })
    .join("\n");
}

/**
 * Runs `suite` with one fault enabled and asserts it is red for the right reason: exit 1, the fault claims the
 * suite, a failed check matches `expected`, every check the fault claims fired, and no case errored (a failure
 * of the target, not of the suite).
 */
export async function expectFaultCaught(
  suite: string,
  fault: {
    readonly id: string;
    readonly detectedBy: { readonly suites: readonly string[]; readonly checks?: readonly string[] };
  },
  expected: RegExp,
): Promise<SuiteRun> {
  const run = await runSuites({ suites: [suite], faults: [fault.id] });
  expect(run.finished.exitCode).toBe(1);
  expect(fault.detectedBy.suites).toEqual([suite]);
  const failed = [...run.failedChecks];
  expect(
    failed.filter((check) => expected.test(check)),
    failed.join("\n"),
  ).not.toEqual([]);
  for (const check of fault.detectedBy.checks ?? []) expect(failed).toContain(check);
  expect(run.problems.map((problem) => problem.status)).not.toContain("errored");
  return run;
}
