import { describe, expect, it } from "vitest";
import type { NotRequestedReason, OperationCoverage, RunFinished } from "../../src/core/events.ts";
import {
  coverageLine,
  failUnderShortfall,
  summarizeCoverage,
  withFailUnder,
} from "../../src/runner/coverage-summary.ts";

const answered = { statuses: [200], requests: 1 };
const unanswered = { statuses: [], requests: 2 };
const never = (reason: NotRequestedReason) => ({
  statuses: [],
  requests: 0,
  notRequested: { reason, detail: "" },
});

describe("the coverage summary", () => {
  it.each([
    ["nothing to cover", [], "0 of 0 operations exercised; 0 never requested", 100],
    ["all exercised", [answered, answered], "2 of 2 operations exercised; 0 never requested", 100],
    [
      "reasons counted, most first",
      [answered, never("deselected"), never("writes-not-allowed"), never("writes-not-allowed")],
      "1 of 4 operations exercised; 3 never requested (2 writes not allowed, 1 deselected)",
      25,
    ],
    [
      "requested without an answer is neither",
      [answered, unanswered, never("other-server")],
      "1 of 3 operations exercised; 1 never requested (1 another server's); 1 requested without an answer",
      100 / 3,
    ],
  ])("%s", (_name, rows, line, percent) => {
    const summary = summarizeCoverage(rows);
    expect(coverageLine(summary)).toBe(line);
    expect(summary.percent).toBeCloseTo(percent);
  });

  it.each([
    [[answered, never("deselected")], 50, undefined],
    [
      [answered, never("deselected")],
      50.1,
      "coverage 50% of operations exercised is under --fail-under 50.1% (1 of 2)",
    ],
    [
      [answered, answered, never("deselected")],
      67,
      "coverage 66.7% of operations exercised is under --fail-under 67% (2 of 3)",
    ],
    [[never("deselected")], 0, undefined],
  ])("--fail-under: %j at %d%%", (rows, threshold, expected) => {
    expect(failUnderShortfall(summarizeCoverage(rows), threshold)).toBe(expected);
  });

  const finished = (exitCode: number, rows: OperationCoverage[]) =>
    ({
      type: "run-finished",
      status: exitCode === 0 ? "passed" : "failed",
      exitCode,
      coverage: rows,
    }) as unknown as RunFinished;
  const row = (statuses: number[]) =>
    ({ ...answered, statuses, requests: statuses.length }) as unknown as OperationCoverage;
  it.each([
    ["no threshold: unchanged", 0, undefined, 0, undefined],
    ["met: exit 0 kept", 0, 50, 0, undefined],
    [
      "short: a passing run exits 1",
      0,
      60,
      1,
      "coverage 50% of operations exercised is under --fail-under 60% (1 of 2)",
    ],
    [
      "short: a failing run keeps its code",
      1,
      60,
      1,
      "coverage 50% of operations exercised is under --fail-under 60% (1 of 2)",
    ],
  ])("%s", (_name, exitCode, threshold, code, message) => {
    const gated = withFailUnder(finished(exitCode, [row([200]), row([])]), threshold);
    expect(gated.exitCode).toBe(code);
    expect(gated.failUnder?.message).toBe(message);
    expect(gated.status).toBe(exitCode === 0 ? "passed" : "failed");
  });
});
