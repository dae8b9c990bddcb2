import { describe, expect, it } from "vitest";
import type { FailureGroup } from "../../src/core/events.ts";
import type { JsonReport } from "../../src/reporters/json.ts";
import { diffMarkdown, diffReports } from "../../src/reporters/report-diff.ts";

const group = (id: string, suiteId: string, failures: number): FailureGroup => ({
  id,
  checkId: "content-type-json",
  shape: `shape ${id}`,
  example: `example ${id}`,
  failures,
  cases: 1,
  firstCases: [{ suiteId, caseId: "c" }],
  operations: [],
  operationCount: 0,
  exchangesKept: 1,
});

function report(
  runId: string,
  groups: FailureGroup[],
  suites: string[],
  coverage: Record<string, number[]>,
): JsonReport {
  return {
    runId,
    status: groups.length > 0 ? "failed" : "passed",
    groups,
    suites: suites.map((id) => ({ id, status: "passed" })),
    coverage: {
      operations: { exercised: Object.values(coverage).filter((one) => one.length > 0).length, total: 3 },
      statuses: [],
      byOperation: Object.entries(coverage).map(([operationId, statuses]) => ({
        operationId,
        method: "GET",
        path: "/",
        statuses,
      })),
    },
  } as unknown as JsonReport;
}

describe("conform diff", () => {
  const before = report(
    "old",
    [group("kept", "a", 2), group("gone", "a", 1), group("elsewhere", "z", 1)],
    ["a", "z"],
    {
      getA: [200, 404],
      getB: [200],
    },
  );
  const after = report("new", [group("kept", "a", 5), group("fresh", "a", 1)], ["a"], {
    getA: [200, 400],
    getB: [],
    getC: [200],
  });
  const diff = diffReports(before, after);

  it.each([
    ["new", diff.newGroups, [["fresh", 0, 1]]],
    ["fixed (only of suites the new run ran)", diff.fixedGroups, [["gone", 1, 0]]],
    ["still failing", diff.stillFailing, [["kept", 2, 5]]],
    ["not run", diff.notRun, [["elsewhere", 1, 0]]],
  ])("%s groups", (_name, groups, expected) => {
    expect(groups.map((one) => [one.id, one.before, one.after])).toEqual(expected);
  });

  it("coverage gained and lost, by operation and status", () => {
    expect(diff.coverage.gained).toEqual([
      { operationId: "getA", statuses: [400] },
      { operationId: "getC", statuses: [200] },
    ]);
    expect(diff.coverage.lost).toEqual([
      { operationId: "getA", statuses: [404] },
      { operationId: "getB", statuses: [200] },
    ]);
  });

  it("as Markdown: totals first, then each list", () => {
    const text = diffMarkdown(diff);
    expect(text.split("\n")[0]).toBe("### conform diff: 1 new, 1 fixed, 1 still failing");
    expect(text).toContain("- `content-type-json`: `shape kept` (2× → 5×) · group `kept`");
    expect(text).toContain("**Coverage lost (2 operations)**");
    expect(text).toContain("**No longer requested (1 operation)**\n\n- `getB`: not said");
  });

  it("names the operations no longer requested, with the new report's reason (2.4.0 rows)", () => {
    const row = (operationId: string, requests: number, reason?: "deselected") => ({
      operationId,
      method: "GET",
      path: "/",
      statuses: requests > 0 ? [200] : [],
      requests,
      ...(reason ? { notRequested: { reason, detail: "not one of --method" } } : {}),
    });
    const older = report("old", [], ["a"], {});
    const newer = report("new", [], ["a"], {});
    const withRows = (one: JsonReport, rows: object[]) =>
      ({ ...one, coverage: { ...one.coverage, byOperation: rows } }) as JsonReport;
    const changed = diffReports(
      withRows(older, [row("getA", 2), row("getB", 1), row("getC", 0, "deselected")]),
      withRows(newer, [row("getA", 0, "deselected"), row("getB", 3), row("getC", 0, "deselected")]),
    );
    expect(changed.coverage.noLongerRequested).toEqual([
      { operationId: "getA", reason: "deselected: not one of --method" },
    ]);
  });
});
