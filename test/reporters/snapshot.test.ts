/**
 * Snapshots of the reports while a run goes on (`run-snapshot`, the proxy's `--report-every`): every file reporter
 * writes from its record and the snapshot, the record itself untouched; the group answers what it wrote and what
 * failed, and never rejects.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { CaseFinished, RunEvent, RunFinished, RunSnapshot } from "../../src/core/events.ts";
import { createReporterGroup, createReporters, type Reporter } from "../../src/reporters/index.ts";
import type { JsonReport } from "../../src/reporters/json.ts";
import schema from "../../src/reporters/report.schema.json" with { type: "json" };
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { failingRun } from "../fixtures/events/with-failures.ts";
import { Capture, reportDir } from "./helpers.ts";

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

const takenAt = "2025-03-01T12:00:30.000Z";

/**
 * A run cut at its last case: the events before it, and a snapshot holding that case, its suite's end if the stream
 * has one, and the run's end, as a session still going would say them; `after` is the rest of the stream.
 */
function cutAtLastCase(events: RunEvent[]) {
  const at = events.findLastIndex((event) => event.type === "case-finished");
  const last = events[at] as CaseFinished;
  const after = events.slice(at);
  const suiteEnd = after.find((event) => event.type === "suite-finished" && event.suiteId === last.suiteId);
  const snapshot: RunSnapshot = {
    type: "run-snapshot",
    sequence: 1,
    takenAt,
    cases: [last],
    suites: suiteEnd?.type === "suite-finished" ? [suiteEnd] : [],
    finished: after.find((event) => event.type === "run-finished") as RunFinished,
  };
  return { before: events.slice(0, at), snapshot, after };
}

async function writeRun(
  names: string[],
  events: RunEvent[],
  snapshotAfter?: (outputDir: string) => Promise<void>,
) {
  const outputDir = join(await reportDir(), "run");
  const group = createReporters(names, { outputDir, stream: new Capture(), isTTY: false, ci: true });
  const { before, snapshot, after } = cutAtLastCase(events);
  for (const event of before) await group.emit(event);
  const written = await group.snapshot(snapshot);
  await snapshotAfter?.(outputDir);
  for (const event of after) await group.emit(event);
  await group.close();
  return { outputDir, written, snapshot };
}

const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8")) as JsonReport;

describe("report snapshots (run-snapshot)", () => {
  it.each([
    ["with failures", failingRun],
    ["all green", allGreenRun],
  ])("%s: every file report is written as a snapshot, then replaced by the final one", async (_name, run) => {
    let snapshotReport: JsonReport | undefined;
    const texts: Record<string, string> = {};
    const { outputDir, written } = await writeRun(
      ["console", "json", "junit", "html", "markdown"],
      run(),
      async (dir) => {
        snapshotReport = await readJson(join(dir, "report.json"));
        for (const file of ["junit.xml", "report.html", "summary.md"])
          texts[file] = await readFile(join(dir, file), "utf8");
      },
    );
    expect(written.failures).toEqual([]);
    expect(written.files).toEqual(["report.json", "junit.xml", "report.html", "summary.md"]);
    expect(written.latest).toBe(join(outputDir, "..", "latest"));
    const final = await readJson(join(outputDir, "report.json"));
    expect(validate(snapshotReport), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(final), JSON.stringify(validate.errors)).toBe(true);
    expect(snapshotReport).toMatchObject({
      snapshot: { sequence: 1, takenAt },
      complete: false,
      exitCode: null,
      finishedAt: null,
    });
    // What was judged until the snapshot is what the end says of it: the same cases, counts and groups.
    expect(snapshotReport?.suites).toEqual(final.suites);
    expect(snapshotReport?.counts).toEqual(final.counts);
    expect(snapshotReport?.groups).toEqual(final.groups);
    expect(snapshotReport?.exchanges.total).toBe(final.exchanges.total);
    expect(final).toMatchObject({ snapshot: null, complete: true });
    expect(final.exitCode).not.toBeNull();
    expect(texts["junit.xml"]).toContain(`name="conform.snapshot" value="1 at ${takenAt}"`);
    expect(texts["report.html"]).toContain(`Snapshot 1, taken at ${takenAt}`);
    expect(texts["summary.md"]).toContain(`**Snapshot 1, taken at ${takenAt}`);
    for (const file of ["junit.xml", "report.html", "summary.md"])
      expect(await readFile(join(outputDir, file), "utf8")).not.toContain("Snapshot 1");
  });

  it("leaves the reporters' records as they were: the final reports equal those of a run without a snapshot", async () => {
    const names = ["json", "junit", "markdown"];
    const withSnapshot = await writeRun(names, failingRun());
    const plainDir = join(await reportDir(), "run");
    const plain = createReporters(names, {
      outputDir: plainDir,
      stream: new Capture(),
      isTTY: false,
      ci: true,
    });
    for (const event of failingRun()) await plain.emit(event);
    await plain.close();
    for (const file of ["report.json", "junit.xml", "summary.md"])
      expect(await readFile(join(withSnapshot.outputDir, file), "utf8")).toBe(
        await readFile(join(plainDir, file), "utf8"),
      );
  });

  it("a reporter that fails to write its snapshot is answered, never thrown; the others' files are written", async () => {
    const outputDir = join(await reportDir(), "run");
    const refusing: Reporter = {
      name: "refusing",
      files: ["refused.txt"],
      "run-snapshot": async () => {
        throw Object.assign(new Error("no space left"), { code: "ENOSPC" });
      },
    };
    const json = createReporters(["json"], { outputDir, stream: new Capture(), isTTY: false, ci: true })
      .reporters[0] as Reporter;
    const group = createReporterGroup([refusing, json], { outputDir, mirrorLatest: false });
    const { before, snapshot } = cutAtLastCase(failingRun());
    for (const event of before) await group.emit(event);
    const written = await group.snapshot(snapshot);
    expect(written.files).toEqual(["report.json"]);
    expect(written.latest).toBeUndefined();
    expect(written.failures).toHaveLength(1);
    expect((written.failures[0] as NodeJS.ErrnoException).code).toBe("ENOSPC");
    // Through `emit` (a plain listener) it resolves all the same.
    await expect(group.emit(snapshot)).resolves.toBeUndefined();
  });
});
