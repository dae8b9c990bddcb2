import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunInterrupted } from "../../src/core/errors.ts";
import type { CaseFinished, RunEvent } from "../../src/core/events.ts";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { type RunConfig, runConfigDefaults } from "../../src/runner/config.ts";
import { runConformance } from "../../src/runner/run.ts";
import { nothingJudged } from "../../src/runner/run-case.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";

const fixtures = join(import.meta.dirname, "../fixtures/suites");

function config(overrides: Partial<RunConfig>): RunConfig {
  return { ...runConfigDefaults, specPath: bundledSpecPath, seed: 7, reporters: [], ...overrides };
}

async function run(overrides: Partial<RunConfig>, controller = new AbortController()) {
  const events: RunEvent[] = [];
  const finished = await runConformance(config(overrides), {
    runId: "20261123T000000Z-test",
    listeners: [(event) => void events.push(event)],
    signal: controller.signal,
    toolVersion: "test",
  });
  return { finished, events };
}

const failedCases = (events: RunEvent[]) =>
  events.filter(
    (event): event is CaseFinished => event.type === "case-finished" && event.status !== "passed",
  );

describe("a run against the embedded reference server", () => {
  it("passes no case that asserted nothing: it is skipped, saying so, even when its requests were judged", async () => {
    const { finished, events } = await run({ suitePaths: [fixtures], suites: ["unjudged"] });
    const cases = events.filter((event): event is CaseFinished => event.type === "case-finished");
    expect(cases.map((event) => [event.caseId, event.status, event.skipReason])).toEqual([
      ["looks-only", "skipped", nothingJudged],
      ["judges", "passed", undefined],
    ]);
    expect(cases[0]?.exchangeCount).toBe(1);
    expect(cases[0]?.passedChecks).toBeGreaterThan(0);
    expect(finished.counts).toMatchObject({ passed: 1, skipped: 1 });
  });

  it("passes every check of the starter suites and covers what it touched", async () => {
    const { finished, events } = await run({ suites: ["catalogue", "lists"] });
    expect(failedCases(events)).toEqual([]);
    expect(finished).toMatchObject({ status: "passed", exitCode: 0 });
    expect(finished.counts.passed).toBeGreaterThan(4);
    const regions = finished.coverage.find((entry) => entry.operationId === "getRegions");
    expect(regions?.statuses).toEqual([200, 400]);
    expect(events[0]?.type).toBe("run-started");
    expect(events.at(-1)?.type).toBe("run-finished");
    // Passes are counted per case, never announced one by one.
    const checkEvents = events.filter((event) => event.type === "check");
    expect(checkEvents.filter((event) => event.result.outcome.status === "passed")).toEqual([]);
    const passes = events.reduce(
      (sum, event) => sum + (event.type === "case-finished" ? event.passedChecks : 0),
      0,
    );
    expect(passes).toBeGreaterThan(finished.exchanges);
  });

  it("deletes what a writing suite created, and never lets the token reach an event", async () => {
    const { finished, events } = await run({ suitePaths: [fixtures], suites: ["writes-probe"] });
    expect(finished.exitCode).toBe(0);
    expect(finished.cleanup).toEqual({ deleted: 1, failed: [] });
    const started = events[0] as Extract<RunEvent, { type: "run-started" }>;
    expect(started.target.embedded).toBe(true);
    const text = JSON.stringify(events);
    expect(text).toContain("[REDACTED]");
    expect(text).not.toMatch(/Bearer [0-9a-f]{64}/);
  });
});

