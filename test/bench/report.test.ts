/**
 * The bench judges goals from its figures, never assumes them: a section that did not run, or measured
 * something invalid, is "not judged"; the fuzz section says "not yet available" until the command exists.
 */
import { describe, expect, it } from "vitest";
import type { ClientOverheadResult } from "../../bench/client-overhead.ts";
import type { FullRunResult } from "../../bench/full-run.ts";
import { machineInfo, summarize } from "../../bench/measure.ts";
import { type BenchResults, judgeGoals, renderReport } from "../../bench/report.ts";
import type { SpecLoadingResult } from "../../bench/spec-loading.ts";

const base = {
  schemaVersion: 1 as const,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 1,
  machine: machineInfo(),
  loadAverage: { end: 0.5 },
  quick: false,
};

const synthetic = (coldMs: number, warmMs: number): SpecLoadingResult => ({
  name: "synthetic",
  bytes: 1_100_000,
  operations: 327,
  validators: 464,
  loadMs: summarize([warmMs]),
  firstValidatorMs: summarize([50]),
  allValidatorsMs: summarize([1500]),
  memory: {
    peakRssBytes: summarize([300e6]),
    baselineRssBytes: summarize([90e6]),
    coldLoadMs: summarize([coldMs]),
    coldAllValidatorsMs: summarize([2000]),
  },
  cutShort: false,
});

const lane = (perSecond: number, cpuUs: number, serverUs = 100) => ({
  perSecond: summarize([perSecond]),
  cpuUsPerRequest: summarize([cpuUs]),
  serverCpuUsPerRequest: summarize([serverUs]),
  coresBusy: summarize([((cpuUs + serverUs) * perSecond) / 1e6]),
});

const overhead = (ratio: number, valid = true, cpuVsValidating = 1.2): ClientOverheadResult => ({
  endpoint: "GET /x",
  concurrency: 8,
  requests: 100,
  runner: lane(ratio * 1000, 500),
  runnerNoChecks: lane(ratio * 1100, 450),
  raw: lane(1000, 100),
  validating: lane(900, 140),
  ratio: summarize([ratio]),
  floorRatio: summarize([0.9]),
  coresForGoal: summarize([0.48]),
  cpuRatio: summarize([0.2]),
  cpuVsValidating: summarize([cpuVsValidating]),
  checks: { passed: 900, failed: 0, casesFailed: 0 },
  valid,
  problems: valid ? [] : ["raw: answers other than 200"],
  cutShort: false,
});

const fullRun = (wallMs: number, exitCode = 0): FullRunResult => ({
  command: "conform run",
  wallMs: summarize([wallMs]),
  maxRssBytes: summarize([300e6]),
  cpuMs: summarize([wallMs / 2]),
  last: { wallMs, maxRssBytes: 300e6, cpuMs: 1, exitCode, status: "passed", counts: {}, exchanges: 10 },
  problems: exitCode > 1 ? [`conform run exited ${exitCode}`] : [],
  cutShort: false,
});

