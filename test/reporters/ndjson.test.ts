import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import { createNdjsonReporter, ndjsonReportFile, ndjsonVersion } from "../../src/reporters/ndjson.ts";
import { failingRun } from "../fixtures/events/with-failures.ts";
import { feed, fileOptions } from "./helpers.ts";

describe("ndjson reporter", () => {
  it("writes each event as one JSON line with its version, in order, run-snapshot left out", async () => {
    const options = await fileOptions();
    const events: RunEvent[] = failingRun();
    const snapshot = {
      type: "run-snapshot",
      sequence: 1,
      takenAt: "2025-03-01T12:05:01.000Z",
    } as unknown as RunEvent;
    await feed(createNdjsonReporter(options), [...events.slice(0, 2), snapshot, ...events.slice(2)]);
    const text = await readFile(join(options.outputDir, ndjsonReportFile), "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(events.length);
    const parsed = lines.map((line) => JSON.parse(line) as { version: number; type: string });
    expect(parsed.map((line) => line.version)).toEqual(events.map(() => ndjsonVersion));
    expect(parsed.map((line) => line.type)).toEqual(events.map((event) => event.type));
    expect(parsed[0]).toEqual({ version: ndjsonVersion, ...JSON.parse(JSON.stringify(events[0])) });
  });

  it("writes no file for a run that never started", async () => {
    const options = await fileOptions();
    await feed(createNdjsonReporter(options), []);
    await expect(readFile(join(options.outputDir, ndjsonReportFile), "utf8")).rejects.toThrow(/ENOENT/);
  });
});
