import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, ToolkitError } from "../../src/core/errors.ts";
import {
  createReporterGroup,
  createReporters,
  latestDirOf,
  type Reporter,
  reporterNames,
  reportersMap,
  writeLatest,
} from "../../src/reporters/index.ts";
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { failingRun } from "../fixtures/events/with-failures.ts";
import { Capture, reportDir } from "./helpers.ts";

async function runAll(names: string[], base: string, runId: string, events = allGreenRun()) {
  const capture = new Capture();
  const outputDir = join(base, runId);
  const group = createReporters(names, { outputDir, stream: capture, isTTY: false, ci: true });
  for (const event of events) await group.emit(event);
  const latest = await group.close();
  return { group, outputDir, latest, capture };
}

describe("reporters map and createReporters", () => {
  it("knows the seven built-in reporters by name", () => {
    expect(reporterNames).toEqual(["console", "json", "junit", "html", "markdown", "github", "ndjson"]);
    expect(Object.isFrozen(reportersMap)).toBe(true);
  });

  it("refuses an unknown name with a ConfigError naming the known ones", () => {
    const make = () =>
      createReporters(["json", "xml", "tap"], {
        outputDir: "/x",
        stream: new Capture(),
        isTTY: false,
        ci: true,
      });
    expect(make).toThrow(ConfigError);
    expect(make).toThrow("unknown reporter xml, tap; known reporters: console, json, junit, html, markdown");
    try {
      make();
    } catch (error) {
      expect(ToolkitError.is(error) && error.code).toBe("CONFIG_INVALID");
    }
  });

  it("makes each named reporter once", () => {
    const group = createReporters(["json", "json", "console"], {
      outputDir: "/x",
      stream: new Capture(),
      isTTY: false,
      ci: true,
    });
    expect(group.reporters.map((reporter) => reporter.name)).toEqual(["json", "console"]);
    expect(group.files).toEqual(["report.json"]);
  });

  it("writes every report into the run's directory and mirrors it to latest", async () => {
    const base = await reportDir();
    const { outputDir, latest, capture } = await runAll([...reporterNames], base, "run-1");
    const files = ["events.ndjson", "junit.xml", "report.html", "report.json", "summary.md"];
    expect((await readdir(outputDir)).sort()).toEqual(files);
    expect(latest).toBe(join(base, "latest"));
    expect(latestDirOf(outputDir)).toBe(join(base, "latest"));
    expect((await readdir(join(base, "latest"))).sort()).toEqual(files);
    expect(await readFile(join(base, "latest", "report.json"), "utf8")).toBe(
      await readFile(join(outputDir, "report.json"), "utf8"),
    );
    expect(capture.text).toContain("✓ PASSED");
    // No temporary file is left behind, in the run's directory or beside latest.
    expect((await readdir(base)).sort()).toEqual(["latest", "run-1"]);
  });

  it("latest is replaced whole: no file of an earlier run's reporter survives beside this run's", async () => {
    const base = await reportDir();
    await runAll(["json", "html"], base, "run-1");
    const { latest } = await runAll(["json"], base, "run-2", failingRun());
    expect(await readdir(latest!)).toEqual(["report.json"]);
    expect(JSON.parse(await readFile(join(latest!, "report.json"), "utf8")).runId).toBe(
      "20250301T120500Z-fail",
    );
  });

  it("a console-only run writes no directory and no latest", async () => {
    const base = await reportDir();
    const { latest } = await runAll(["console"], base, "run-1");
    expect(latest).toBeUndefined();
    expect(await readdir(base)).toEqual([]);
  });

  it("closes every reporter even when one fails, mirrors, then reports the failure", async () => {
    const base = await reportDir();
    const outputDir = join(base, "run-1");
    await mkdir(outputDir);
    await writeFile(join(outputDir, "ok.txt"), "ok");
    const closed: string[] = [];
    const failing: Reporter = {
      name: "bad",
      files: ["bad.txt"],
      close: async () => Promise.reject(new Error("disk full")),
    };
    const good: Reporter = { name: "good", files: ["ok.txt"], close: async () => void closed.push("good") };
    const group = createReporterGroup([failing, good], { outputDir });
    await expect(group.close()).rejects.toThrow("disk full");
    expect(closed).toEqual(["good"]);
    expect(await readdir(join(base, "latest"))).toEqual(["ok.txt"]);
  });

  it("closes the file reporters, mirrors and tells afterFiles, then closes the console ones (their lines end the output)", async () => {
    const base = await reportDir();
    const outputDir = join(base, "run-2");
    await mkdir(outputDir);
    const order: string[] = [];
    const console: Reporter = { name: "console", files: [], close: async () => void order.push("console") };
    const file: Reporter = {
      name: "json",
      files: ["report.json"],
      close: async () => {
        await writeFile(join(outputDir, "report.json"), "{}");
        order.push("json");
      },
    };
    const group = createReporterGroup([console, file], { outputDir });
    const latest = await group.close((mirror) =>
      order.push(`files named, mirror ${mirror === undefined ? "none" : "made"}`),
    );
    expect(order).toEqual(["json", "files named, mirror made", "console"]);
    expect(latest).toBe(join(base, "latest"));
  });

  it("delivers each event to each reporter's hook, awaiting async ones in order", async () => {
    const seen: string[] = [];
    const slow: Reporter = {
      name: "slow",
      files: [],
      "case-finished": async (event) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.push(`slow:${event.caseId}`);
      },
    };
    const fast: Reporter = {
      name: "fast",
      files: [],
      "suite-finished": (event) => void seen.push(`fast:${event.suiteId}`),
    };
    const group = createReporterGroup([slow, fast], { outputDir: "/nonexistent", mirrorLatest: false });
    for (const event of allGreenRun()) await group.emit(event);
    expect(seen).toEqual([
      "slow:list",
      "slow:get",
      "slow:get-missing",
      "fast:instances-read",
      "slow:regions",
      "slow:walk-pages",
      "fast:pagination",
    ]);
    // A synchronous delivery costs no promise.
    expect(group.emit({ type: "warning", message: "x" })).toBeUndefined();
  });

  it("writeLatest does nothing for a missing directory or for latest itself", async () => {
    const base = await reportDir();
    expect(await writeLatest(join(base, "nope"))).toBeUndefined();
    await mkdir(join(base, "latest"));
    expect(await writeLatest(join(base, "latest"))).toBeUndefined();
  });
});
