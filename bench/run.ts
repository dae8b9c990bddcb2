/**
 * `npm run bench`: measures the toolkit in one process tree and one run, prints a table and writes
 * `bench/results/<date>.json` (method: BENCHMARKS.md). Sections:
 * 1. spec loading (bundled and a generated ~1 MB description), 2. client overhead (runner vs raw undici Pool),
 * 3. the reference server's throughput, 4. a fuzz campaign (when `conform fuzz filters` exists), 5. the full
 * default run, 6. a rate-limited run (the description's limits, windows shortened), 7. requests for the power (a full
 * run's requests and duplicate GETs, the fault matrix's requests to detection), 8. start-up of the installed package
 * (`--version`, `spec`, the first request of `run`, against a bare `node -e 0`), 9. the generic layer on the synthetic
 * description at two sizes (requests per operation, the run against its rate limit's bound). Every loop is bounded by a count and
 * a time budget; only loopback is ever contacted.
 *
 * Options: `--quick` (few repetitions, nothing written: a smoke check), `--sections 1,2,5`, `--no-save`.
 * @module
 */
import { mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { bundledSpecPath } from "../src/spec/bundled.ts";
import { benchClientOverhead } from "./client-overhead.ts";
import { benchFullRun } from "./full-run.ts";
import { benchFuzz } from "./fuzz.ts";
import { benchGenericLayer } from "./generic-layer.ts";
import { machineInfo } from "./measure.ts";
import { benchRateLimitedRun } from "./rate-limited-run.ts";
import { createPool } from "./raw-client.ts";
import { benchReferenceServer } from "./reference-server.ts";
import { type BenchResults, judgeGoals, renderReport, type SyntheticFigures } from "./report.ts";
import { benchRequests } from "./requests.ts";
import { startServerChild } from "./server-child.ts";
import { benchSpecLoading } from "./spec-loading.ts";
import { benchStartUp } from "./start-up.ts";
import { maxResponseRefDepth, writeSyntheticSpec } from "./synthetic-spec.ts";
import { seed } from "./workload.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    sections: { type: "string", default: "1,2,3,4,5,6,7,8,9" },
    save: { type: "boolean", default: true },
  },
  allowNegative: true,
  strict: true,
});
const quick = values.quick;
const sections = new Set(values.sections.split(",").map((part) => Number(part.trim())));

/** Repetitions and budgets: enough for a stable median in a few minutes on 2 cores. */
const plan = quick
  ? {
      spec: { warmup: 1, reps: 3, maxMs: 10_000, coldRuns: 1 },
      overhead: {
        concurrency: 8,
        requests: 1000,
        requestsPerCase: 20,
        warmupRequests: 500,
        reps: 2,
        maxMs: 10_000,
      },
      server: { concurrencies: [1, 16], count: 2000, repMs: 300, warmupMs: 300, reps: 3, maxMs: 3000 },
      fuzz: { targetRequests: 3000, smallRuns: 10, maxRuns: 200, timeoutMs: 120_000, seed: 1 },
      fullRun: { reps: 1, maxMs: 60_000, timeoutMs: 120_000 },
      rateLimited: { windowScale: 0.1, timeoutMs: 180_000 },
      // A few faults only: the sum to detection is judged on the whole matrix.
      requests: {
        faults: ["filter-neq-ignored", "pages-off-by-one", "content-type-wrong"],
        timeoutMs: 300_000,
      },
      startUp: { reps: 3, maxMs: 30_000 },
      generic: { sizes: [14, 28], limit: 30, windowSeconds: 3, timeoutMs: 240_000 },
    }
  : {
      spec: { warmup: 2, reps: 5, maxMs: 20_000, coldRuns: 3 },
      overhead: {
        concurrency: 8,
        requests: 4000,
        requestsPerCase: 20,
        // The runner's CPU per request keeps falling for its first ~12,000 requests (V8 optimising its many
        // functions, measured): a shorter warm-up measures the JIT, not the steady state a campaign runs at.
        warmupRequests: 12_000,
        // Nine: the machine's noise moves one repetition's ratio by ±30 %; the median of nine holds still.
        reps: 9,
        maxMs: 90_000,
      },
      server: { concurrencies: [1, 16], count: 20_000, repMs: 1000, warmupMs: 1000, reps: 5, maxMs: 8000 },
      fuzz: { targetRequests: 50_000, smallRuns: 40, maxRuns: 5000, timeoutMs: 300_000, seed: 1 },
      fullRun: { reps: 3, maxMs: 90_000, timeoutMs: 120_000 },
      // Windows of 30 s (instance creation 15 s): Reset's whole seconds cost a pacer at most 1 s a window.
      rateLimited: { windowScale: 0.5, timeoutMs: 400_000 },
      requests: { faults: "all" as const, timeoutMs: 900_000 },
      // Eleven: a process start moves by tens of ms with the machine's other work; the median of eleven holds.
      startUp: { reps: 11, maxMs: 120_000 },
      // Half and all of the synthetic description's resources (163 and 327 operations); windows of 5 s, so the
      // bound (tens of seconds) is what the run is measured against, not the Reset's whole seconds.
      generic: { sizes: [28, 56], limit: 250, windowSeconds: 5, timeoutMs: 300_000 },
    };

