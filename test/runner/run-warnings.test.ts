/**
 * The warnings a run ends with (issue 31): what its evidence lacks, each said once; a run with warnings stays green
 * unless `--warnings-as-errors`.
 */
import { describe, expect, it } from "vitest";
import { type RunEvidence, runWarnings } from "../../src/runner/run-warnings.ts";
import { runSuites } from "../helpers/run-suites.ts";

const quiet: RunEvidence = {
  durationMs: 60_000,
  cases: 10,
  skipped: [],
  refused: [],
  answers: new Map([["getThings", { total: 20, refused: 2 }]]),
  waitedMs: 1_000,
  checksNeverJudged: new Map(),
  exchanges: 100,
};

describe("runWarnings", () => {
  it.each<[string, Partial<RunEvidence>, RegExp[]]>([
    ["nothing lacking", {}, []],
    [
      "suites refused by the configuration",
      {
        refused: [
          { suite: "events", reason: "writes not allowed" },
          { suite: "auth", reason: "writes not allowed" },
        ],
      },
      [/^left out: 2 suite\(s\) not run by the configuration \(events, auth\): 2: writes not allowed$/],
    ],
    [
      "skipped cases, reasons counted",
      { skipped: ["a", "a", "b"] },
      [/^left out: 3 of 10 cases skipped \(30%\): 2: a; 1: b$/],
    ],
    [
      "an operation answered mostly 401/403/404",
      {
        answers: new Map([
          ["getThings", { total: 10, refused: 9 }],
          ["getOthers", { total: 3, refused: 3 }],
        ]),
      },
      [/^judged on refusals: getThings answered 401\/403\/404 to 9 of 10 requests \(90%\)/],
    ],
    [
      "rate-limit waits over a quarter of the run",
      { waitedMs: 30_000 },
      [/^rate limits: the run waited 30 s .* 50% of its 60 s/],
    ],
    [
      "a check that judged nothing in the whole run",
      {
        checksNeverJudged: new Map([
          ["spec-version-header", "no X-Spec-Version documented"],
          ["x", undefined],
        ]),
      },
      [
        /^checks: spec-version-header judged nothing in the whole run \(skipped: no X-Spec-Version documented\)$/,
        /^checks: x judged nothing in the whole run \(it never applied\)$/,
      ],
    ],
  ])("%s", (_name, change, expected) => {
    const warnings = runWarnings({ ...quiet, ...change });
    expect(warnings).toHaveLength(expected.length);
    for (const [index, pattern] of expected.entries()) expect(warnings[index]).toMatch(pattern);
  });
});

describe("a run with warnings", () => {
  // Leaving out the profile's update skips the versioning cases that write it, saying so: one warning.
  it.each([
    [false, 0],
    [true, 1],
  ])("stays green unless --warnings-as-errors (%s: exit %i)", async (warningsAsErrors, exitCode) => {
    const run = await runSuites({
      suites: ["versioning"],
      excludeOperations: ["updateProfile"],
      warningsAsErrors,
    });
    expect(run.finished.status).toBe("passed");
    expect(run.finished.exitCode).toBe(exitCode);
    const warnings = run.events.flatMap((event) => (event.type === "warning" ? [event.message] : []));
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^warning: left out: 2 of \d+ cases skipped.*left out of the operation selection/,
      ),
    );
  });
});