describe("an interrupted run", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s in a property: the case is interrupted (nothing falsified, no reproduction), the rest skipped, cleanup done, exit %i",
    async (signal, exitCode) => {
      const controller = new AbortController();
      const interrupt = () => controller.abort(new RunInterrupted(signal));
      const { finished, events } = await run(
        { suitePaths: [fixtures], suites: ["interrupted-property"], suiteOptions: { interrupt } },
        controller,
      );
      const cases = events.filter((event): event is CaseFinished => event.type === "case-finished");
      expect(cases.map((event) => [event.caseId, event.status, event.skipReason])).toEqual([
        ["property", "interrupted", undefined],
        ["after", "skipped", "the run was interrupted"],
      ]);
      const [interrupted] = cases;
      expect(interrupted?.reproduction).toBeUndefined();
      expect(interrupted?.error).toBeUndefined();
      expect(interrupted?.results.filter((result) => result.outcome.status === "failed")).toEqual([]);
      // What it judged before the signal is kept: the creation's assertion and the checks on its answers.
      expect(interrupted?.passedChecks).toBeGreaterThan(1);
      expect(events.some((event) => event.type === "check" && event.result.outcome.status === "failed")).toBe(
        false,
      );
      expect(finished).toMatchObject({
        status: "interrupted",
        exitCode,
        counts: { passed: 0, failed: 0, errored: 0, skipped: 1, interrupted: 1 },
        cleanup: { deleted: 1, failed: [] },
      });
      expect(events.find((event) => event.type === "suite-finished")).toMatchObject({
        status: "interrupted",
      });
    },
  );
});

describe("the suites' own requests", () => {
  it("sends a valid request, errors a case whose unmarked request breaks the description (nothing sent), sends a marked one", async () => {
    const { events } = await run({ suitePaths: [fixtures], suites: ["own-requests"] });
    const cases = events.filter((event): event is CaseFinished => event.type === "case-finished");
    expect(cases.map((event) => [event.caseId, event.status, event.exchangeCount])).toEqual([
      ["valid", "passed", 1],
      ["invalid-unmarked", "errored", 0],
      ["invalid-marked", "passed", 1],
    ]);
    expect(cases[1]?.error).toEqual({
      code: "SUITE_REQUEST_INVALID",
      message: expect.stringMatching(
        /GET \/regions \(getRegions\).*rule parameter-schema: query\.page_size: 24/,
      ),
    });
    const exchanges = events.flatMap((event) => (event.type === "exchange" ? [event.exchange.request] : []));
    expect(exchanges.map((request) => request.breaks)).toEqual([
      undefined,
      "query.page_size: 24 is below its minimum",
    ]);
  });
});

describe("case tags and logs", () => {
  it("skips a case whose own tag is excluded, saying why, and reports what a case logged", async () => {
    const { events } = await run({
      suitePaths: [fixtures],
      suites: ["tagged-case"],
      excludeTags: ["beyond-description"],
    });
    const cases = events.filter((event): event is CaseFinished => event.type === "case-finished");
    expect(cases.map((event) => [event.caseId, event.status, event.skipReason])).toEqual([
      ["plain", "passed", undefined],
      ["extra", "skipped", "excluded by --exclude-tag beyond-description"],
    ]);
    expect(cases[0]?.logs).toEqual([expect.stringMatching(/^regions answered in \d+ ms$/)]);
  });
});

