/**
 * The bench's results record (written to `bench/results/<date>.json`), the goals judged from it, and the printed
 * table. Goals are judged from the figures, never assumed: a goal whose section did not run is `null` (not
 * judged), and says why.
 * @module
 */
import type { ClientOverheadResult, LaneSummary } from "./client-overhead.ts";
import type { FullRunResult } from "./full-run.ts";
import type { CampaignRun, FuzzResult } from "./fuzz.ts";
import { type GenericLayerResult, genericLayerGoal, renderGenericLayer } from "./generic-layer.ts";
import {
  formatBytes,
  formatMs,
  formatRate,
  formatSummary,
  type MachineInfo,
  renderTable,
  type Summary,
} from "./measure.ts";
import { type RateLimitedRunResult, rateLimitedGoal, renderRateLimited } from "./rate-limited-run.ts";
import type { ServerCell } from "./reference-server.ts";
import { type RequestsResult, requestsBaseline, requestsGoal } from "./requests.ts";
import type { SpecLoadingResult } from "./spec-loading.ts";
import { renderStartUp, type StartUpResult, startUpGoalOf } from "./start-up.ts";

export interface SyntheticFigures {
  readonly bytes: number;
  readonly operations: number;
  readonly schemas: number;
  readonly maxResponseRefDepth: number;
  readonly generateMs: number;
}

export interface BenchResults {
  readonly schemaVersion: 1;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly machine: MachineInfo;
  /** 1-minute load average before each section and at the end: other work on the machine skews the figures. */
  readonly loadAverage: Readonly<Record<string, number>>;
  readonly quick: boolean;
  readonly synthetic?: SyntheticFigures;
  readonly specLoading?: readonly SpecLoadingResult[];
  readonly clientOverhead?: ClientOverheadResult;
  readonly referenceServer?: readonly ServerCell[];
  readonly fuzz?: FuzzResult;
  readonly fullRun?: FullRunResult;
  readonly rateLimited?: RateLimitedRunResult;
  readonly requests?: RequestsResult;
  readonly startUp?: StartUpResult;
  readonly genericLayer?: GenericLayerResult;
  readonly goals: readonly Goal[];
}

export interface Goal {
  readonly section: number;
  readonly goal: string;
  /** What was measured, in words; or why it was not. */
  readonly measured: string;
  /** null: not judged (the section did not run, or could not measure validly). */
  readonly met: boolean | null;
}

type Partial = Omit<BenchResults, "goals">;

/** Issue 22: the runner's client CPU per request at most this many times lane (c)'s, a raw client that validates. */
export const cpuGoal = 1.25;

