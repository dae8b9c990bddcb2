import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.ts";
import { compareWithBaseline, readBaseline, readDurations } from "../../src/runner/earlier-report.ts";

const dir = mkdtempSync(join(tmpdir(), "conform-earlier-"));
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const group = (id: string, suiteId: string) => ({
  id,
  checkId: "spec-version-header",
  shape: "X-Spec-Version is <n>",
  example: "X-Spec-Version is 4.1",
  firstCases: [{ suiteId, caseId: "one" }],
});

describe("reading an earlier report", () => {
  it("reads suite durations and case counts", () => {
    const path = file("durations.json", {
      schemaVersion: "2.1.0",
      suites: [{ id: "a", durationMs: 120, cases: [{}, {}] }, { id: "b" }],
    });
    expect([...readDurations(path)]).toEqual([["a", { durationMs: 120, cases: 2 }]]);
  });

  it("keeps no duration that is not a finite number (1e999 parses as Infinity)", () => {
    const path = file("infinite.json", '{"schemaVersion":"2.1.0","suites":[{"id":"a","durationMs":1e999}]}');
    expect([...readDurations(path)]).toEqual([]);
  });

  it.each([
    ["missing.json", undefined, /--baseline .*missing.json: cannot be read \(ENOENT\)/],
    ["garbage.json", "{", /not a readable report.json/],
    ["old.json", { schemaVersion: "1.0.0", groups: [] }, /schemaVersion 2.x/],
    ["nogroups.json", { schemaVersion: "2.1.0" }, /no failure groups/],
    ["group-id.json", { schemaVersion: "2.1.0", groups: [{ id: 5, checkId: "x" }] }, /groups\[0\] has no id/],
    [
      "group-shape.json",
      { schemaVersion: "2.1.0", groups: [{ id: "g", checkId: "x", shape: "s".repeat(5000) }] },
      /groups\[0\] has a shape or example that is not text of at most 4096/,
    ],
    [
      "group-cases.json",
      { schemaVersion: "2.1.0", groups: [{ id: "g", checkId: "x", firstCases: [{ suiteId: {} }] }] },
      /groups\[0\] has a first case without a suiteId/,
    ],
    ["group-null.json", { schemaVersion: "2.1.0", groups: [null] }, /groups\[0\] is not an object/],
  ])("refuses %s as a baseline, naming the option and file", (name, content, message) => {
    const path = content === undefined ? join(dir, name) : file(name, content);
    expect(() => readBaseline(path)).toThrow(ConfigError);
    expect(() => readBaseline(path)).toThrow(message);
  });

  it("calls a group known, new or fixed; a baseline group of a suite not run is none of them", () => {
    const baseline = readBaseline(
      file("baseline.json", {
        schemaVersion: "2.1.0",
        groups: [group("g1", "versioning"), group("g2", "versioning"), group("g3", "filters")],
      }),
    );
    expect(compareWithBaseline(baseline, ["g1", "g4"], new Set(["versioning"]))).toEqual({
      known: ["g1"],
      new: ["g4"],
      fixed: [
        {
          id: "g2",
          checkId: "spec-version-header",
          shape: "X-Spec-Version is <n>",
          example: "X-Spec-Version is 4.1",
          suites: ["versioning"],
        },
      ],
    });
  });
});
