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
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
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
    readonly gets: number;
    /** GETs sent again (each sending beyond the first of its kind). */
    readonly duplicateGets: number;
    /** Distinct GETs sent more than once. */
    readonly duplicatedKinds: number;
    readonly top: readonly DuplicateGet[];
  };
  readonly faults?: {
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
    let set = suites.get(request);
    if (!set) suites.set(request, (set = new Set()));
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
export function requestsResult(output: ChildOutput): RequestsResult {
  const problems: string[] = [];
  const { clean } = output;
  if (clean.wire.length !== clean.exchanges)
    problems.push(
      `the wire saw ${clean.wire.length} requests, the engine recorded ${clean.exchanges} exchanges`,
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
      gets: duplicates.gets,
      duplicateGets: duplicates.duplicates,
      duplicatedKinds: duplicates.kinds,
      top: duplicates.top,
    },
    ...(faults && {
      faults: {
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

/** Runs the child (with the fault matrix unless `faults` is false) and reads its figures. */
export async function benchRequests(options: { faults: boolean; timeoutMs: number }): Promise<RequestsResult> {
  const work = mkdtempSync(join(tmpdir(), "conform-bench-requests-"));
  const outFile = join(work, "requests.json");
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const running = spawn(process.execPath, [child, outFile, ...(options.faults ? ["--faults"] : [])], {
        cwd: root,
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, NO_COLOR: "1" },
      });
      const timer = setTimeout(() => running.kill("SIGKILL"), options.timeoutMs);
      running.once("error", reject);
      running.once("exit", (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    if (exitCode !== 0) throw new Error(`bench/requests-child.ts exited ${exitCode}`);
    return requestsResult(JSON.parse(readFileSync(outFile, "utf8")) as ChildOutput);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