export function judgeGoals(results: Partial): Goal[] {
  const goals: Goal[] = [];
  const synthetic = results.specLoading?.find((result) => result.name === "synthetic");
  if (synthetic) {
    const cold = "error" in synthetic.memory ? undefined : synthetic.memory.coldLoadMs.median;
    // Judged on the cold figure (a fresh process, as a CLI start pays it), the stricter of the two.
    const judged = cold ?? synthetic.loadMs.median;
    goals.push({
      section: 1,
      goal: "the large description (~1 MB, 300+ operations) loaded, validated and indexed in under 2 s",
      measured: `cold ${cold === undefined ? "n/a" : formatMs(cold)} (fresh process), warm ${formatMs(synthetic.loadMs.median)}`,
      met: judged < 2000,
    });
  } else
    goals.push({
      section: 1,
      goal: "large description indexed in under 2 s",
      measured: "not run",
      met: null,
    });

  const overhead = results.clientOverhead;
  goals.push(
    overhead
      ? {
          section: 2,
          goal: "runner throughput at least 0.8 of the raw undici Pool's, (a)/(b) >= 0.8",
          measured: overhead.valid
            ? `${overhead.ratio.median.toFixed(2)} (client CPU per request ${overhead.runner.cpuUsPerRequest.median.toFixed(0)} µs vs ${overhead.raw.cpuUsPerRequest.median.toFixed(0)} µs; at 0.8 the runner and the server would keep ${overhead.coresForGoal.median.toFixed(2)} of the ${results.machine.cores} cores busy)`
            : `invalid measurement: ${overhead.problems.join("; ")}`,
          met: overhead.valid ? overhead.ratio.median >= 0.8 : null,
        }
      : { section: 2, goal: "(a)/(b) >= 0.8", measured: "not run", met: null },
  );
  const cpuGoalText = `runner client CPU per request at most ${cpuGoal}x lane (c)'s (parse and validate), (a)/(c) <= ${cpuGoal}`;
  goals.push(
    overhead
      ? {
          section: 2,
          goal: cpuGoalText,
          measured: overhead.valid
            ? `${overhead.cpuVsValidating.median.toFixed(2)} (${overhead.runner.cpuUsPerRequest.median.toFixed(0)} µs vs ${overhead.validating.cpuUsPerRequest.median.toFixed(0)} µs per request, medians; per repetition ${overhead.cpuVsValidating.min.toFixed(2)}-${overhead.cpuVsValidating.max.toFixed(2)})`
            : `invalid measurement: ${overhead.problems.join("; ")}`,
          met: overhead.valid ? overhead.cpuVsValidating.median <= cpuGoal : null,
        }
      : { section: 2, goal: cpuGoalText, measured: "not run", met: null },
  );

  const fuzz = results.fuzz;
  const fuzzGoalRequests = 50_000;
  const fuzzGoal =
    "fuzz campaign memory flat up to 50,000 requests (second half's peak RSS within 15 % of the first half's)";
  if (!fuzz?.available) {
    goals.push({ section: 4, goal: fuzzGoal, measured: fuzz ? fuzz.reason : "not run", met: null });
  } else {
    const measured = `${fuzz.requests} requests; peak RSS ${formatBytes(fuzz.firstHalfPeakRssBytes)} in the first half, ${formatBytes(fuzz.secondHalfPeakRssBytes)} in the second (${signed(fuzz.growthPct)} %, ${formatBytes(Math.max(0, fuzz.retainedBytesPerRequest))} per request)`;
    goals.push({
      section: 4,
      goal: fuzzGoal,
      measured:
        fuzz.problems.length > 0
          ? `invalid: ${fuzz.problems.join("; ")}; ${measured}`
          : fuzz.requests < fuzzGoalRequests
            ? `too short to judge (the goal is about ${fuzzGoalRequests} requests): ${measured}`
            : measured,
      // A short campaign (--quick) is mostly start-up: its growth says nothing about flatness.
      met: fuzz.problems.length > 0 || fuzz.requests < fuzzGoalRequests ? null : fuzz.memoryFlat,
    });
  }

  const full = results.fullRun;
  goals.push(
    full && full.wallMs.n > 0
      ? {
          section: 5,
          goal: "the full default run (npm start) under 30 s",
          measured:
            full.problems.length > 0
              ? `invalid: ${full.problems.join("; ")}`
              : `${formatMs(full.wallMs.median)} wall, peak RSS ${formatBytes(full.maxRssBytes.median)}`,
          met: full.problems.length > 0 ? null : full.wallMs.median < 30_000,
        }
      : { section: 5, goal: "the full default run under 30 s", measured: "not run", met: null },
  );
  goals.push(rateLimitedGoal(results.rateLimited));
  goals.push(requestsGoal(results.requests));
  goals.push(startUpGoalOf(results.startUp));
  goals.push(genericLayerGoal(results.genericLayer));
  return goals;
}

const ms = (summary: Summary) => formatSummary(summary, formatMs);
const rate = (summary: Summary) => formatSummary(summary, formatRate);
const bytes = (summary: Summary) => formatSummary(summary, formatBytes);
const micros = (summary: Summary) => formatSummary(summary, (value) => `${value.toFixed(0)} µs`);

/** A lane's row: rate and client CPU in full, server CPU and cores busy as medians (the table stays readable). */
function laneRow(name: string, lane: LaneSummary): string[] {
  return [
    name,
    rate(lane.perSecond),
    micros(lane.cpuUsPerRequest),
    `${lane.serverCpuUsPerRequest.median.toFixed(0)} µs`,
    lane.coresBusy.median.toFixed(2),
  ];
}

