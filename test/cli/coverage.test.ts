/**
 * The coverage table end to end: a small run on the embedded reference, every report format's coverage numbers
 * against report.json's, and `--fail-under` both ways.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonOperationCoverage, JsonReport } from "../../src/reporters/json.ts";
import { cli } from "../helpers/cli.ts";

/** The generic layer and the catalogue on two areas of the description: a few seconds, the rest deselected. */
const smallRun = [
  "run",
  "--suite",
  "operations",
  "--suite",
  "catalogue",
  "--path-pattern",
  "/regions*",
  "--path-pattern",
  "/compute/types*",
  "--seed",
  "7",
];

const decodeHtml = (text: string) =>
  text
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** Markdown's escaped punctuation as it renders. */
const unescapeMarkdown = (text: string) => text.replace(/\\([\\`*_{}[\]()#+\-.!|~>])/g, "$1");

describe("the coverage table in every report format", () => {
  let report: JsonReport;
  let console: string;
  let latest: string;
  const rows = () => report.coverage.byOperation;
  const byId = () => new Map<string, JsonOperationCoverage>(rows().map((row) => [row.operationId, row]));

  beforeAll(async () => {
    const reportDir = mkdtempSync(join(tmpdir(), "conform-coverage-"));
    const result = await cli([
      ...smallRun,
      "--report-dir",
      reportDir,
      "--reporter",
      "console,json,junit,html,markdown,github",
    ]);
    expect(result.code).toBe(0);
    console = result.out;
    latest = join(reportDir, "latest");
    report = JSON.parse(readFileSync(join(latest, "report.json"), "utf8")) as JsonReport;
  }, 60_000);

  it("report.json: a row per operation of the description, its numbers adding up", () => {
    const { operations } = report.coverage;
    expect(report.schemaVersion).toBe("2.6.0");
    expect(rows()).toHaveLength(48);
    expect(operations.exercised).toBe(rows().filter((row) => row.statuses.length > 0).length);
    expect(operations.neverRequested).toBe(rows().filter((row) => row.requests === 0).length);
    const reasons = Object.values(operations.notRequested ?? {}).reduce(
      (sum, count) => sum + (count ?? 0),
      0,
    );
    expect(reasons).toBe(operations.neverRequested);
    expect(operations.notRequested).toMatchObject({ "other-server": 3 });
    expect(byId().get("getRegions")).toMatchObject({
      valid: { accepted: expect.any(Number) },
      invalid: { sent: expect.any(Number) },
      suites: ["catalogue", "operations"],
    });
    expect(byId().get("getRegions")?.invalid?.sent).toBeGreaterThan(0);
    expect(byId().get("getRegion")?.chained).toBe(true);
    expect(byId().get("getProfile")?.notRequested?.reason).toBe("deselected");
  });

  /** The line every format says, from report.json's own numbers. */
  const expectedLine = () => {
    const { operations } = report.coverage;
    const reasons = Object.entries(operations.notRequested ?? {})
      .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0) || a[0].localeCompare(b[0]))
      .map(
        ([reason, count]) =>
          `${count} ${{ "other-server": "another server's", deselected: "deselected" }[reason as "deselected"] ?? reason}`,
      );
    return `${operations.exercised} of ${operations.total} operations exercised; ${operations.neverRequested} never requested (${reasons.join(", ")})`;
  };

  it("console: its last line, and a table row per operation with report.json's numbers", () => {
    // The GitHub reporter's annotations go to the same stream.
    const lines = console
      .trimEnd()
      .split("\n")
      .filter((line) => !line.startsWith("::"));
    const coverageLine = lines.findLast((line) => line.includes("operations exercised;"));
    expect(coverageLine).toBe(expectedLine());
    // The output's last line, after the one naming the report files.
    expect(lines.filter(Boolean).slice(-2)).toEqual([expect.stringMatching(/^reports: /), expectedLine()]);
    for (const row of rows()) {
      const line = lines.find((one) => one.startsWith("  ") && one.includes(`  ${row.operationId}  `));
      expect(line, row.operationId).toBeDefined();
      if (row.requests === 0) expect(line).toContain("not requested");
      else expect(line).toContain(`valid ${row.valid?.accepted}/${row.valid?.sent} 2xx`);
      if (row.invalid?.sent)
        expect(line).toContain(`invalid ${row.invalid.refused}/${row.invalid.sent} refused`);
    }
  });

  it("Markdown: the coverage line and a table row per operation with report.json's numbers", () => {
    const markdown = readFileSync(join(latest, "summary.md"), "utf8");
    expect(unescapeMarkdown(markdown)).toContain(`**${expectedLine()}**`);
    const table = markdown.split("<details><summary>Coverage by operation</summary>")[1] ?? "";
    for (const row of rows()) {
      const line = table.split("\n").find((one) => one.startsWith(`| \`${row.operationId}\` |`));
      const cells = line
        ?.slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim());
      expect(cells?.[4], row.operationId).toBe(
        row.valid?.sent ? `${row.valid.accepted}/${row.valid.sent}` : "",
      );
      expect(cells?.[5], row.operationId).toBe(
        row.invalid?.sent ? `${row.invalid.refused}/${row.invalid.sent}` : "",
      );
    }
  });

  it("HTML: the coverage line and a table row per operation with report.json's numbers", () => {
    const html = readFileSync(join(latest, "report.html"), "utf8");
    expect(decodeHtml(html)).toContain(`<p id="coverage-line"><b>${expectedLine()}</b></p>`);
    for (const row of rows()) {
      const tr = html.split(`data-operation="${row.operationId}"`)[1]?.split("</tr>")[0] ?? "";
      expect(tr, row.operationId).toContain(
        `<td class="num valid">${row.valid?.sent ? `${row.valid.accepted}/${row.valid.sent}` : ""}</td>`,
      );
      expect(tr, row.operationId).toContain(
        `<td class="num invalid">${row.invalid?.sent ? `${row.invalid.refused}/${row.invalid.sent}` : ""}</td>`,
      );
    }
  });

  it("JUnit and GitHub: the summary line and counts", () => {
    const junit = readFileSync(join(latest, "junit.xml"), "utf8");
    const { operations } = report.coverage;
    expect(junit).toContain(`<property name="conform.coverage.exercised" value="${operations.exercised}"/>`);
    expect(junit).toContain(`<property name="conform.coverage.total" value="${operations.total}"/>`);
    expect(junit).toContain(
      `<property name="conform.coverage.neverRequested" value="${operations.neverRequested}"/>`,
    );
    expect(decodeHtml(junit)).toContain(`<property name="conform.coverage" value="${expectedLine()}"/>`);
    const notice = console.split("\n").find((line) => line.startsWith("::notice title=conform coverage::"));
    expect(notice?.slice("::notice title=conform coverage::".length)).toBe(expectedLine());
  });
});

describe("--fail-under", () => {
  const run = (...extra: string[]) =>
    cli([
      ...smallRun,
      "--reporter",
      "console,json",
      "--report-dir",
      mkdtempSync(join(tmpdir(), "conform-fu-")),
      ...extra,
    ]);

  it.each([
    ["below the share exercised: the run passes", "5", 0, undefined],
    [
      "above it: exit 1, saying so in one line",
      "50%",
      1,
      /^✗ coverage \d+(\.\d)?% of operations exercised is under --fail-under 50% \(\d+ of 48\)$/,
    ],
  ])(
    "%s",
    async (_name, threshold, code, line) => {
      const result = await run("--fail-under", threshold);
      expect(result.code).toBe(code);
      const shortfall = result.out.split("\n").find((one) => one.includes("--fail-under"));
      if (line === undefined) expect(shortfall).toBeUndefined();
      else expect(shortfall).toMatch(line);
    },
    60_000,
  );

  it.each(["120", "-5", "eighty", "50%%"])("refuses %j as a usage error (exit 2)", async (value) => {
    const result = await cli(["run", "--fail-under", value, "--reporter", "json"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`--fail-under ${value}: give the share of operations to exercise`);
  });
});
