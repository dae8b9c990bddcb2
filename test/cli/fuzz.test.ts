import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ProgressBar, renderBar } from "../../src/cli/progress-bar.ts";
import { campaignsOf, listCampaigns } from "../../src/runner/fuzz.ts";
import { defineSuite } from "../../src/runner/suite-api.ts";
import { cli } from "../helpers/cli.ts";

describe("conform fuzz", () => {
  it("runs a campaign's suites with the seed and runs asked, and writes the usual reports", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), "conform-fuzz-"));
    const args = [
      "fuzz",
      "pagination",
      "--runs",
      "2",
      "--seed",
      "9",
      "--report-dir",
      reportDir,
      "--reporter",
      "json",
    ];
    const result = await cli(args);
    expect(result.code, result.err).toBe(0);
    const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8"));
    expect(report.seed).toBe(9);
    expect(report.suites.map((suite: { id: string }) => suite.id)).toEqual(["pagination"]);
    // Not a terminal here: one progress line per property, on stderr.
    expect(result.err).toMatch(
      /^fuzz pagination: getComputeTypes answers page and page_size edges as described \(\d+ runs\)$/m,
    );
  });

  it("refuses an unknown campaign and a bad --runs (exit 2)", async () => {
    expect((await cli(["fuzz", "everything"])).code).toBe(2);
    expect((await cli(["fuzz", "filters", "--runs", "0"])).code).toBe(2);
  });

  it.each([
    ["a --property that is not <suite>/<case>/<name>", ["--property", "semantics"], /--property must be/],
    ["a suite outside the campaign", ["--property", "pagination/walk/x"], /has no suite "pagination"/],
    ["a case the suite does not have", ["--property", "filters/nope/x"], /has no case "nope"/],
    [
      "a path that is not fast-check's",
      ["--property", "filters/semantics/x", "--path", "1;2"],
      /--path must be/,
    ],
    ["--path without --property", ["--path", "1:2"], /--path needs --property/],
  ])("refuses %s (exit 2)", async (_name, extra, message) => {
    const result = await cli(["fuzz", "filters", ...extra]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it("the campaigns are the ones the bundled suites declare", async () => {
    const campaigns = await listCampaigns([]);
    expect(campaigns.map((entry) => [entry.campaign, entry.suites])).toEqual([
      ["filters", ["filters"]],
      ["bodies", ["invalid-bodies", "valid-bodies"]],
      ["pagination", ["pagination"]],
    ]);
  });

  it("groups suites by the campaign they declare", () => {
    const suite = (id: string, campaign?: string) =>
      defineSuite({
        id,
        title: id,
        tags: [],
        cases: [{ id: "one", title: "one", run: () => {} }],
        ...(campaign ? { fuzz: { campaign, describe: `${campaign} things` } } : {}),
      });
    expect(campaignsOf([suite("a", "x"), suite("b"), suite("c", "y"), suite("d", "x")])).toEqual([
      { campaign: "x", describe: "x things", suites: ["a", "d"] },
      { campaign: "y", describe: "y things", suites: ["c"] },
    ]);
  });
});

describe("progress bar", () => {
  it.each([
    [0, 10, 4, "▕░░░░▏"],
    [5, 10, 4, "▕██░░▏"],
    [10, 10, 4, "▕████▏"],
    [12, 10, 4, "▕████▏"],
    [0, 0, 2, "▕░░▏"],
  ])("renderBar(%i, %i, %i) is %s", (done, total, width, bar) => {
    expect(renderBar(done, total, width)).toBe(bar);
  });

  it("on a terminal redraws one line and clears it when the property ends", () => {
    let written = "";
    const bar = new ProgressBar(
      { isTTY: true, columns: 200, write: (chunk: string) => (written += chunk) },
      "fuzz filters",
    );
    bar.update("p", 1, 4);
    expect(written).toBe("\r\u001b[2Kfuzz filters ▕█████░░░░░░░░░░░░░░░▏ 1/4 p");
    bar.update("p", 4, 4);
    expect(written.endsWith("\r\u001b[2K")).toBe(true);
    const before = written;
    bar.clear();
    expect(written).toBe(before);
  });

  it.each([
    ["off a terminal", false, false],
    ["under CI, even on a terminal", true, true],
  ])("%s prints a line as each property starts, never a bar", (_name, isTTY, ci) => {
    let written = "";
    const bar = new ProgressBar({ isTTY, write: (chunk: string) => (written += chunk) }, "fuzz filters", {
      ci,
    });
    for (let run = 1; run <= 3; run += 1) bar.update("p", run, 3);
    expect(written).toBe("fuzz filters: p (3 runs)\n");
  });
});