describe("judgeGoals", () => {
  it("judges each goal from its figure", () => {
    const goals = judgeGoals({
      ...base,
      specLoading: [synthetic(900, 300)],
      clientOverhead: overhead(0.85),
      fuzz: { available: false, reason: "not yet available: no command" },
      fullRun: fullRun(12_000),
    });
    expect(goals.map((goal) => [goal.section, goal.met])).toEqual([
      [1, true],
      [2, true],
      [2, true],
      [4, null],
      [5, true],
      [6, null],
      [7, null],
      [8, null],
      [9, null],
    ]);
    expect(goals.find((goal) => goal.section === 4)?.measured).toContain("not yet available");
  });

  it.each([
    { perOperation: [4.2, 4.4], met: true },
    { perOperation: [4.2, 8.4], met: false },
  ])("section 9 judges the growth of requests per operation $perOperation", ({ perOperation, met }) => {
    const rows = perOperation.map((requestsPerOperation, index) => ({
      resources: 28 * (index + 1),
      operations: 164 * (index + 1),
      requested: 164 * (index + 1),
      requests: Math.round(requestsPerOperation * 164 * (index + 1)),
      refused429: 0,
      requestsPerOperation,
      runMs: 60_000,
      wallMs: 65_000,
      boundMs: 40_000,
      overBound: 1.5,
    }));
    const genericLayer = {
      command: "conform run",
      limit: "250 requests per 5 s window",
      rows,
      growth: perOperation[1]! / perOperation[0]!,
      problems: [],
    };
    const goal = judgeGoals({ ...base, genericLayer }).find((entry) => entry.section === 9);
    expect(goal?.met).toBe(met);
    expect(goal?.measured).toContain("run / rate-limit bound at most 1.50");
    expect(renderReport({ ...base, genericLayer, goals: [] })).toContain("9. Generic layer");
  });

  it("misses what the figures miss: a cold load over 2 s even when warm is under, a low ratio, a slow run", () => {
    const goals = judgeGoals({
      ...base,
      specLoading: [synthetic(2100, 400)],
      clientOverhead: overhead(0.5, true, 1.3),
      fullRun: fullRun(31_000),
    });
    expect(goals.filter((goal) => goal.met === false).map((goal) => goal.section)).toEqual([1, 2, 2, 5]);
    expect(goals.find((goal) => goal.goal.includes("(a)/(c)"))?.measured).toMatch(
      /^1\.30 \(500 µs vs 140 µs/,
    );
  });

  it("judges the fuzz campaign's memory from its growth, and not at all when it fell short of its requests", () => {
    const run = {
      runs: 40,
      cases: 1000,
      requests: 3000,
      engineMs: 5000,
      wallMs: 6000,
      maxRssBytes: 300e6,
      exitCode: 0,
      status: "passed",
      casesPerSecond: 200,
      requestsPerSecond: 600,
    };
    const fuzz = (growthPct: number, problems: string[] = [], requests = 55_000) => ({
      available: true as const,
      command: "conform fuzz filters",
      small: run,
      large: { ...run, runs: 800, requests: 55_000, maxRssBytes: 300e6 * (1 + growthPct / 100) },
      casesPerSecond: 200,
      requestsPerSecond: 600,
      requests,
      peakRssBytes: 300e6 * (1 + growthPct / 100),
      firstHalfPeakRssBytes: 300e6,
      secondHalfPeakRssBytes: 300e6 * (1 + growthPct / 100),
      growthPct,
      retainedBytesPerRequest: (3e6 * growthPct) / 52_000,
      memoryFlat: growthPct <= 15,
      timeline: [],
      problems,
    });
    const judged = (result: ReturnType<typeof fuzz>) =>
      judgeGoals({ ...base, fuzz: result }).find((goal) => goal.section === 4)?.met;
    expect(judged(fuzz(5))).toBe(true);
    expect(judged(fuzz(80))).toBe(false);
    expect(judged(fuzz(5, ["the large campaign made 20000 requests, fewer than 50000"]))).toBeNull();
    // A --quick campaign of a few thousand requests is mostly start-up: not judged either way.
    expect(judged(fuzz(34, [], 3139))).toBeNull();
    expect(judged(fuzz(2, [], 3139))).toBeNull();
  });

  it("does not judge sections that did not run or measured something invalid", () => {
    const goals = judgeGoals({ ...base, clientOverhead: overhead(0.9, false), fullRun: fullRun(1000, 2) });
    expect(goals.every((goal) => goal.met === null)).toBe(true);
  });
});

describe("renderReport", () => {
  it("prints the machine, every section and the goals, saying what is not available", () => {
    const results: Omit<BenchResults, "goals"> = {
      ...base,
      specLoading: [synthetic(900, 300)],
      clientOverhead: overhead(0.5),
      fuzz: { available: false, reason: "not yet available: no command" },
      fullRun: fullRun(12_000),
    };
    const text = renderReport({ ...results, goals: judgeGoals(results) });
    expect(text).toContain(`${base.machine.cores} cores`);
    expect(text).toContain("(a)/(b)");
    expect(text).toMatch(/\(a0\) the same runner with every check off +550\/s/);
    expect(text).toMatch(/\(c\)\/\(b\): the most a client that checks bodies reaches here +0\.90/);
    expect(text).toMatch(
      /\(b\) raw undici Pool, body read as text +1 000\/s \(1 run\) +100 µs \(1 run\) +100 µs +0\.20/,
    );
    expect(text).toContain("would keep 0.48 cores busy");
    expect(text).toMatch(/\(a\)\/\(c\) client CPU per request \(goal <= 1\.25\) +1\.20/);
    expect(text).toContain("4. Fuzz campaign");
    expect(text).toContain("not yet available: no command");
    expect(text).toContain("[MISSED]");
    expect(text).toContain("[NOT JUDGED]");
  });
});