export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  const { machine } = results;
  out.push(
    `conform bench, ${results.startedAt}${results.quick ? " (--quick: fewer repetitions, figures are rough)" : ""}`,
    `machine: ${machine.cpuModel}, ${machine.cores} cores, ${formatBytes(machine.memoryBytes)} RAM; Node ${machine.node} (V8 ${machine.v8}); ${machine.os}`,
    `load average (1 min) ${Object.entries(results.loadAverage)
      .map(([at, value]) => `${at} ${value.toFixed(2)}`)
      .join(", ")}`,
    "figures: median (min–max, spread = (max-min)/median) over the repetitions shown",
    "",
  );

  out.push("1. Spec loading (warm: after warm-up runs, in this process; cold: fresh processes)");
  if (results.synthetic) {
    const s = results.synthetic;
    out.push(
      `   synthetic description: ${formatBytes(s.bytes)} YAML, ${s.operations} operations, ${s.schemas} schemas, responses up to ${s.maxResponseRefDepth} $refs deep (generated in ${formatMs(s.generateMs)})`,
    );
  }
  if (results.specLoading) {
    out.push(
      indent(
        renderTable(
          ["description", "size", "ops", "load+validate+index (warm)", "cold load", "runs"],
          results.specLoading.map((result) => [
            result.name,
            formatBytes(result.bytes),
            String(result.operations),
            ms(result.loadMs),
            "error" in result.memory ? "n/a" : ms(result.memory.coldLoadMs),
            `${result.loadMs.n}${result.cutShort ? " (time budget)" : ""}`,
          ]),
        ),
      ),
      "",
      indent(
        renderTable(
          [
            "description",
            "first validator (incl. ajv setup)",
            "all validators (warm)",
            "count",
            "per validator",
            "peak RSS (cold, all compiled)",
          ],
          results.specLoading.map((result) => [
            result.name,
            ms(result.firstValidatorMs),
            ms(result.allValidatorsMs),
            String(result.validators),
            formatMs(
              (result.firstValidatorMs.median + result.allValidatorsMs.median) /
                Math.max(1, result.validators),
            ),
            "error" in result.memory
              ? `error: ${result.memory.error}`
              : `${bytes(result.memory.peakRssBytes)} (${formatBytes(result.memory.baselineRssBytes.median)} before loading)`,
          ]),
        ),
      ),
    );
  } else out.push("   not run");
  out.push("");

  const overhead = results.clientOverhead;
  out.push("2. Client overhead: the same requests to the same reference endpoint, same concurrency");
  if (overhead) {
    out.push(
      `   ${overhead.requests} x ${overhead.endpoint}, ${overhead.concurrency} concurrent, ${overhead.ratio.n} repetitions${overhead.cutShort ? " (time budget)" : ""}`,
      indent(
        renderTable(
          ["client", "requests/s", "client CPU per request", "server CPU/request", "cores busy"],
          [
            laneRow("(a) runner: engine, every check, exchanges recorded, JSON reporter", overhead.runner),
            laneRow("(a0) the same runner with every check off", overhead.runnerNoChecks),
            laneRow("(b) raw undici Pool, body read as text", overhead.raw),
            laneRow(
              "(c) raw undici Pool, body parsed and validated (the spec's validator)",
              overhead.validating,
            ),
            [
              "(a)/(b)",
              formatSummary(overhead.ratio, (value) => value.toFixed(2)),
              `(b)/(a) ${formatSummary(overhead.cpuRatio, (value) => value.toFixed(2))}`,
              "",
              "",
            ],
            [
              `(a)/(c) client CPU per request (goal <= ${cpuGoal})`,
              "",
              formatSummary(overhead.cpuVsValidating, (value) => value.toFixed(2)),
              "",
              "",
            ],
            [
              "(c)/(b): the most a client that checks bodies reaches here",
              formatSummary(overhead.floorRatio, (value) => value.toFixed(2)),
              "",
              "",
              "",
            ],
          ],
        ),
      ),
      `   (a) at 0.8 of (b)'s rate would keep ${overhead.coresForGoal.median.toFixed(2)} cores busy with its measured client and server CPU per request (this machine has ${results.machine.cores})`,
      `   checks in the last runner repetition: ${overhead.checks.passed} passed, ${overhead.checks.failed} failed; failed cases ${overhead.checks.casesFailed}`,
      ...overhead.problems.map((problem) => `   INVALID: ${problem}`),
    );
  } else out.push("   not run");
  out.push("");

  out.push("3. Reference server, driven by the raw client (server in its own process)");
  if (results.referenceServer) {
    out.push(
      indent(
        renderTable(
          ["request", "concurrent", "requests/s", "server CPU per request", "requests/rep"],
          results.referenceServer.map((cell) => [
            `${cell.endpoint}${cell.valid ? "" : ` INVALID ${JSON.stringify(cell.statuses)}`}`,
            String(cell.concurrency),
            rate(cell.perSecond),
            micros(cell.serverCpuUsPerRequest),
            String(cell.requestsPerRep),
          ]),
        ),
      ),
    );
  } else out.push("   not run");
  out.push("");

  out.push("4. Fuzz campaign (conform fuzz filters against the embedded reference, fresh processes)");
  const fuzz = results.fuzz;
  if (!fuzz) out.push("   not run");
  else if (!fuzz.available) out.push(`   ${fuzz.reason}`);
  else {
    const row = (name: string, run: CampaignRun) => [
      name,
      String(run.runs),
      Number.isNaN(run.cases) ? "n/a" : String(run.cases),
      String(run.requests),
      formatRate(run.casesPerSecond),
      formatRate(run.requestsPerSecond),
      formatMs(run.wallMs),
      formatBytes(run.maxRssBytes),
      `exit ${run.exitCode}, ${run.status}`,
    ];
    const at = (fraction: number) => {
      const sample =
        fuzz.timeline[Math.min(fuzz.timeline.length - 1, Math.floor(fraction * fuzz.timeline.length))];
      return sample ? formatBytes(sample.rssBytes) : "n/a";
    };
    out.push(
      `   ${fuzz.command}`,
      indent(
        renderTable(
          ["campaign", "runs", "cases", "requests", "cases/s", "requests/s", "wall", "peak RSS", "outcome"],
          [row("short", fuzz.small), row("long", fuzz.large)],
        ),
      ),
      `   memory of the long campaign: peak RSS ${formatBytes(fuzz.firstHalfPeakRssBytes)} in its first half (after start-up), ${formatBytes(fuzz.secondHalfPeakRssBytes)} in its second: ${signed(fuzz.growthPct)} %, ${formatBytes(Math.max(0, fuzz.retainedBytesPerRequest))} retained per request: ${fuzz.memoryFlat ? "flat" : "GROWING"}`,
      `   long campaign RSS at 10 % / 50 % / 100 % of its time: ${at(0.1)} / ${at(0.5)} / ${at(1)}`,
      ...fuzz.problems.map((problem) => `   INVALID: ${problem}`),
    );
  }
  out.push("");

  out.push(
    "5. Full default run (npm start: every suite against the embedded reference), fresh process, no warm-up",
  );
  const full = results.fullRun;
  if (full?.last) {
    out.push(
      indent(
        renderTable(
          ["wall time", "peak RSS (maxRSS)", "CPU time", "runs", "last run"],
          [
            [
              ms(full.wallMs),
              bytes(full.maxRssBytes),
              ms(full.cpuMs),
              `${full.wallMs.n}${full.cutShort ? " (time budget)" : ""}`,
              `exit ${full.last.exitCode}, ${full.last.status}, ${full.last.exchanges} exchanges, cases ${JSON.stringify(full.last.counts)}`,
            ],
          ],
        ),
      ),
      ...full.problems.map((problem) => `   INVALID: ${problem}`),
    );
  } else out.push("   not run");
  out.push("");

  out.push(...renderRateLimited(results.rateLimited), "");
  out.push(...renderRequests(results.requests), "");
  out.push(...renderStartUp(results.startUp), "");
  out.push(...renderGenericLayer(results.genericLayer), "");

  out.push("Goals");
  for (const goal of results.goals) {
    const mark = goal.met === null ? "[NOT JUDGED]" : goal.met ? "[MET]" : "[MISSED]";
    out.push(`  ${mark.padEnd(12)} ${goal.section}. ${goal.goal}: ${goal.measured}`);
  }
  return out.join("\n");
}

