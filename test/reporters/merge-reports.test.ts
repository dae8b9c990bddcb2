import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type {
  CaseFinished,
  FailureGroup,
  OperationCoverage,
  RunEvent,
  RunFinished,
} from "../../src/core/events.ts";
import { runEndCaseName, suitesWithOneRunEnd } from "../../src/reporters/_internals/merge-run-end.ts";
import type { JsonReport, JsonSuite } from "../../src/reporters/json.ts";
import { toJsonCase } from "../../src/reporters/json.ts";
import { createMarkdownReporter, markdownReportFile } from "../../src/reporters/markdown.ts";
import { mergeCoverage, mergeGroups, toCaseFinished } from "../../src/reporters/merge-reports.ts";
import { failingRun } from "../fixtures/events/with-failures.ts";
import { feed, fileOptions } from "./helpers.ts";

const group = (
  id: string,
  failures: number,
  cases: string[],
  operations: [string, number][],
): FailureGroup => ({
  id,
  checkId: "body-matches-schema",
  shape: `shape ${id}`,
  example: `example ${id}`,
  failures,
  cases: cases.length,
  firstCases: cases.map((caseId) => ({ suiteId: "s", caseId })),
  operations: operations.map(([operationId, count]) => ({ operationId, failures: count })),
  operationCount: operations.length,
  exchangesKept: Math.min(3, failures),
});

describe("merging reports", () => {
  it("a case written to report.json reads back as the event it was written from", () => {
    const cases = failingRun().filter((event): event is CaseFinished => event.type === "case-finished");
    expect(cases.length).toBeGreaterThan(2);
    for (const event of cases) expect(toCaseFinished(event.suiteId, toJsonCase(event))).toEqual(event);
  });

  it("joins groups of the same id, summing counts, largest first", () => {
    const merged = mergeGroups([
      [group("a", 2, ["c1"], [["getX", 2]]), group("b", 1, ["c2"], [["getY", 1]])],
      [
        group(
          "a",
          3,
          ["c3", "c4"],
          [
            ["getX", 1],
            ["getZ", 2],
          ],
        ),
      ],
    ]);
    expect(merged.map((one) => [one.id, one.failures, one.cases])).toEqual([
      ["a", 5, 3],
      ["b", 1, 1],
    ]);
    expect(merged[0]?.firstCases.map((one) => one.caseId)).toEqual(["c1", "c3", "c4"]);
    expect(merged[0]?.operations).toEqual([
      { operationId: "getX", failures: 3 },
      { operationId: "getZ", failures: 2 },
    ]);
    expect(merged[0]?.operationCount).toBe(2);
  });

  it("unites the statuses seen per operation", () => {
    const coverage = (statuses: number[]) => ({
      operations: { exercised: 1, total: 1 },
      statuses,
      byOperation: [{ operationId: "getX", method: "GET", path: "/x", statuses }],
    });
    expect(mergeCoverage([coverage([200, 404]), coverage([400, 200]), coverage([])])).toMatchObject([
      { operationId: "getX", method: "GET", path: "/x", statuses: [200, 400, 404] },
    ]);
  });

  const row = (fields: Partial<OperationCoverage>): OperationCoverage => ({
    operationId: "getX",
    method: "GET",
    path: "/x",
    statuses: [],
    requests: 0,
    valid: { sent: 0, accepted: 0 },
    invalid: { sent: 0, refused: 0 },
    chained: false,
    suites: [],
    checks: [],
    ...fields,
  });
  const notSelected = { reason: "suite-not-selected" as const, detail: "no suite tagged generic" };
  const writes = { reason: "writes-not-allowed" as const, detail: "--allow-writes" };
  it.each([
    [
      "sums the counts and joins the sets of shards",
      [
        row({ statuses: [200], requests: 2, valid: { sent: 2, accepted: 1 }, suites: ["b"], checks: ["y"] }),
        row({ statuses: [400], requests: 1, invalid: { sent: 1, refused: 1 }, chained: true, suites: ["a"] }),
      ],
      row({
        statuses: [200, 400],
        requests: 3,
        valid: { sent: 2, accepted: 1 },
        invalid: { sent: 1, refused: 1 },
        chained: true,
        suites: ["a", "b"],
        checks: ["y"],
      }),
    ],
    [
      "drops the reason of a shard that did not request what another did",
      [row({ notRequested: notSelected }), row({ statuses: [200], requests: 1 })],
      row({ statuses: [200], requests: 1 }),
    ],
    [
      "keeps a shard's own reason over 'suite not selected' (the generic layer ran in one shard)",
      [row({ notRequested: notSelected }), row({ notRequested: writes })],
      row({ notRequested: writes }),
    ],
    [
      "keeps 'suite not selected' when no shard has another reason",
      [row({ notRequested: notSelected }), row({ notRequested: notSelected })],
      row({ notRequested: notSelected }),
    ],
  ])("%s", (_name, shards, merged) => {
    const report = (byOperation: OperationCoverage) => ({
      operations: { exercised: 0, total: 1 },
      statuses: [],
      byOperation: [byOperation],
    });
    expect(mergeCoverage(shards.map(report))).toEqual([merged]);
  });
});

