/**
 * Section 2: client overhead. The same N requests to the same reference endpoint (the filtered list of
 * workload.ts), at the same concurrency:
 * (a) through the runner (`runConformance` with bench-only suites loaded by `suitePaths`): pacing, the HTTP
 *     client recording and redacting every exchange, every built-in check on every exchange, the event stream
 *     and the JSON reporter listening;
 * (a0) the same runner with every check turned off (`excludeChecks`): (a) - (a0) is what the checks cost, the
 *     rest of (a) the engine, the client and recording;
 * (b) through a raw undici Pool that only reads each body;
 * (c) through the same raw Pool, each body parsed and validated with the spec's compiled validator for the
 *     answer (full formats, as the runner does): what checking a body costs by itself, the floor under (a) for
 *     any client that checks what it receives.
 * Each repetition runs (a), (a0), (b) and (c), every other one in reverse order, so drift on the machine hits
 * all; ratios are taken per repetition.
 * Besides throughput, the client process's CPU time per request tells the overhead even when the server is the
 * bottleneck.
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { builtinChecks } from "../src/checks/index.ts";
import type { RunEvent } from "../src/core/events.ts";
import { createReporters } from "../src/reporters/index.ts";
import { type RunConfig, runConfigDefaults } from "../src/runner/config.ts";
import { runConformance } from "../src/runner/run.ts";
import { bundledSpecPath } from "../src/spec/bundled.ts";
import { loadSpec } from "../src/spec/load.ts";
import type { Validator } from "../src/spec/types.ts";
import { type Summary, summarize } from "./measure.ts";
import { writeOverheadSuites } from "./overhead-suite.ts";
import { createPool, rawLoad } from "./raw-client.ts";
import type { ServerChild } from "./server-child.ts";
import { filteredList, filteredListRequest } from "./workload.ts";

export interface OverheadOptions {
  readonly concurrency: number;
  readonly requests: number;
  readonly requestsPerCase: number;
  readonly warmupRequests: number;
  readonly reps: number;
  /** Stop starting repetitions after this long (at least 2 run). */
  readonly maxMs: number;
}

export interface OverheadSample {
  readonly requests: number;
  readonly perSecond: number;
  readonly clientCpuUsPerRequest: number;
  /** Answers by status. */
  readonly statuses: Readonly<Record<string, number>>;
}

/** One lane's figures over the repetitions. */
export interface LaneSummary {
  readonly perSecond: Summary;
  /** The bench process's CPU time per request (user + system). */
  readonly cpuUsPerRequest: Summary;
  /** The server process's CPU time per request, over the same lane. */
  readonly serverCpuUsPerRequest: Summary;
  /** Client and server CPU per second of the lane: how many of the machine's cores the two kept busy. */
  readonly coresBusy: Summary;
}

export interface ClientOverheadResult {
  readonly endpoint: string;
  readonly concurrency: number;
  readonly requests: number;
  /** (a) the runner, (a0) the runner with every check off, (b) the raw Pool, (c) the raw Pool validating. */
  readonly runner: LaneSummary;
  readonly runnerNoChecks: LaneSummary;
  readonly raw: LaneSummary;
  readonly validating: LaneSummary;
  /** (a)/(b) throughput, per repetition. */
  readonly ratio: Summary;
  /** (c)/(b) throughput, per repetition: the most any checking client could reach on this machine. */
  readonly floorRatio: Summary;
  /** (b)/(a) client CPU per request: the share of the raw client's CPU cost the runner adds on top, inverted. */
  readonly cpuRatio: Summary;
  /**
   * (a)/(c) client CPU per request, per repetition: what the runner spends per request against a raw client that
   * parses and validates the same body (the goal: at most `cpuGoal` in report.ts).
   */
  readonly cpuVsValidating: Summary;
  /**
   * The cores (a) would keep busy at 0.8 of (b)'s rate with its measured client and server CPU per request, per
   * repetition: above the machine's core count, the goal cannot be met on this machine whatever the scheduling.
   */
  readonly coresForGoal: Summary;
  /** Check outcomes in the last runner repetition: every check ran on every exchange, and what they said. */
  readonly checks: { readonly passed: number; readonly failed: number; readonly casesFailed: number };
  readonly valid: boolean;
  readonly problems: readonly string[];
  readonly cutShort: boolean;
}

/** A lane's sample with the server's CPU over it. */
type Measured<T extends OverheadSample> = T & {
  readonly serverCpuUsPerRequest: number;
  readonly coresBusy: number;
};

/** Runs one lane and reads the server's CPU time around it (over IPC, outside the lane's own timing). */
async function measured<T extends OverheadSample>(
  server: ServerChild,
  lane: () => Promise<T>,
): Promise<Measured<T>> {
  const before = await server.usage();
  const sample = await lane();
  const after = await server.usage();
  const serverCpuUsPerRequest = (after.cpuUs - before.cpuUs) / Math.max(1, sample.requests);
  const coresBusy = ((sample.clientCpuUsPerRequest + serverCpuUsPerRequest) * sample.perSecond) / 1e6;
  return { ...sample, serverCpuUsPerRequest, coresBusy };
}