function signed(value: number): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(0)}`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `   ${line}`)
    .join("\n");
}

/** Section 7's lines. */
function renderRequests(requests: RequestsResult | undefined): string[] {
  const out = [
    "7. Requests for the power (a full run as npm start makes it, and the fault matrix as npm run faults runs it)",
  ];
  if (!requests) return [...out, "   not run"];
  const { clean, faults } = requests;
  const base = requestsBaseline;
  out.push(
    `   full run: ${clean.requests} requests (${clean.wireRequests} on the wire with the preflight and the cleanup), ${clean.gets} GETs, ${clean.duplicateGets} sent again (${clean.duplicatedKinds} GETs sent more than once); cases ${JSON.stringify(clean.counts)}`,
    faults
      ? `   fault matrix${faults.whole ? "" : " (some faults only)"}: requests to detection summed over ${faults.detected} faults: ${faults.sumToDetection}; ${faults.caught}/${faults.total} caught; its clean run ${faults.cleanRequests} requests${faults.cleanPassed ? "" : ", FALSE ALARMS"}`
      : "   fault matrix: not run",
    `   before the cut (${base.commit}): ${base.requests} requests, ${base.duplicateGets} GETs sent again, ${base.sumToDetection} requests to detection over ${base.faults} faults`,
    "   GETs sent most often (same path, query, headers and caller):",
    indent(
      renderTable(
        ["times", "request", "sent by"],
        clean.top.map((entry) => [String(entry.count), entry.request, entry.suites.join(", ")]),
      ),
    ),
    ...requests.problems.map((problem) => `   INVALID: ${problem}`),
  );
  return out;
}
