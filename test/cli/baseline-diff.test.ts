import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunFinished } from "../../src/core/events.ts";
import { createReporters } from "../../src/reporters/index.ts";
import { type RunConfig, runConfigDefaults } from "../../src/runner/config.ts";
import { readBaseline } from "../../src/runner/earlier-report.ts";
import { runConformance } from "../../src/runner/run.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { cli } from "../helpers/cli.ts";

const root = mkdtempSync(join(tmpdir(), "conform-baseline-"));
const suites = ["versioning", "filters"];
// biome-ignore lint/suspicious/noExplicitAny: report.json read back as data
type Report = any;

/** A run against the embedded server with `faults`, writing report.json to `<root>/<name>/`. */
async function faultyRun(
  name: string,
  faults: string[],
  baseline?: string,
): Promise<{ finished: RunFinished; report: Report; path: string }> {
  const outputDir = join(root, name);
  const reporters = createReporters(["json"], {
    outputDir,
    stream: process.stdout,
    isTTY: false,
    ci: true,
    mirrorLatest: false,
  });
  const config: RunConfig = {
    ...runConfigDefaults,
    specPath: bundledSpecPath,
    seed: 7,
    suites,
    faults,
    baseline: baseline === undefined ? undefined : readBaseline(baseline),
  };
  const finished = await runConformance(config, {
    runId: `20261124T000000Z-${name}`,
    listeners: [(event) => reporters.emit(event)],
    signal: new AbortController().signal,
    toolVersion: "test",
  });
  await reporters.close();
  const path = join(outputDir, "report.json");
  return { finished, report: JSON.parse(readFileSync(path, "utf8")), path };
}

describe("--baseline and conform diff", () => {
  let first: Awaited<ReturnType<typeof faultyRun>>;
  let again: Awaited<ReturnType<typeof faultyRun>>;
  let second: Awaited<ReturnType<typeof faultyRun>>;
  let fixed: Awaited<ReturnType<typeof faultyRun>>;
  beforeAll(async () => {
    first = await faultyRun("first", ["spec-version-wrong"]);
    again = await faultyRun("again", ["spec-version-wrong"], first.path);
    second = await faultyRun("second", ["spec-version-wrong", "filter-neq-ignored"], first.path);
    fixed = await faultyRun("fixed", ["filter-neq-ignored"], first.path);
  }, 120_000);

  it("a faulty target fails without a baseline", () => {
    expect(first.finished.exitCode).toBe(1);
    expect(first.report.groups.length).toBeGreaterThan(0);
    expect(first.report.baseline).toBeNull();
  });

  it("with a baseline taken on it, the next run exits 0, its groups known", () => {
    expect(again.finished.status).toBe("failed");
    expect(again.finished.exitCode).toBe(0);
    expect(again.report.baseline.new).toEqual([]);
    expect(again.report.baseline.known.sort()).toEqual(
      first.report.groups.map((group: Report) => group.id).sort(),
    );
    expect(again.report.baseline.fixed).toEqual([]);
  });

  it("a second fault added exits 1 naming only its new groups", () => {
    expect(second.finished.exitCode).toBe(1);
    const known = new Set(first.report.groups.map((group: Report) => group.id));
    const fresh = second.report.groups.filter((group: Report) => !known.has(group.id));
    expect(fresh.length).toBeGreaterThan(0);
    expect(second.report.baseline.new.sort()).toEqual(fresh.map((group: Report) => group.id).sort());
    for (const group of fresh) expect(group.firstCases[0].suiteId).toBe("filters");
  });

  it("removing the first fault reports its groups as fixed", () => {
    const fixedIds = fixed.report.baseline.fixed.map((group: Report) => group.id).sort();
    expect(fixedIds).toEqual(first.report.groups.map((group: Report) => group.id).sort());
    expect(fixed.report.baseline.known).toEqual([]);
  });

  it("conform diff names new, fixed and still failing groups, as Markdown and JSON", async () => {
    const json = await cli(["diff", first.path, second.path, "--json", "--output-dir", join(root, "diff")]);
    expect(json.code).toBe(1);
    const diff = JSON.parse(json.out);
    expect(diff.newGroups.map((group: Report) => group.id).sort()).toEqual(second.report.baseline.new.sort());
    expect(diff.stillFailing.map((group: Report) => group.id).sort()).toEqual(
      first.report.groups.map((group: Report) => group.id).sort(),
    );
    expect(diff.fixedGroups).toEqual([]);
    const markdown = readFileSync(join(root, "diff", "diff.md"), "utf8");
    expect(markdown).toMatch(/^### conform diff: \d+ new, 0 fixed, \d+ still failing/);
    const back = await cli(["diff", second.path, fixed.path]);
    expect(back.code).toBe(0);
    expect(back.out).toMatch(/\*\*Fixed \(\d+\)\*\*/);
    expect(back.out).toContain("spec-version");
  });

  it("conform run --baseline against the clean server says what is fixed, in the console", async () => {
    const result = await cli([
      "run",
      "--suite",
      "versioning",
      "--seed",
      "7",
      "--reporter",
      "console",
      "--baseline",
      first.path,
    ]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/baseline .*: 0 new, 0 known, \d+ fixed/);
    expect(result.out).toMatch(/fixed assert:X-Spec-Version/);
  });
});