function summarizeLane(samples: readonly Measured<OverheadSample>[]): LaneSummary {
  return {
    perSecond: summarize(samples.map((sample) => sample.perSecond)),
    cpuUsPerRequest: summarize(samples.map((sample) => sample.clientCpuUsPerRequest)),
    serverCpuUsPerRequest: summarize(samples.map((sample) => sample.serverCpuUsPerRequest)),
    coresBusy: summarize(samples.map((sample) => sample.coresBusy)),
  };
}

const discard = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });

/** One run of (a): N requests through the runner; times and CPU taken from `run-started` to `run-finished`. */
export async function throughRunner(
  server: ServerChild,
  caFile: string,
  suites: { dir: string; ids: string[]; requests: number },
  concurrency: number,
  reportRoot: string,
  excludeChecks: readonly string[] = [],
): Promise<OverheadSample & { passedChecks: number; failedChecks: number; casesFailed: number }> {
  const config: RunConfig = {
    ...runConfigDefaults,
    specPath: bundledSpecPath,
    baseUrl: server.baseUrl,
    token: server.token,
    caFile,
    suitePaths: [suites.dir],
    suites: suites.ids,
    concurrency,
    seed: 1,
    reportDir: reportRoot,
    reporters: ["json"],
    excludeChecks,
  };
  const runId = `bench-${Date.now()}`;
  const reporters = createReporters(config.reporters, {
    outputDir: join(reportRoot, runId),
    stream: discard(),
    isTTY: false,
    ci: true,
    mirrorLatest: false,
  });
  const statuses: Record<string, number> = {};
  let started = 0;
  let finished = 0;
  let cpuBefore = process.cpuUsage();
  let cpu = { user: 0, system: 0 };
  let passedChecks = 0;
  let failedChecks = 0;
  const listener = (event: RunEvent) => {
    if (event.type === "run-started") {
      started = performance.now();
      cpuBefore = process.cpuUsage();
    } else if (event.type === "exchange") {
      const status = String(event.exchange.response?.status ?? event.exchange.error?.code);
      statuses[status] = (statuses[status] ?? 0) + 1;
    } else if (event.type === "check") {
      // Check events carry failures and skips; passes are counted per case.
      if (event.result.outcome.status === "failed") failedChecks += 1;
    } else if (event.type === "case-finished") {
      passedChecks += event.passedChecks;
    } else if (event.type === "run-finished") {
      finished = performance.now();
      cpu = process.cpuUsage(cpuBefore);
    }
    return reporters.emit(event);
  };
  const result = await runConformance(config, {
    runId,
    listeners: [listener],
    signal: new AbortController().signal,
    toolVersion: "bench",
  });
  await reporters.close();
  const elapsedMs = finished - started;
  return {
    requests: result.exchanges,
    perSecond: (result.exchanges / elapsedMs) * 1000,
    clientCpuUsPerRequest: (cpu.user + cpu.system) / Math.max(1, result.exchanges),
    statuses,
    passedChecks,
    failedChecks,
    casesFailed: result.counts.failed + result.counts.errored,
  };
}

export async function throughRaw(
  server: ServerChild,
  count: number,
  concurrency: number,
): Promise<OverheadSample> {
  const request = filteredListRequest(server.baseUrl, server.token);
  const pool = createPool(new URL(server.baseUrl).origin, server.certificatePem, concurrency);
  try {
    const result = await rawLoad(pool, { ...request, concurrency, count, maxMs: 120_000 });
    return {
      requests: result.requests,
      perSecond: result.perSecond,
      clientCpuUsPerRequest: result.clientCpuUs / Math.max(1, result.requests),
      statuses: result.statuses,
    };
  } finally {
    await pool.close();
  }
}

/** (c): the raw Pool, each body parsed and validated; a body the validator rejects is counted (it must be none). */
export async function throughRawValidating(
  server: ServerChild,
  count: number,
  concurrency: number,
  validator: Validator,
): Promise<OverheadSample & { invalid: number }> {
  const request = filteredListRequest(server.baseUrl, server.token);
  const pool = createPool(new URL(server.baseUrl).origin, server.certificatePem, concurrency);
  let invalid = 0;
  try {
    const result = await rawLoad(pool, {
      ...request,
      concurrency,
      count,
      maxMs: 120_000,
      onResponse: (_status, text) => {
        if (!validator(JSON.parse(text)).valid) invalid += 1;
      },
    });
    return {
      requests: result.requests,
      perSecond: result.perSecond,
      clientCpuUsPerRequest: result.clientCpuUs / Math.max(1, result.requests),
      statuses: result.statuses,
      invalid,
    };
  } finally {
    await pool.close();
  }
}

export const everyCheck = Object.keys(builtinChecks);

/** The validator the runner's body check uses for the list's 200 answer. */
export async function listValidator(): Promise<Validator> {
  const spec = await loadSpec(bundledSpecPath);
  const operation = spec.operations.match("GET", filteredList.path)?.operation;
  const validator = operation && spec.validators.response(operation.operationId, 200, "application/json");
  if (!validator) throw new Error(`the bundled spec documents no JSON 200 for GET ${filteredList.path}`);
  return validator;
}