describe("a run against a target that breaks the contract", () => {
  let server: ReturnType<typeof createServer>;
  let baseUrl = "";
  beforeAll(async () => {
    // Answers every list with a page that lacks `results`, no X-Spec-Version, and 500 for singles.
    server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://x");
      if (/^\/v4\/(regions|compute\/types)$/.test(url.pathname)) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ data: [{ id: "r1" }], page: 1, pages: 1 }));
        return;
      }
      response.writeHead(500, { "content-type": "text/plain" });
      response.end("boom");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
  });
  afterAll(() => server.close());

  it("fails with the checks that name what is wrong, exit code 1", async () => {
    const { finished, events } = await run({ baseUrl, suites: ["catalogue"] });
    expect(finished).toMatchObject({ status: "failed", exitCode: 1 });
    const failedChecks = new Set(
      failedCases(events).flatMap((event) =>
        event.results.filter((result) => result.outcome.status === "failed").map((result) => result.checkId),
      ),
    );
    for (const id of [
      "spec-version-header",
      "body-matches-schema",
      "not-a-server-error",
      "error-body-shape",
    ]) {
      expect(failedChecks).toContain(id);
    }
    // Each failure was announced as it happened, once, with its group; the case reports a group's repeats as one
    // result with their count.
    const announced = events.flatMap((event) =>
      event.type === "check" && event.result.outcome.status === "failed"
        ? [`${event.result.checkId} ${event.result.group}`]
        : [],
    );
    const reported = failedCases(events).flatMap((event) =>
      event.results
        .filter((result) => result.outcome.status === "failed")
        .flatMap((result) =>
          Array.from({ length: result.count ?? 1 }, () => `${result.checkId} ${result.group}`),
        ),
    );
    expect(announced.sort()).toEqual(reported.sort());
    const withExchange = failedCases(events).find((event) => event.exchanges.length > 0);
    expect(withExchange?.exchanges[0]?.request.url).toContain(baseUrl);
  });

  it("stops after --max-failures failing cases: the rest are skipped, saying why", async () => {
    const { finished, events } = await run({ baseUrl, suites: ["catalogue"], maxFailures: 1 });
    expect(finished).toMatchObject({ status: "failed", exitCode: 1 });
    const cases = events.filter((event): event is CaseFinished => event.type === "case-finished");
    expect(cases.filter((event) => event.status === "failed" || event.status === "errored")).toHaveLength(1);
    const stopped = cases.filter((event) => event.status === "skipped");
    expect(stopped.length).toBeGreaterThan(0);
    for (const event of stopped)
      expect(event.skipReason).toBe("stopped after 1 failing cases (--max-failures)");
  });

  it("refuses a writing suite without --allow-writes, saying why", async () => {
    await expect(run({ baseUrl, suitePaths: [fixtures], suites: ["writes-probe"] })).rejects.toThrow(
      /--allow-writes/,
    );
    const { events } = await run({
      baseUrl,
      suitePaths: [fixtures],
      suites: [],
      tags: ["writes", "read-only"],
    });
    const skipped = events.filter(
      (event): event is CaseFinished => event.type === "case-finished" && event.suiteId === "writes-probe",
    );
    expect(skipped.map((event) => [event.status, event.skipReason])).toEqual([
      ["skipped", expect.stringContaining("--allow-writes")],
    ]);
  });
});

describe("runs that cannot do their job (exit 2)", () => {
  it.each([
    ["an unknown suite", { suites: ["nope"] }, /unknown suite nope/],
    ["a tag nothing has", { tags: ["no-such-tag"] }, /unknown tag no-such-tag \(--tag\)/],
    ["an unknown check", { checks: ["no-such-check"] }, /unknown check no-such-check/],
    ["an unreachable target", { baseUrl: "http://127.0.0.1:9/v4" }, /unreachable/],
    ["a spec that does not exist", { specPath: "/nonexistent/spec.yaml" }, /spec|description/i],
  ])("%s", async (_name, overrides, message) => {
    await expect(run(overrides as Partial<RunConfig>)).rejects.toThrow(message);
  });
});

describe("reference server leftovers", () => {
  let reference: ReferenceServer;
  beforeAll(async () => {
    reference = await createReferenceServer({ http: true });
  });
  afterAll(() => reference.close());

  it("a run against a started server with --allow-writes deletes everything it made", async () => {
    const { finished } = await run({
      baseUrl: reference.baseUrl,
      token: reference.token,
      suitePaths: [fixtures],
      suites: ["writes-probe"],
      allowWrites: true,
    });
    expect(finished.exitCode).toBe(0);
    expect(reference.state.nodeBalancers.size).toBe(0);
    expect(readdirSync(fixtures).length).toBeGreaterThan(0);
  });
});

describe("the start-up check of a target that never answers", () => {
  const silent = createServer(() => {});
  let baseUrl = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v4`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("ends at Ctrl-C with the interruption, not a minute later as unreachable", async () => {
    const controller = new AbortController();
    const running = run({ baseUrl, suites: ["catalogue"], timeoutMs: 60_000 }, controller);
    setTimeout(() => controller.abort(new RunInterrupted("SIGINT")), 200);
    await expect(running).rejects.toBeInstanceOf(RunInterrupted);
  });

  it("ends at --max-time with the time limit", async () => {
    const running = run({ baseUrl, suites: ["catalogue"], timeoutMs: 60_000, maxTimeMs: 200 });
    await expect(running).rejects.toMatchObject({ code: "RUN_TIME_LIMIT" });
  });
});
