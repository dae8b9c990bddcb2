/**
 * Section 7: requests for the power. In a fresh child process (`bench/requests-child.ts`): a full clean run as
 * `npm start` makes it, whose requests are counted and whose duplicate GETs are listed, and the fault matrix as
 * `npm run faults` runs it, whose requests to detection are summed over every fault.
 *
 * A duplicate is a GET sent again in the same run with the same path and query, the same headers (X-Filter,
 * Accept, ...) and the same caller (a digest of its Authorization, read on the wire: recorded exchanges carry the
 * token redacted); each sending beyond the first counts once. Which suites sent it is read from the exchange
 * events, matched on everything but the caller.
 * @module
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runBoundedChild } from "./bounded-child.ts";

const child = fileURLToPath(new URL("./requests-child.ts", import.meta.url));

/** One request as it went on the wire. */
export interface SentRequest {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  /** Lower-cased names, Authorization left out (it is `caller`). */
  readonly headers: Readonly<Record<string, string>>;
  /** A short digest of the Authorization header, or `anonymous`. */
  readonly caller: string;
}

export interface ChildOutput {
  clean: {
    readonly durationMs: number;
    readonly exitCode: number;
    readonly counts: Readonly<Record<string, number>>;
    /** Exchange events of the run (every attempt the client recorded). */
    readonly exchanges: number;
    readonly wire: readonly SentRequest[];
    readonly sentBy: readonly {
      readonly method: string;
      readonly path: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly suiteId: string;
    }[];
  };
  faults?: {
    readonly rows: readonly {
      readonly id: string;
      readonly caught: boolean;
      readonly requestsToDetection: number | null;
      readonly requests: number;
    }[];
    readonly cleanRequests: number;
    readonly cleanPassed: boolean;
    readonly caught: number;
    readonly total: number;
  };
}

export interface DuplicateGet {
  /** `GET /path?query` and the headers that set it apart, as one line. */
  readonly request: string;
  /** Times sent (with the same caller). */
  readonly count: number;
  /** Suites that sent it (any caller). */
  readonly suites: readonly string[];
}

export interface RequestsResult {
  readonly clean: {
    readonly exitCode: number;
    readonly counts: Readonly<Record<string, number>>;
    readonly durationMs: number;
    /** Requests of the full run (exchange events). */
    readonly requests: number;
    /** Requests on the wire: the exchanges, the preflight read and the cleanup's deletes. */
    readonly wireRequests: number;
    readonly gets: number;
    /** GETs sent again (each sending beyond the first of its kind). */
    readonly duplicateGets: number;
    /** Distinct GETs sent more than once. */
    readonly duplicatedKinds: number;
    readonly top: readonly DuplicateGet[];
  };
  readonly faults?: {
    /** The whole matrix (every registered fault), or only some faults (`--quick`). */
    readonly whole: boolean;
    readonly caught: number;
    readonly total: number;
    /** Faults with a requests-to-detection figure (caught by some failure). */
    readonly detected: number;
    readonly sumToDetection: number;
    readonly cleanRequests: number;
    readonly cleanPassed: boolean;
  };
  readonly problems: readonly string[];
}

const headerText = (headers: Readonly<Record<string, string>>) =>
  Object.keys(headers)
    .sort()
    .filter((name) => name !== "accept" || headers[name] !== "application/json")
    .map((name) => `${name}: ${headers[name]}`)
    .join("; ");

const requestText = (method: string, path: string, headers: Readonly<Record<string, string>>) => {
  const extra = headerText(headers);
  return extra ? `${method} ${path} [${extra}]` : `${method} ${path}`;
};

/** The duplicate GETs of a run (pure; tested on its own): counted per caller, listed most sent first. */
export function duplicateGets(
  wire: readonly SentRequest[],
  sentBy: ChildOutput["clean"]["sentBy"],
  top = 10,
): { gets: number; duplicates: number; kinds: number; top: DuplicateGet[] } {
  const counts = new Map<string, { request: string; count: number }>();
  let gets = 0;
  for (const sent of wire) {
    if (sent.method !== "GET") continue;
    gets += 1;
    const request = requestText(sent.method, sent.path, sent.headers);
    const key = `${request}\u0000${sent.caller}`;
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { request, count: 1 });
  }
  const suites = new Map<string, Set<string>>();
  for (const sent of sentBy) {
    if (sent.method !== "GET") continue;
    const request = requestText(sent.method, sent.path, sent.headers);
    const set = suites.get(request) ?? new Set<string>();
    suites.set(request, set);
    set.add(sent.suiteId);
  }
  const repeated = [...counts.values()].filter((entry) => entry.count > 1);
  return {
    gets,
    duplicates: repeated.reduce((sum, entry) => sum + entry.count - 1, 0),
    kinds: repeated.length,
    top: repeated
      .sort((a, b) => b.count - a.count || a.request.localeCompare(b.request))
      .slice(0, top)
      .map((entry) => ({
        request: entry.request,
        count: entry.count,
        suites: [...(suites.get(entry.request) ?? [])].sort(),
      })),
  };
}

