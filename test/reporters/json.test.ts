import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import {
  createJsonReporter,
  type JsonReport,
  jsonReportFile,
  reportSchemaVersion,
} from "../../src/reporters/json.ts";
import schema from "../../src/reporters/report.schema.json" with { type: "json" };
import { allGreenRun } from "../fixtures/events/all-green.ts";
import { crashedRun, interruptedRun } from "../fixtures/events/interrupted.ts";
import {
  failingRun,
  hostileHtmlBody,
  hostileLabel,
  repeatedFailureRun,
} from "../fixtures/events/with-failures.ts";
import { feed, fileOptions } from "./helpers.ts";

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

async function report(events: RunEvent[]): Promise<{ report: JsonReport; text: string }> {
  const options = await fileOptions();
  await feed(createJsonReporter(options), events);
  const text = await readFile(join(options.outputDir, jsonReportFile), "utf8");
  return { report: JSON.parse(text) as JsonReport, text };
}

function expectValid(value: unknown): void {
  const valid = validate(value);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}

describe("json reporter", () => {
  it("the schema's $id carries the major version the reports declare", () => {
    expect(schema.$id).toBe(`urn:conform:report:${reportSchemaVersion}`);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it.each([
    ["all green", allGreenRun],
    ["with failures", failingRun],
    ["interrupted", interruptedRun],
    ["crashed", crashedRun],
  ])("writes a report valid against report.schema.json (%s)", async (_name, events) => {
    const { report: value } = await report(events());
    expectValid(value);
    expect(value.schemaVersion).toBe(reportSchemaVersion);
  });

  it.each([
    ["finished", repeatedFailureRun],
    [
      "stopped before run-finished",
      () => repeatedFailureRun().filter((event) => event.type !== "run-finished"),
    ],
  ])("keeps the failure groups with every count, largest first (%s)", async (_name, events) => {
    const { report: value } = await report(events());
    expectValid(value);
    expect(value.groups.map((group) => [group.checkId, group.failures, group.cases])).toEqual([
      ["body-matches-schema", 2, 2],
      ["error:TRANSPORT_TIMEOUT", 1, 1],
      ["filter-semantics", 1, 1],
      ["not-a-server-error", 1, 1],
    ]);
    const cases = value.suites.flatMap((suite) => suite.cases);
    const schemaGroup = value.groups[0]!.id;
    expect(cases.filter((one) => one.results.some((result) => result.group === schemaGroup))).toHaveLength(2);
    expect(cases.find((one) => one.status === "errored")?.errorGroup).toBe(value.groups[1]!.id);
  });

  it("records the run's metadata, counts and coverage (all green)", async () => {
    const { report: value } = await report(allGreenRun());
    expect(value).toMatchObject({
      runId: "20250301T120000Z-green",
      status: "passed",
      complete: true,
      exitCode: 0,
      durationMs: 1250,
      seed: 424242,
      tool: { name: "conform", version: "0.1.0" },
      node: { version: "v24.21.0" },
      target: { embedded: true },
      spec: { version: "4.189.0", operations: 6 },
      counts: { passed: 5, failed: 0, skipped: 0, errored: 0, total: 5 },
      checks: { passed: 36, failed: 0, skipped: 1 },
      exchanges: { total: 7, retries: 0, rateLimited: 0 },
      coverage: { operations: { exercised: 3, total: 6 }, statuses: [200, 404] },
      cleanup: { deleted: 0, failed: [] },
      unfinishedCases: [],
    });
    expect(value.exchanges.latency.count).toBe(7);
    expect(value.suites.map((suite) => [suite.id, suite.status, suite.cases.length])).toEqual([
      ["instances-read", "passed", 3],
      ["pagination", "passed", 2],
    ]);
    // Passing exchanges are counted, never kept.
    expect(value.suites.flatMap((suite) => suite.cases.flatMap((one) => one.exchanges))).toEqual([]);
    expect(value.suites[0]?.cases[2]?.results[0]?.outcome).toEqual({
      status: "skipped",
      reason: "the target sends no rate-limit headers on 404 (api/facts.md §4)",
    });
  });

  it("keeps failures in full: results, failing exchanges, seed and counterexample", async () => {
    const { report: value } = await report(failingRun());
    expect(value).toMatchObject({
      status: "failed",
      exitCode: 1,
      counts: { passed: 2, failed: 2, skipped: 1, errored: 1, total: 6 },
      exchanges: { total: 6, retries: 2, rateLimited: 2 },
      warnings: ["the target sent no X-RateLimit-Reset header; pacing by Retry-After only"],
    });
    const cases = new Map(
      value.suites.flatMap((suite) => suite.cases.map((one) => [`${suite.id}/${one.id}`, one])),
    );
    const get = cases.get("instances-read/get")!;
    expect(get.status).toBe("failed");
    expect(get.results.map((result) => result.outcome.status)).toEqual(["failed", "skipped"]);
    expect(get.exchanges).toHaveLength(1);
    expect(get.exchanges[0]?.response?.json).toMatchObject({ label: hostileLabel });
    expect(get.exchanges[0]?.request.body).toBeNull();
    expect(get.exchanges[0]?.operationId).toBe("getComputeInstance");
    const filter = cases.get("x-filter/filter-property")!;
    expect(filter.reproduction).toEqual({
      seed: -1893247561,
      path: "41:2:0",
      counterexample: { "+and": [{ region: "us-east" }, { label: { "+contains": "a'b" } }] },
      replay: "conform replay --suite x-filter --case filter-property --seed -1893247561 --path 41:2:0",
    });
    expect(cases.get("workflows/resize")).toMatchObject({
      status: "skipped",
      skipReason: "needs the costly tag (--tag costly)",
    });
    const errored = cases.get("workflows/balancer-health")!;
    expect(errored.error).toEqual({
      code: "TRANSPORT_TIMEOUT",
      message: "no answer from the target within 30000 ms",
    });
    expect(errored.exchanges[0]?.response?.text).toBe(hostileHtmlBody);
    expect(errored.exchanges[0]?.response).not.toHaveProperty("json");
    // 200 (list), 400, 502 and 429-retried regions: every status the engine reported, in order.
    expect(value.coverage.statuses).toEqual([200, 400, 429, 502]);
  });

  it("keeps no exchange of a passed or skipped case, even when the event carries some", async () => {
    const events = allGreenRun().map((event): RunEvent => {
      if (event.type !== "case-finished" || event.caseId !== "get-missing") return event;
      const sent = allGreenRun().find((one) => one.type === "exchange" && one.caseId === "get-missing");
      return { ...event, exchanges: sent?.type === "exchange" ? [sent.exchange] : [] };
    });
    expect(events.some((event) => event.type === "case-finished" && event.exchanges.length > 0)).toBe(true);
    const { report: value } = await report(events);
    expectValid(value);
    const missing = value.suites[0]?.cases.find((one) => one.id === "get-missing");
    expect(missing?.exchanges).toEqual([]);
    expect(missing?.results).toHaveLength(1);
  });

  it("writes one case a line, so a large report streams and diffs well", async () => {
    const { text } = await report(failingRun());
    const caseLines = text
      .split("\n")
      .filter((line) => line.startsWith('{"id":') || line.startsWith(',{"id":'));
    expect(caseLines.length).toBeGreaterThanOrEqual(6);
  });

  it("an interrupted run is not complete, and keeps its interrupted case, counts and cleanup leftovers", async () => {
    const { report: value } = await report(interruptedRun());
    expect(value).toMatchObject({
      status: "interrupted",
      complete: false,
      exitCode: 130,
      counts: { passed: 2, failed: 0, skipped: 1, errored: 0, interrupted: 1, total: 4 },
      unfinishedCases: [],
      cleanup: { deleted: 0, failed: ["linode/instances/123 (conform-ab12-web): 500 on DELETE"] },
    });
    expect(value.suites.map((suite) => [suite.id, suite.status, suite.plannedCases])).toEqual([
      ["workflows", "interrupted", 4],
      ["pagination", "skipped", 2],
    ]);
    const boot = value.suites[0]?.cases.find((one) => one.id === "boot");
    expect(boot).toMatchObject({ status: "interrupted", passedChecks: 3 });
    expect(boot).not.toHaveProperty("reproduction");
    expect(boot).not.toHaveProperty("error");
  });

  it("a run that stopped in a case keeps it as unfinished, not-run suites too", async () => {
    const { report: value } = await report(crashedRun());
    expect(value.unfinishedCases).toEqual([
      { suiteId: "workflows", caseId: "boot", title: "the instance boots" },
    ]);
    expect(value.suites.map((suite) => [suite.id, suite.status, suite.plannedCases])).toEqual([
      ["workflows", "incomplete", 4],
      ["pagination", "not-run", 2],
    ]);
  });

  it("a run that never finished is written all the same, marked incomplete", async () => {
    const { report: value } = await report(crashedRun());
    expect(value).toMatchObject({
      status: "interrupted",
      complete: false,
      exitCode: null,
      finishedAt: null,
      durationMs: null,
      cleanup: null,
      counts: { passed: 2, total: 2 },
      exchanges: { total: 2 },
      // Without the engine's coverage, what the exchanges showed.
      coverage: { operations: { exercised: 2, total: 6 }, statuses: [200] },
    });
  });

  it("writes nothing when the run never started", async () => {
    const options = await fileOptions();
    await feed(createJsonReporter(options), []);
    await expect(readFile(join(options.outputDir, jsonReportFile))).rejects.toThrow(/ENOENT/);
  });

  it("keeps what a deliberately invalid request breaks, and nothing for the others", async () => {
    const breaks = "body: a JSON array where the request schema wants an object";
    let marked = false;
    const events = failingRun().map((event) => {
      if (event.type !== "case-finished" || marked || event.exchanges.length === 0) return event;
      marked = true;
      const [first, ...rest] = event.exchanges;
      return { ...event, exchanges: [{ ...first!, request: { ...first!.request, breaks } }, ...rest] };
    });
    const { report: value, text } = await report(events);
    expectValid(value);
    expect(text.match(/"breaks"/g)).toHaveLength(1);
    expect(text).toContain(JSON.stringify(breaks));
  });

  it("the schema refuses a report that drifts from it", () => {
    expect(validate({ schemaVersion: "2.0.0" })).toBe(false);
  });
});