const started = performance.now();
const startedAt = new Date();
const loadAverage: Record<string, number> = {};
const markLoad = (at: string) => {
  loadAverage[at] = loadavg()[0] ?? 0;
};
const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);

let results: Omit<BenchResults, "goals"> = {
  schemaVersion: 1,
  startedAt: startedAt.toISOString(),
  durationMs: 0,
  machine: machineInfo(),
  loadAverage,
  quick,
};

// First: start-up is what a fresh machine pays, before the sections below warm the file system cache further.
if (sections.has(8)) {
  markLoad("section 8");
  progress("8. start-up of the installed package");
  results = { ...results, startUp: await benchStartUp(plan.startUp) };
}

if (sections.has(2) || sections.has(3)) {
  progress("starting the reference server in a child process and seeding it");
  const server = await startServerChild();
  try {
    const pool = createPool(new URL(server.baseUrl).origin, server.certificatePem, 4);
    await seed(pool, server.baseUrl, server.token);
    await pool.close();
    if (sections.has(2)) {
      markLoad("section 2");
      progress("2. client overhead: runner vs raw undici Pool");
      results = { ...results, clientOverhead: await benchClientOverhead(server, plan.overhead) };
    }
    if (sections.has(3)) {
      markLoad("section 3");
      progress("3. reference server throughput");
      results = { ...results, referenceServer: await benchReferenceServer(server, plan.server) };
    }
  } finally {
    await server.close();
  }
}

// Section 1 runs after 2 and 3, not before: its loads (a 1 MB description, hundreds of validators) stay in this
// process's heap and code caches, and the runner lane measured after them spent 415 µs per request against 282 µs
// measured alone, the raw lanes hardly moving. A user's run starts from a clean process.
if (sections.has(1)) {
  markLoad("section 1");
  progress("1. spec loading: generating the synthetic description");
  const generateStarted = performance.now();
  const synthetic = writeSyntheticSpec();
  const figures: SyntheticFigures = {
    bytes: synthetic.bytes,
    operations: synthetic.operations,
    schemas: synthetic.schemas,
    maxResponseRefDepth: maxResponseRefDepth(synthetic.document),
    generateMs: performance.now() - generateStarted,
  };
  progress("1. spec loading: measuring");
  const specLoading = await benchSpecLoading(
    [
      { name: "bundled", path: bundledSpecPath, bytes: statSync(bundledSpecPath).size },
      { name: "synthetic", path: synthetic.path, bytes: synthetic.bytes },
    ],
    plan.spec,
  );
  results = { ...results, synthetic: figures, specLoading };
}

if (sections.has(4)) {
  markLoad("section 4");
  progress("4. fuzz campaign");
  results = { ...results, fuzz: await benchFuzz(plan.fuzz) };
}

if (sections.has(5)) {
  markLoad("section 5");
  progress("5. full default run");
  results = { ...results, fullRun: await benchFullRun(plan.fullRun) };
}

if (sections.has(6)) {
  markLoad("section 6");
  progress("6. rate-limited run");
  results = { ...results, rateLimited: await benchRateLimitedRun(plan.rateLimited) };
}
if (sections.has(7)) {
  markLoad("section 7");
  progress("7. requests for the power: a full run's requests, then the fault matrix");
  results = { ...results, requests: await benchRequests(plan.requests) };
}
if (sections.has(9)) {
  markLoad("section 9");
  progress("9. generic layer on the synthetic description");
  results = { ...results, genericLayer: await benchGenericLayer(plan.generic) };
}

markLoad("end");
results = { ...results, durationMs: performance.now() - started };
const final: BenchResults = { ...results, goals: judgeGoals(results) };
process.stdout.write(`${renderReport(final)}\n`);

if (values.save && !quick) {
  const dir = fileURLToPath(new URL("./results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${startedAt.toISOString().slice(0, 10)}.json`);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(final, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  process.stdout.write(`\nresults written to ${file}\n`);
}
process.stdout.write(`bench took ${(final.durationMs / 1000).toFixed(0)} s\n`);
