import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { NotShown, RunEvent } from "../../src/core/events.ts";
import { painter } from "../../src/reporters/_internals/console-paint.ts";
import { summaryLines } from "../../src/reporters/_internals/console-summary.ts";
import { RunRecord } from "../../src/reporters/_internals/run-record.ts";
import { summaryInputOf } from "../../src/reporters/console.ts";
import { githubAnnotations } from "../../src/reporters/github.ts";
import { htmlReport } from "../../src/reporters/html.ts";
import { createJsonReporter, type JsonReport, jsonReportFile } from "../../src/reporters/json.ts";
import { junitXml } from "../../src/reporters/junit.ts";
import { markdownSummary } from "../../src/reporters/markdown.ts";
import { mergeNotShown } from "../../src/reporters/merge-reports.ts";
import schema from "../../src/reporters/report.schema.json" with { type: "json" };
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { feed, fileOptions } from "./helpers.ts";

const notShown: NotShown = {
  operations: {
    exercised: 3,
    total: 15,
    neverHit: Array.from({ length: 12 }, (_, index) => `operation${index + 1}`),
  },
  rules: [
    {
      id: "rate-limit",
      missing: "no 429 seen",
      unproven: "the rate-limit rules are unproven",
    },
  ],
  checks: [{ checkId: "observed-deprecated", why: "no exchange was about it" }],
};

/** The all-green run as traffic judged by a proxy: its end says what the traffic never showed. */
function trafficRun(): RunEvent[] {
  return allGreenRun().map((event) => (event.type === "run-finished" ? { ...event, notShown } : event));
}

function recordOf(events: readonly RunEvent[]): RunRecord {
  const record = new RunRecord();
  for (const event of events)
    (record.hooks[event.type as keyof typeof record.hooks] as (e: RunEvent) => void)?.(event);
  return record;
}

const lines = [
  "the traffic exercised 3 of 15 operations; never hit: operation1, operation2, operation3, operation4, operation5, operation6, operation7, operation8, operation9, operation10 and 2 more",
  "no 429 seen: the rate-limit rules are unproven",
  "check observed-deprecated judged nothing (no exchange was about it)",
];

describe("the 'not shown by this traffic' section", () => {
  it("console: a section before the verdict", () => {
    const text = summaryLines(summaryInputOf(recordOf(trafficRun()), 100), painter(false)).join("\n");
    expect(text).toContain(`Not shown by this traffic:\n${lines.map((line) => `  - ${line}`).join("\n")}`);
    expect(text.indexOf("Not shown")).toBeLessThan(text.indexOf("PASSED"));
  });

  it("markdown: a list", () => {
    const text = markdownSummary(recordOf(trafficRun()));
    expect(text).toContain("**Not shown by this traffic**:");
    expect(text).toContain("- no 429 seen: the rate\\-limit rules are unproven");
  });

  it("html: a section", () => {
    const text = htmlReport(recordOf(trafficRun()));
    expect(text).toContain('<section id="not-shown">');
    expect(text).toContain("<li>no 429 seen: the rate-limit rules are unproven</li>");
  });

  it("junit: one property a line", () => {
    const text = junitXml(recordOf(trafficRun()));
    expect(text).toContain(
      '<property name="conform.notShown.2" value="no 429 seen: the rate-limit rules are unproven"/>',
    );
  });

  it("github: one notice", () => {
    const notice = githubAnnotations(recordOf(trafficRun())).at(-1);
    expect(notice).toMatch(
      /^::notice title=conform%3A not shown by this traffic::the traffic exercised 3 of 15/,
    );
    expect(notice).toContain("%0Ano 429 seen");
  });

  it("json: a field valid against the schema", async () => {
    const options = await fileOptions();
    await feed(createJsonReporter(options), trafficRun());
    const report = JSON.parse(await readFile(join(options.outputDir, jsonReportFile), "utf8")) as JsonReport;
    expect(report.notShown).toEqual(notShown);
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(report) ? [] : validate.errors).toEqual([]);
  });

  it("a run has none in any format", async () => {
    const record = recordOf(allGreenRun());
    expect(summaryLines(summaryInputOf(record, 100), painter(false)).join("\n")).not.toContain("Not shown");
    expect(markdownSummary(record)).not.toContain("Not shown");
    expect(htmlReport(record)).not.toContain("not-shown");
    expect(junitXml(record)).not.toContain("notShown");
    expect(githubAnnotations(record).join("\n")).not.toContain("not shown");
    const options = await fileOptions();
    await feed(createJsonReporter(options), allGreenRun());
    const report = JSON.parse(await readFile(join(options.outputDir, jsonReportFile), "utf8")) as JsonReport;
    expect(report.notShown).toBeNull();
  });
});

describe("mergeNotShown", () => {
  const other: NotShown = {
    operations: { exercised: 14, total: 15, neverHit: ["operation2"] },
    rules: [],
    checks: [
      { checkId: "observed-deprecated", why: "skipped: x" },
      { checkId: "auth-status", why: "no exchange was about it" },
    ],
  };

  it.each([
    { name: "none given", all: [], merged: undefined },
    { name: "a report without it (a run, or before 2.5.0)", all: [notShown, null], merged: undefined },
    { name: "one report", all: [notShown], merged: notShown },
    {
      name: "what none of them showed",
      all: [notShown, other],
      merged: {
        operations: { exercised: 14, total: 15, neverHit: ["operation2"] },
        rules: [],
        checks: [{ checkId: "observed-deprecated", why: "no exchange was about it" }],
      },
    },
  ])("$name", ({ all, merged }) => {
    expect(mergeNotShown(all)).toEqual(merged);
  });
});
