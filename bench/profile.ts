/**
 * `npm run bench:profile -- --lane runner`: where one lane of bench section 2 spends its client CPU. Starts the
 * reference server in a child process, seeds it, warms the lane up as section 2 does, then runs `--reps`
 * repetitions under V8's sampling profiler. Prints the time each function spent in itself, in µs per request
 * (largest first), and writes the whole profile to `reports/profiles/` (open it in Chrome DevTools).
 *
 * The profiler costs CPU of its own, so the figures are for comparing lanes and functions with each other, not
 * for quoting as the lane's speed (`npm run bench` measures that, unprofiled). Two lanes of one run compare
 * well; `--concurrency 1` shows a client whose server sleeps between its requests.
 *
 * Options: `--lane runner|runner-no-checks|raw|raw-validating` (runner), `--concurrency` (8), `--requests` per
 * repetition (4000), `--reps` (5), `--warmup` requests (12000), `--top` rows (30).
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  everyCheck,
  listValidator,
  type OverheadSample,
  throughRaw,
  throughRawValidating,
  throughRunner,
} from "./client-overhead.ts";
import { type CpuProfile, selfTimes } from "./cpu-profile.ts";
import { renderTable } from "./measure.ts";
import { writeOverheadSuites } from "./overhead-suite.ts";
import { createPool } from "./raw-client.ts";
import { type ServerChild, startServerChild } from "./server-child.ts";
import { filteredList, seed } from "./workload.ts";

const lanes = ["runner", "runner-no-checks", "raw", "raw-validating"] as const;
type Lane = (typeof lanes)[number];

const { values } = parseArgs({
  options: {
    lane: { type: "string", default: "runner" },
    concurrency: { type: "string", default: "8" },
    requests: { type: "string", default: "4000" },
    reps: { type: "string", default: "5" },
    warmup: { type: "string", default: "12000" },
    top: { type: "string", default: "30" },
  },
  strict: true,
});

function positiveInteger(name: string, text: string, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    process.stderr.write(`bench:profile: --${name} must be a whole number from 1 to ${max}, got "${text}"\n`);
    process.exit(2);
  }
  return value;
}

if (!lanes.includes(values.lane as Lane)) {
  process.stderr.write(`bench:profile: --lane must be one of ${lanes.join(", ")}, got "${values.lane}"\n`);
  process.exit(2);
}
const lane = values.lane as Lane;
// Bounded: every run of this command ends after at most reps x requests (+ warm-up) requests to loopback.
const concurrency = positiveInteger("concurrency", values.concurrency, 64);
const requests = positiveInteger("requests", values.requests, 100_000);
const reps = positiveInteger("reps", values.reps, 50);
const warmup = positiveInteger("warmup", values.warmup, 200_000);
const top = positiveInteger("top", values.top, 500);

const progress = (message: string) => process.stderr.write(`bench:profile: ${message}\n`);

/** Runs `count` requests of the chosen lane; the runner's suites are written once per count. */
async function laneRunner(
  server: ServerChild,
  work: string,
): Promise<(count: number) => Promise<OverheadSample>> {
  const caFile = join(work, "ca.pem");
  writeFileSync(caFile, server.certificatePem);
  const request = { path: filteredList.path, query: filteredList.query, filter: filteredList.filter };
  const validator = lane === "raw-validating" ? await listValidator() : undefined;
  return async (count) => {
    if (lane === "raw") return throughRaw(server, count, concurrency);
    if (validator) return throughRawValidating(server, count, concurrency, validator);
    // The same cases as section 2: 20 requests each, one suite per concurrent lane.
    const suites = writeOverheadSuites(concurrency, count, 20, request);
    try {
      return await throughRunner(
        server,
        caFile,
        suites,
        concurrency,
        work,
        lane === "runner" ? [] : everyCheck,
      );
    } finally {
      rmSync(suites.dir, { recursive: true, force: true });
    }
  };
}

progress("starting the reference server in a child process and seeding it");
const server = await startServerChild();
const work = mkdtempSync(join(tmpdir(), "conform-bench-profile-"));
const session = new Session();
try {
  const pool = createPool(new URL(server.baseUrl).origin, server.certificatePem, 4);
  await seed(pool, server.baseUrl, server.token);
  await pool.close();
  const run = await laneRunner(server, work);
  progress(`warming up: ${warmup} requests through ${lane}`);
  await run(warmup);

  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  let profiled = 0;
  let cpuUs = 0;
  for (let rep = 1; rep <= reps; rep += 1) {
    const sample = await run(requests);
    profiled += sample.requests;
    cpuUs += sample.clientCpuUsPerRequest * sample.requests;
    progress(`repetition ${rep}/${reps}: ${sample.requests} requests, ${sample.perSecond.toFixed(0)}/s`);
  }
  const { profile } = (await session.post("Profiler.stop")) as { profile: CpuProfile };

  const dir = join(process.cwd(), "reports", "profiles");
  mkdirSync(dir, { recursive: true });
  const file = join(
    dir,
    `${lane}-c${concurrency}-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`,
  );
  writeFileSync(file, JSON.stringify(profile));

  const times = selfTimes(profile, pathToFileURL(`${process.cwd()}/`).href);
  const perRequest = (us: number) => (us / Math.max(1, profiled)).toFixed(1);
  process.stdout.write(
    [
      `${lane}, ${concurrency} concurrent: ${profiled} requests profiled over ${reps} repetitions`,
      `client CPU ${perRequest(cpuUs)} µs per request (profiler included); samples cover ${perRequest(times.totalUs)} µs of wall time per request`,
      "",
      renderTable(
        ["µs/request", "share", "function", "where"],
        times.functions
          .slice(0, top)
          .map((fn) => [
            perRequest(fn.selfUs),
            `${((fn.selfUs / Math.max(1, times.totalUs)) * 100).toFixed(1)}%`,
            fn.name,
            fn.location,
          ]),
      ),
      "",
      `profile written to ${file}`,
      "",
    ].join("\n"),
  );
} finally {
  session.disconnect();
  rmSync(work, { recursive: true, force: true });
  await server.close();
}
