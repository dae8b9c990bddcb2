/**
 * Hostile targets, each run for real on loopback by the `conform` process as a user runs it (a child, under a
 * memory limit as a safety net): whatever a target answers, the run ends by itself with its verdict (exit 1, or 2
 * when no case ran), writes its report, stays under 500 MB at its peak, and leaves no connection open. And the
 * proxy in front of an endless answer: it streams, stays small, and ends on SIGTERM with its reports.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import type { JsonReport } from "../../src/reporters/json.ts";
import { conformBin } from "../helpers/cli-runs.ts";
import { onLoopback } from "../helpers/loopback.ts";

const list = JSON.stringify({ data: [], page: 1, pages: 1, results: 0 });
const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
const timers = new Set<NodeJS.Timeout>();
/** Requests seen per mode (a mode stalls every Nth). */
const seen = new Map<string, number>();

/** Writes `chunk` every `everyMs` until the client goes (skipping a beat while the client is behind). */
function endless(response: ServerResponse, chunk: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (!response.writableNeedDrain) response.write(chunk);
  }, everyMs);
  timers.add(timer);
  response.on("close", () => clearInterval(timer));
}

/** Answers the way its mode (the first path segment) says, after answering the start-up checks like this API. */
function answer(mode: string, path: string, request: IncomingMessage, response: ServerResponse): void {
  // The start-up checks (the base URL, the preflight's list, the token's check) ask without a query.
  const preflight = !request.url?.includes("?") && ["/v4", "/v4/regions", "/v4/profile"].includes(path);
  const json = { "content-type": "application/json" };
  if (preflight && mode !== "stall-all") return void response.writeHead(200, json).end(list);
  const count = (seen.get(mode) ?? 0) + 1;
  seen.set(mode, count);
  if (mode === "declared-huge")
    return void response.writeHead(200, { ...json, "content-length": 1e9 }).write("[");
  if (mode === "endless") return void endless(response.writeHead(200, json), "1,".repeat(32 * 1024), 5);
  if (mode === "trickle") return void endless(response.writeHead(200, json), " ", 50);
  if (mode === "malformed") return void response.writeHead(200, json).end('{"data": [1, 2');
  if (mode === "deep") return void response.writeHead(200, json).end(deep);
  if (mode === "stall-every-3rd" && count % 3 === 0) return;
  if (mode === "stall-all") return;
  response.writeHead(200, json).end(list);
}

const server = createServer((request, response) => {
  const [, mode = "", ...rest] = new URL(request.url ?? "/", "http://x").pathname.split("/");
  answer(mode, `/${rest.join("/")}`, request, response);
});
const originOf = onLoopback(server, { close: () => timers.forEach(clearInterval) });

interface Watched {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  /** The child's peak resident memory in MB, as last read from /proc (VmHWM: the peak so far). */
  peakMb(): number;
  output(): string;
}

/** `conform <args>` in a child under a 3 GB address-space limit, its peak memory watched. */
/** Every child started, ended after its test if it is still there (a failed or timed-out test leaves none). */
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function conform(args: readonly string[]): Watched {
  const child = spawn(
    "bash",
    ["-c", 'ulimit -v 3000000 && exec "$0" "$@"', process.execPath, conformBin, ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let output = "";
  for (const stream of [child.stdout, child.stderr])
    stream?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
  let peakKb = 0;
  const watch = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // Gone: the last reading stands.
    }
  }, 20);
  const exited = once(child, "exit").then(([code]) => {
    clearInterval(watch);
    return code as number | null;
  });
  return { child, exited, peakMb: () => peakKb / 1024, output: () => output };
}

const bounds = ["--request-deadline", "500", "--max-response-bytes", "1048576"];
/** Leaves the start-up checks room on a loaded machine; the stalls pay it per stalled request. */
const timeout = ["--timeout", "4000"];