/** The section's figures from what the child saw (pure). */
export function requestsResult(output: ChildOutput, whole: boolean): RequestsResult {
  const problems: string[] = [];
  const { clean } = output;
  // The wire also carries what no case sends (the preflight read, the cleanup's deletes): never fewer.
  if (clean.wire.length < clean.exchanges)
    problems.push(
      `the wire saw ${clean.wire.length} requests, fewer than the ${clean.exchanges} exchanges the engine recorded`,
    );
  if (clean.exitCode !== 0) problems.push(`the clean run exited ${clean.exitCode}`);
  const duplicates = duplicateGets(clean.wire, clean.sentBy);
  const faults = output.faults;
  if (faults && (faults.caught !== faults.total || !faults.cleanPassed))
    problems.push(
      `fault matrix: ${faults.caught}/${faults.total} caught${faults.cleanPassed ? "" : ", false alarms on the clean server"}`,
    );
  const detected = faults?.rows.filter((row) => row.requestsToDetection !== null) ?? [];
  return {
    clean: {
      exitCode: clean.exitCode,
      counts: clean.counts,
      durationMs: clean.durationMs,
      requests: clean.exchanges,
      wireRequests: clean.wire.length,
      gets: duplicates.gets,
      duplicateGets: duplicates.duplicates,
      duplicatedKinds: duplicates.kinds,
      top: duplicates.top,
    },
    ...(faults && {
      faults: {
        whole,
        caught: faults.caught,
        total: faults.total,
        detected: detected.length,
        sumToDetection: detected.reduce((sum, row) => sum + (row.requestsToDetection ?? 0), 0),
        cleanRequests: faults.cleanRequests,
        cleanPassed: faults.cleanPassed,
      },
    }),
    problems,
  };
}

/** Runs the child (with the fault matrix: every fault, or those named) and reads its figures. */
export async function benchRequests(options: {
  faults: "all" | readonly string[];
  timeoutMs: number;
}): Promise<RequestsResult> {
  const work = mkdtempSync(join(tmpdir(), "conform-bench-requests-"));
  const outFile = join(work, "requests.json");
  try {
    const { exitCode } = await runBoundedChild(
      [child, outFile, options.faults === "all" ? "--faults" : `--faults=${options.faults.join(",")}`],
      { timeoutMs: options.timeoutMs, stderr: "inherit" },
    );
    if (exitCode !== 0) throw new Error(`bench/requests-child.ts exited ${exitCode}`);
    return requestsResult(JSON.parse(readFileSync(outFile, "utf8")) as ChildOutput, options.faults === "all");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The figures before duplicate reads were cut, measured by this section's worker on the commit named (seed 0 for
 * the full run, seed 1 for the matrix, as `npm start` and `npm run faults` run them).
 */
export const requestsBaseline = {
  commit: "b3aaec6",
  requests: 1601,
  duplicateGets: 327,
  sumToDetection: 3321,
  faults: 50,
} as const;

/** Duplicate GETs of a full run must fall at least this far below the baseline's. */
export const duplicateCut = 0.3;

/** Section 7's goal, judged from its figures (pure). */
export function requestsGoal(requests: RequestsResult | undefined): {
  section: number;
  goal: string;
  measured: string;
  met: boolean | null;
} {
  const base = requestsBaseline;
  const most = Math.floor(base.duplicateGets * (1 - duplicateCut));
  const goal = `a full run at most ${base.requests} requests with at most ${most} duplicate GETs (${base.duplicateGets} less ${duplicateCut * 100} %), and the fault matrix's requests to detection at most ${base.sumToDetection} over every fault`;
  if (!requests) return { section: 7, goal, measured: "not run", met: null };
  const { clean, faults } = requests;
  const measured = `${clean.requests} requests, ${clean.duplicateGets} duplicate GETs (${signedPct(clean.duplicateGets, base.duplicateGets)}); ${faults ? `${faults.sumToDetection} requests to detection over ${faults.detected} faults${faults.whole ? "" : " (some faults only: not judged)"}` : "fault matrix not run"}`;
  if (requests.problems.length > 0)
    return { section: 7, goal, measured: `invalid: ${requests.problems.join("; ")}; ${measured}`, met: null };
  if (!faults?.whole) return { section: 7, goal, measured, met: null };
  return {
    section: 7,
    goal,
    measured,
    met:
      clean.requests <= base.requests &&
      clean.duplicateGets <= most &&
      faults.sumToDetection <= base.sumToDetection &&
      faults.caught === faults.total,
  };
}

function signedPct(value: number, base: number): string {
  const pct = ((value - base) / base) * 100;
  return `${pct >= 0 ? "+" : ""}${pct.toFixed(0)} %`;
}
