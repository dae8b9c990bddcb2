/**
 * Selection by operation (issue 35 item 2): `--operation`, `--exclude-operation`, `--method`, `--path-pattern` over every
 * suite, a case reaching a left-out operation skipped there saying so, and `--list` printing the selection.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonReport } from "../../src/reporters/json.ts";
import { readReportFile } from "../../src/reporters/report-file.ts";
import { cli } from "../helpers/cli.ts";

function reportOf(dir: string): JsonReport {
  return JSON.parse(readFileSync(join(dir, "latest", "report.json"), "utf8"));
}

const casesOf = (report: JsonReport) =>
  new Map(
    report.suites.flatMap((suite) => suite.cases.map((entry) => [`${suite.id}/${entry.id}`, entry] as const)),
  );

describe("conform run --operation / --exclude-operation", () => {
  it("runs the cases that stay within the selection and skips the others there, naming the operation", async () => {
    const dir = mkdtempSync(join(tmpdir(), "conform-operations-"));
    const result = await cli([
      "run",
      "--suite",
      "catalogue",
      "--operation",
      "getRegions",
      "--operation",
      "getRegion",
      "--reporter",
      "json",
      "--report-dir",
      dir,
    ]);
    expect(result.code, result.err).toBe(0);
    // The report says the selection, and still matches its schema (read as an untrusted report is).
    const report = readReportFile(join(dir, "latest", "report.json"), "the report");
    expect(report.selection?.operations).toEqual({ operations: ["getRegions", "getRegion"] });
    const cases = casesOf(reportOf(dir));
    expect(cases.get("catalogue/regions-pages")?.status).toBe("passed");
    expect(cases.get("catalogue/region-singles")?.status).toBe("passed");
    const types = cases.get("catalogue/types-pages");
    expect(types?.status).toBe("skipped");
    expect(JSON.stringify(types)).toMatch(
      /requests getComputeTypes \(GET\), left out of the operation selection/,
    );
  });

  it("gives the generic layer only the selected operations", async () => {
    const dir = mkdtempSync(join(tmpdir(), "conform-operations-"));
    const result = await cli([
      "run",
      "--suite",
      "operations",
      "--method",
      "GET",
      "--path-pattern",
      "/regions*",
      "--reporter",
      "json",
      "--report-dir",
      dir,
      "--har",
      join(dir, "run.har"),
    ]);
    expect(result.code, result.err).toBe(0);
    const cases = casesOf(reportOf(dir));
    expect(cases.get("operations/reads")?.status).toBe("passed");
    expect(cases.get("operations/writes")?.skipReason).toBe(
      "the description has no write operation the run selects",
    );
    const paths = (
      JSON.parse(readFileSync(join(dir, "run.har"), "utf8")).log.entries as { request: { url: string } }[]
    ).map((entry) => new URL(entry.request.url).pathname.replace(/^\/v4/, ""));
    expect(new Set(paths.map((path) => path.replace(/\/regions\/[^/]+$/, "/regions/{regionId}")))).toEqual(
      new Set(["/regions", "/regions/{regionId}"]),
    );
  });

  it("--list prints suites, cases, checks and the selected operations, and runs nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "conform-operations-"));
    const result = await cli([
      "run",
      "--suite",
      "catalogue",
      "--exclude-check",
      "rate-limit-headers",
      "--exclude-operation",
      "getComputeTypes",
      "--path-pattern",
      "/compute/types*",
      "--list",
      "--report-dir",
      dir,
    ]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain("suites (1):\n  catalogue  ");
    expect(result.out).toContain("    catalogue/types-pages  ");
    expect(result.out).toMatch(/checks \(\d+\): not-a-server-error, .*documented-headers/);
    expect(result.out).not.toContain("rate-limit-headers");
    expect(result.out).toContain("operations (1 of ");
    expect(result.out).toContain("  getComputeType  GET /compute/types/{typeId}\n");
  });

  it.each([
    [["--operation", "getRegionz"], /unknown operation getRegionz \(--operation\); did you mean getRegion/],
    [["--exclude-operation", "nope"], /unknown operation nope \(--exclude-operation\)/],
    [["--method", "FETCH"], /--method fetch: use an HTTP method/],
    [["--path-pattern", "/nowhere*"], /--path-pattern \/nowhere\* matches no path of the description/],
    [["--method", "patch"], /leaves no operation/],
  ])("refuses %j before anything runs (exit 2)", async (flags, message) => {
    const result = await cli(["run", "--suite", "catalogue", "--list", ...flags]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });
});