describe("conform run against a hostile target, as a process", () => {
  it.each<[string, number, RegExp, readonly string[]]>([
    // Idle timeouts far beyond the test's: only the size bound may end it (the old client hung, or exited 13).
    ["declared-huge", 1, /RESPONSE_TOO_LARGE/, ["--timeout", "600000"]],
    ["endless", 1, /RESPONSE_TOO_LARGE/, timeout],
    ["trickle", 1, /REQUEST_DEADLINE/, timeout],
    ["malformed", 1, /the body is not JSON/, timeout],
    ["deep", 1, /the body nests deeper than 256 levels/, timeout],
    ["stall-every-3rd", 1, /HeadersTimeout|UND_ERR_HEADERS_TIMEOUT/, timeout],
    ["stall-all", 2, /did not answer|UND_ERR_HEADERS_TIMEOUT|unreachable/i, timeout],
  ])(
    "%s: ends by itself, exit %i, with its report, under 500 MB, nothing left open",
    async (mode, code, says, more) => {
      const reportDir = mkdtempSync(join(tmpdir(), "conform-hostile-"));
      const run = conform([
        "run",
        "--base-url",
        `${originOf()}/${mode}/v4`,
        "--token",
        "t".repeat(40),
        "--suite",
        "catalogue",
        "--reporter",
        "json",
        "--report-dir",
        reportDir,
        ...bounds,
        ...more,
      ]);
      expect(await run.exited, run.output()).toBe(code);
      expect(run.peakMb()).toBeGreaterThan(0);
      expect(run.peakMb()).toBeLessThan(500);
      const file = join(reportDir, "latest", "report.json");
      if (code === 1) {
        const report = JSON.parse(readFileSync(file, "utf8")) as JsonReport;
        expect(report).toMatchObject({ exitCode: 1, complete: true });
        const text = JSON.stringify(report);
        expect(text.match(says)?.[0]).toBeDefined();
        // A bound may error a case, with its stable code and words; never with an error of ours.
        expect(text.match(/TypeError|RangeError|SUITE_ERROR|\\n\s+at /)?.[0]).toBeUndefined();
      } else {
        // Refused before any case ran: one line saying why, no report of nothing.
        expect(existsSync(file)).toBe(false);
        expect(run.output()).toMatch(says);
      }
      // Nothing left: the process ended by itself, its connections with it (the answers the server never finished
      // are the server's to drop).
      expect(run.child.exitCode).toBe(code);
      server.closeAllConnections();
    },
  );
});

describe("conform proxy in front of an endless answer, as a process", () => {
  it("streams it to the client, stays under 500 MB, and ends on SIGTERM with its reports (143: it judged nothing)", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), "conform-hostile-proxy-"));
    const proxy = conform([
      "proxy",
      "--target",
      `${originOf()}/endless`,
      "--port",
      "0",
      "--reporter",
      "json",
      "--report-dir",
      reportDir,
      "--request-deadline",
      "60000",
      "--max-response-bytes",
      "65536",
    ]);
    let url = "";
    for (let look = 0; look < 400 && !url; look += 1) {
      url = /listening on (http:\/\/\S+),/.exec(proxy.output())?.[1] ?? "";
      if (!url) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(url, proxy.output()).not.toBe("");
    const answer = await request(`${url}/v4/compute/types?page=1`);
    let bytes = 0;
    // 32 MB through it (far more than the 64 KiB it may keep), then SIGTERM while the answer still streams.
    try {
      for await (const chunk of answer.body) {
        bytes += (chunk as Buffer).length;
        if (bytes > 32 * 1024 * 1024 && proxy.child.signalCode === null && !proxy.child.killed)
          proxy.child.kill("SIGTERM");
      }
    } catch {
      // Cut by the proxy's stop: what it had in flight is abandoned.
    }
    expect(await proxy.exited, proxy.output()).toBe(143);
    expect(bytes).toBeGreaterThan(32 * 1024 * 1024);
    expect(proxy.peakMb()).toBeLessThan(500);
    const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8")) as JsonReport;
    expect(report).toMatchObject({ exitCode: 143, complete: false });
  });
});
