import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { readReportTarget } from "../../src/cli/commands/cleanup.ts";
import { cli } from "../helpers/cli.ts";

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../src/reporters/report.schema.json"), "utf8"),
);
const root = mkdtempSync(join(tmpdir(), "conform-merge-"));
// biome-ignore lint/suspicious/noExplicitAny: report.json read back as data
type Report = any;
const read = (dir: string): Report => JSON.parse(readFileSync(join(dir, "latest", "report.json"), "utf8"));
const verdicts = (report: Report) =>
  report.suites
    .flatMap((suite: Report) => suite.cases.map((one: Report) => `${suite.id}/${one.id} ${one.status}`))
    .sort();

async function run(dir: string, ...more: string[]) {
  return cli(["run", "--seed", "11", "--reporter", "json", "--report-dir", join(root, dir), ...more]);
}

describe("conform run --shard and conform merge-reports", () => {
  let whole: Report;
  let merged: Report;
  let mergeResult: Awaited<ReturnType<typeof cli>>;
  beforeAll(async () => {
    expect((await run("whole")).code).toBe(0);
    expect((await run("s1", "--shard", "1/2")).code).toBe(0);
    // The second shard balanced by the first's durations would split differently: both use case counts here.
    expect((await run("s2", "--shard", "2/2")).code).toBe(0);
    whole = read(join(root, "whole"));
    mergeResult = await cli([
      "merge-reports",
      join(root, "s1", "latest"),
      join(root, "s2", "latest", "report.json"),
      "--report-dir",
      join(root, "merged"),
    ]);
    merged = read(join(root, "merged"));
  }, 120_000);

  it("splits the suites in two disjoint halves", () => {
    const s1 = read(join(root, "s1")).suites.map((suite: Report) => suite.id);
    const s2 = read(join(root, "s2")).suites.map((suite: Report) => suite.id);
    expect(s1.length).toBeGreaterThan(0);
    expect(s2.length).toBeGreaterThan(0);
    expect(s1.filter((id: string) => s2.includes(id))).toEqual([]);
    expect([...s1, ...s2].sort()).toEqual(whole.suites.map((suite: Report) => suite.id).sort());
  });

  it("merged, gives the same case ids and verdicts, counts and coverage as the whole run", () => {
    expect(mergeResult.code).toBe(0);
    expect(verdicts(merged)).toEqual(verdicts(whole));
    expect(merged.counts).toEqual(whole.counts);
    expect(merged.coverage.operations).toEqual(whole.coverage.operations);
    expect(merged.mergedFrom.map((one: Report) => one.shard)).toEqual([1, 2]);
  });

  it("keeps every shard's label prefix, so conform cleanup --from-report covers every shard", () => {
    const prefixes = [read(join(root, "s1")).labelPrefix, read(join(root, "s2")).labelPrefix];
    expect(prefixes[0]).not.toBe(prefixes[1]);
    expect(merged.mergedFrom.map((one: Report) => one.labelPrefix)).toEqual(prefixes);
    expect(readReportTarget(join(root, "merged", "latest", "report.json")).prefixes).toEqual(prefixes);
  });

  it("names every shard's label prefix where the console, summary.md and report.html show the labels", () => {
    const [first, second] = [read(join(root, "s1")).labelPrefix, read(join(root, "s2")).labelPrefix];
    const consoleLines = mergeResult.out.split("\n").filter((line) => line.includes(" · labels "));
    expect(consoleLines).toHaveLength(2);
    for (const line of consoleLines) expect(line).toContain(`labels ${first}-*, ${second}-*`);
    const markdown = readFileSync(join(root, "merged", "latest", "summary.md"), "utf8");
    expect(markdown).toContain(`· labels \`${first}-*\`, \`${second}-*\``);
    const page = readFileSync(join(root, "merged", "latest", "report.html"), "utf8");
    expect(page).toContain(`<dt>labels</dt><dd id="labels">${first}-*, ${second}-*</dd>`);
  });

  it("writes every reporter's output again, report.json valid against its schema", () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    ajv.validate(schema, merged);
    expect(ajv.errors ?? []).toEqual([]);
    for (const file of ["junit.xml", "report.html", "summary.md"])
      expect(existsSync(join(root, "merged", "latest", file)), file).toBe(true);
    // The console's summary counts what the whole run counted (no number written here: suites grow).
    const { passed, skipped, total } = whole.counts;
    expect(mergeResult.out).toMatch(
      // The console leaves out "0 skipped".
      new RegExp(`PASSED\\s+${passed} passed${skipped ? `, ${skipped} skipped` : ""} \\(${total} cases\\)`),
    );
  });

  it("--fail-under judges the merged run's coverage, not a shard's part", async () => {
    const at = (threshold: string, ...paths: string[]) =>
      cli([
        "merge-reports",
        ...paths,
        "--report-dir",
        join(root, "gated"),
        "--reporter",
        "console",
        "--fail-under",
        threshold,
      ]);
    const whole = await at("100", join(root, "s1", "latest"), join(root, "s2", "latest"));
    expect(whole.code).toBe(0);
    expect(whole.out).not.toContain("--fail-under");
    // The same shards, as if they had exercised one operation only: the merged run falls short.
    const thinned = ["s1", "s2"].map((dir, index) => {
      const report = read(join(root, dir));
      report.coverage.byOperation = report.coverage.byOperation.map((row: Report, at: number) =>
        at === 0 && index === 0 ? row : { ...row, statuses: [], requests: 0 },
      );
      const path = join(root, `thinned-${dir}.json`);
      writeFileSync(path, JSON.stringify(report));
      return path;
    });
    const short = await at("50", ...thinned);
    expect(short.code).toBe(1);
    expect(short.out).toContain(
      "✗ coverage 2.1% of operations exercised is under --fail-under 50% (1 of 48)",
    );
  });

  it("refuses --fail-under on a shard: it measures the whole run (exit 2)", async () => {
    const result = await run("refused-shard", "--shard", "1/2", "--fail-under", "80");
    expect(result.code).toBe(2);
    expect(result.err).toContain("give --fail-under to conform merge-reports");
  });

  /** A shard's report as if its end-of-run hooks had found a write its traffic never saw recorded. */
  function withRunEndFinding(dir: string, exchangeId: number): string {
    const report = read(join(root, dir));
    const group = "0bserved01";
    const finding = {
      id: "end-of-traffic",
      title: "What the checks judge when the run's traffic has ended",
      tags: ["read-only"],
      status: "failed",
      durationMs: 1,
      passedChecks: 2,
      exchangeCount: 0,
      results: [
        {
          checkId: "observed-write-recorded",
          exchangeId,
          outcome: { status: "failed", message: `write ${exchangeId} never recorded` },
          group,
        },
      ],
      exchanges: [
        {
          id: exchangeId,
          request: { method: "POST", url: "http://127.0.0.1:1/v4/linode/instances", headers: {}, body: null },
          response: { status: 200, headers: {}, text: "{}", truncated: false, bytes: 2 },
          error: null,
          timings: { startedAt: 0, headersMs: 1, totalMs: 1 },
          operationId: "createLinodeInstance",
          retries: 0,
        },
      ],
    };
    const counts = { passed: 0, failed: 1, skipped: 0, errored: 0, interrupted: 0, total: 1 };
    report.suites.push({
      id: "checks-at-run-end",
      title: finding.title,
      tags: ["read-only"],
      status: "failed",
      plannedCases: null,
      durationMs: 1,
      counts,
      cases: [finding],
    });
    report.counts = { ...report.counts, failed: report.counts.failed + 1, total: report.counts.total + 1 };
    report.status = "failed";
    report.exitCode = 1;
    report.groups.push({
      id: group,
      checkId: "observed-write-recorded",
      shape: "write <n> never recorded",
      example: `write ${exchangeId} never recorded`,
      failures: 1,
      cases: 1,
      firstCases: [{ suiteId: "checks-at-run-end", caseId: "end-of-traffic" }],
      operations: [{ operationId: "createLinodeInstance", failures: 1 }],
      operationCount: 1,
      exchangesKept: 1,
    });
    const path = join(root, `run-end-${dir}.json`);
    writeFileSync(path, JSON.stringify(report));
    return path;
  }

  it("joins the shards' end-of-run findings in one suite, a case per shard (exit 1)", async () => {
    const paths = [withRunEndFinding("s1", 7), withRunEndFinding("s2", 7)];
    const result = await cli(["merge-reports", ...paths, "--report-dir", join(root, "run-end")]);
    expect(result.err).toBe("");
    expect(result.code).toBe(1);
    const report = read(join(root, "run-end"));
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    ajv.validate(schema, report);
    expect(ajv.errors ?? []).toEqual([]);
    const runEnd = report.suites.filter((suite: Report) => suite.id === "checks-at-run-end");
    expect(runEnd).toHaveLength(1);
    expect(runEnd[0].status).toBe("failed");
    expect(runEnd[0].counts).toMatchObject({ failed: 2, total: 2 });
    expect(runEnd[0].cases.map((one: Report) => [one.id, one.title, one.results[0].outcome.message])).toEqual(
      [
        [
          "end-of-traffic-shard-1-of-2",
          "What the checks judge when the run's traffic has ended (shard 1/2)",
          "write 7 never recorded",
        ],
        [
          "end-of-traffic-shard-2-of-2",
          "What the checks judge when the run's traffic has ended (shard 2/2)",
          "write 7 never recorded",
        ],
      ],
    );
    // Each case keeps its shard's exchange, though both shards numbered it 7.
    expect(runEnd[0].cases.map((one: Report) => one.exchanges.length)).toEqual([1, 1]);
    expect(report.counts).toMatchObject({ failed: 2, total: whole.counts.total + 2 });
    const group = report.groups.find((one: Report) => one.checkId === "observed-write-recorded");
    expect(group).toMatchObject({ failures: 2, cases: 2 });
    expect(group.firstCases.map((one: Report) => one.caseId)).toEqual([
      "end-of-traffic-shard-1-of-2",
      "end-of-traffic-shard-2-of-2",
    ]);
    expect(result.out).toContain("(shard 2/2)");
  });

  it("warns when the shards ran against different targets: the header names the first", async () => {
    const paths = ["s1", "s2"].map((dir, index) => {
      const report = read(join(root, dir));
      report.target = { baseUrl: `http://127.0.0.1:4700${index}/v4`, authUrl: null, embedded: false };
      const path = join(root, `target-${dir}.json`);
      writeFileSync(path, JSON.stringify(report));
      return path;
    });
    const result = await cli(["merge-reports", ...paths, "--report-dir", join(root, "targets")]);
    expect(result.code).toBe(0);
    expect(read(join(root, "targets")).warnings).toContainEqual(
      expect.stringContaining(
        "the shards ran against different targets (http://127.0.0.1:47000/v4, http://127.0.0.1:47001/v4)",
      ),
    );
    // Embedded shards each had their own server on their own port: no warning.
    expect(merged.warnings.join("\n")).not.toContain("different targets");
  });

  it.each([
    [
      "a shard twice",
      () => [join(root, "s1", "latest"), join(root, "s1", "latest")],
      /shard 1\/2 is there twice/,
    ],
    ["a missing shard", () => [join(root, "s1", "latest")], /shard 2\/2 is missing/],
    [
      "a whole run with shards",
      () => [join(root, "whole", "latest"), join(root, "s1", "latest")],
      /is a whole run/,
    ],
    [
      "a report of another description",
      () => {
        const other = read(join(root, "s2"));
        other.spec.version = "9.9.9";
        const path = join(root, "other-spec.json");
        writeFileSync(path, JSON.stringify(other));
        return [join(root, "s1", "latest"), path];
      },
      /other-spec.json is of a different description: 9\.9\.9/,
    ],
    [
      "a report of another selection",
      () => {
        const other = read(join(root, "s2"));
        other.selection.tags = ["read-only"];
        const path = join(root, "other-selection.json");
        writeFileSync(path, JSON.stringify(other));
        return [join(root, "s1", "latest"), path];
      },
      /other-selection.json selected other suites or checks/,
    ],
    [
      "a suite in two shards (only the end-of-run one may be)",
      () => {
        const [first] = read(join(root, "s1")).suites;
        const other = read(join(root, "s2"));
        other.suites.push(first);
        const path = join(root, "suite-twice.json");
        writeFileSync(path, JSON.stringify(other));
        return [join(root, "s1", "latest"), path];
      },
      /suite [\w-]+ is in two reports/,
    ],
  ])("refuses %s, saying which (exit 2)", async (_name, paths, message) => {
    const result = await cli(["merge-reports", ...paths(), "--report-dir", join(root, "refused")]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });
});
