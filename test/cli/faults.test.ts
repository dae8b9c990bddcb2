import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { cli } from "../helpers/cli.ts";

describe("conform faults with a selection of suites", () => {
  it("scores only the selected suite, against a fault it claims and one it does not", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), "conform-faults-selection-"));
    onTestFinished(() => rmSync(reportDir, { recursive: true, force: true }));
    const argv = ["faults", "--suite", "headers", "--report-dir", reportDir];
    // content-type-wrong is claimed by headers; delete-keeps-item only by lifecycles, which is not selected.
    const { code, out, err } = await cli([
      ...argv,
      ...["--fault", "content-type-wrong", "--fault", "delete-keeps-item"],
    ]);
    expect(code, out + err).toBe(1);
    expect(out).toContain(
      "suites scored: the selected suites headers (--suite headers), each against every fault; caught when any of them, or a check judged at the run's end, fails",
    );
    expect(out).toContain("score: 1/2 faults caught (escaped: delete-keeps-item)");
    expect(out).toContain("clean server: no false alarm");
    const path = /written: (.+fault-matrix\.json)/.exec(out)?.[1];
    const matrix = JSON.parse(readFileSync(path!, "utf8"));
    expect(matrix).toMatchObject({
      schemaVersion: "1.1.0",
      full: true,
      selection: { suites: ["headers"], tags: [], excludeTags: [] },
      suites: ["headers"],
    });
    expect(
      matrix.rows.map((row: { id: string; caught: boolean; caughtBy: { suites: string[] } }) => [
        row.id,
        row.caught,
        row.caughtBy.suites,
      ]),
    ).toEqual([
      ["content-type-wrong", true, ["headers"]],
      ["delete-keeps-item", false, []],
    ]);
  });

  it.each([
    [["--tag", "generic"], "--tag"],
    [["--suite", "headers", "--exclude-tag", "costly"], "--suite, --exclude-tag"],
    [["--fault", "content-type-wrong"], "--fault"],
  ])("refuses --update-docs with %j, before any run (exit 2)", async (options, named) => {
    const { code, out, err } = await cli(["faults", "--update-docs", ...options]);
    expect(code).toBe(2);
    expect(err).toContain(
      `--update-docs cannot take ${named}: docs/faults.md shows the whole score (every fault, every suite)`,
    );
    expect(out).not.toContain("score:");
  });

  it("refuses an unknown tag as conform run does (exit 2, naming it)", async () => {
    const { code, err } = await cli(["faults", "--tag", "genric", "--fault", "content-type-wrong"]);
    expect(code).toBe(2);
    expect(err).toContain("unknown tag genric (--tag)");
  });
});