describe("the run-end suite of several reports", () => {
  const counts = (status: "passed" | "failed" | "skipped" | "errored") => ({
    passed: 0,
    failed: 0,
    skipped: 0,
    errored: 0,
    interrupted: 0,
    [status]: 1,
    total: 1,
  });
  const suite = (
    id: string,
    status: "passed" | "failed" | "skipped" | "errored",
    durationMs = 1,
  ): JsonSuite => ({
    id,
    title: id,
    tags: ["read-only"],
    status,
    plannedCases: null,
    durationMs,
    counts: counts(status),
    cases: [{ id: `${id}-${status}` } as JsonSuite["cases"][number]],
  });
  const report = (...suites: JsonSuite[]) => ({ suites }) as unknown as JsonReport;
  const runEnd = "checks-at-run-end";

  it.each([
    ["a shard", { index: 2, count: 3 }, "end-of-traffic-shard-2-of-3", "(shard 2/3)"],
    ["a whole run", null, "end-of-traffic-report-1-of-2", "(report 1/2)"],
  ])("names the case of %s for it", (_name, shard, id, titleEnd) => {
    const name = runEndCaseName({ shard }, 0, 2);
    expect(name.id).toBe(id);
    expect(name.title.endsWith(titleEnd)).toBe(true);
  });

  it.each([
    ["failed and skipped", ["failed", "skipped"], "failed"],
    ["failed and errored", ["failed", "errored"], "errored"],
    ["skipped and passed", ["skipped", "passed"], "passed"],
  ] as const)("joins %s into one suite, last, of the worst status", (_name, statuses, worst) => {
    const suites = suitesWithOneRunEnd([
      report(suite(runEnd, statuses[0], 4), suite("a", "passed")),
      report(suite("b", "passed"), suite(runEnd, statuses[1], 9)),
    ]);
    expect(suites.map((one) => one.id)).toEqual(["a", "b", runEnd]);
    const joined = suites.at(-1)!;
    expect(joined.status).toBe(worst);
    expect(joined.counts.total).toBe(2);
    expect(joined.durationMs).toBe(9);
    expect(joined.cases.map((one) => one.id)).toEqual(statuses.map((status) => `${runEnd}-${status}`));
  });

  it("leaves one report's run-end suite as it is", () => {
    const only = suite(runEnd, "failed");
    expect(suitesWithOneRunEnd([report(only), report(suite("a", "passed"))])).toEqual([
      suite("a", "passed"),
      only,
    ]);
  });
});

describe("a baseline in the Markdown summary", () => {
  it("lists new and fixed groups and says known failures do not fail the exit code", async () => {
    const events: RunEvent[] = failingRun().map((event) => {
      if (event.type !== "run-finished") return event;
      const finished: RunFinished = {
        ...event,
        exitCode: 0,
        baseline: {
          source: "base/report.json",
          known: event.groups.map((one) => one.id),
          new: [],
          fixed: [
            {
              id: "gone123456",
              checkId: "spec-version-header",
              shape: "gone <n>",
              example: "gone 1",
              suites: ["s"],
            },
          ],
        },
      };
      return finished;
    });
    const options = await fileOptions();
    await feed(createMarkdownReporter(options), events);
    const text = await readFile(join(options.outputDir, markdownReportFile), "utf8");
    expect(text).toMatch(
      /\*\*Against the baseline\*\* `base\/report.json`: 0 new, \d+ known, 1 fixed \(only known failures/,
    );
    expect(text).toContain("✅ fixed: `spec-version-header`: `gone <n>` · group `gone123456`");
    expect(text).not.toContain("🆕 new");
  });
});