export async function benchClientOverhead(
  server: ServerChild,
  options: OverheadOptions,
): Promise<ClientOverheadResult> {
  const work = mkdtempSync(join(tmpdir(), "conform-bench-overhead-"));
  const caFile = join(work, "ca.pem");
  writeFileSync(caFile, server.certificatePem);
  const request = { path: filteredList.path, query: filteredList.query, filter: filteredList.filter };
  const suites = writeOverheadSuites(options.concurrency, options.requests, options.requestsPerCase, request);
  const warmupSuites = writeOverheadSuites(
    options.concurrency,
    options.warmupRequests,
    options.requestsPerCase,
    request,
  );
  const problems: string[] = [];
  try {
    // Warm-up: both paths, unmeasured, long enough for the JIT to settle (a fresh process runs slow for ~1 s).
    const validator = await listValidator();
    await throughRunner(server, caFile, warmupSuites, options.concurrency, work);
    await throughRaw(server, options.warmupRequests, options.concurrency);
    await throughRawValidating(server, options.warmupRequests, options.concurrency, validator);

    const runner: Measured<
      OverheadSample & { passedChecks: number; failedChecks: number; casesFailed: number }
    >[] = [];
    const runnerNoChecks: Measured<OverheadSample>[] = [];
    const raw: Measured<OverheadSample>[] = [];
    const validating: Measured<OverheadSample & { invalid: number }>[] = [];
    const started = performance.now();
    let cutShort = false;
    for (let rep = 0; rep < options.reps; rep += 1) {
      if (rep >= 2 && performance.now() - started > options.maxMs) {
        cutShort = true;
        break;
      }
      // No forced GC between repetitions: a full collection drops compiled code and type feedback, so each
      // repetition would measure a half-cold runner (405-540 µs per request instead of 250-310 µs, measured).
      /** Runs one lane, measured, into its samples. */
      const into =
        <T extends OverheadSample>(samples: Measured<T>[], lane: () => Promise<T>) =>
        async () => {
          samples.push(await measured(server, lane));
        };
      const { concurrency } = options;
      const lanes = [
        into(runner, () => throughRunner(server, caFile, suites, concurrency, work)),
        into(runnerNoChecks, () => throughRunner(server, caFile, suites, concurrency, work, everyCheck)),
        into(raw, () => throughRaw(server, suites.requests, concurrency)),
        into(validating, () => throughRawValidating(server, suites.requests, concurrency, validator)),
      ];
      // Every other repetition runs the lanes in reverse: a machine speeding up or slowing down over the run then
      // favours no lane (a ratio is taken between lanes of the same repetition).
      for (const lane of rep % 2 === 0 ? lanes : lanes.toReversed()) await lane();
    }
    for (const [name, samples] of [
      ["runner", runner],
      ["runner without checks", runnerNoChecks],
      ["raw", raw],
      ["raw validating", validating],
    ] as const) {
      for (const sample of samples) {
        const other = Object.keys(sample.statuses).filter((status) => status !== "200");
        if (other.length > 0)
          problems.push(`${name}: answers other than 200: ${JSON.stringify(sample.statuses)}`);
        if (sample.requests !== suites.requests)
          problems.push(`${name}: ${sample.requests} requests instead of ${suites.requests}`);
      }
    }
    const rejected = validating.reduce((sum, sample) => sum + sample.invalid, 0);
    if (rejected > 0) problems.push(`raw validating: ${rejected} bodies did not match the schema`);
    const last = runner.at(-1);
    return {
      endpoint: filteredList.describe,
      concurrency: options.concurrency,
      requests: suites.requests,
      runner: summarizeLane(runner),
      runnerNoChecks: summarizeLane(runnerNoChecks),
      raw: summarizeLane(raw),
      validating: summarizeLane(validating),
      ratio: summarize(runner.map((sample, index) => sample.perSecond / raw[index]!.perSecond)),
      floorRatio: summarize(validating.map((sample, index) => sample.perSecond / raw[index]!.perSecond)),
      coresForGoal: summarize(
        runner.map(
          (sample, index) =>
            (0.8 * raw[index]!.perSecond * (sample.clientCpuUsPerRequest + sample.serverCpuUsPerRequest)) /
            1e6,
        ),
      ),
      cpuRatio: summarize(
        runner.map((sample, index) => raw[index]!.clientCpuUsPerRequest / sample.clientCpuUsPerRequest),
      ),
      cpuVsValidating: summarize(
        runner.map(
          (sample, index) => sample.clientCpuUsPerRequest / validating[index]!.clientCpuUsPerRequest,
        ),
      ),
      checks: {
        passed: last?.passedChecks ?? 0,
        failed: last?.failedChecks ?? 0,
        casesFailed: last?.casesFailed ?? 0,
      },
      valid: problems.length === 0,
      problems: [...new Set(problems)],
      cutShort,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(suites.dir, { recursive: true, force: true });
    rmSync(warmupSuites.dir, { recursive: true, force: true });
  }
}
