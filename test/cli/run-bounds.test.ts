/**
 * `conform run` against hostile targets (a tiny deliberately wrong server): each run ends on its own within its
 * bounds, writes its report (owner-readable only) and exits 1; and the mistakes caught before a run starts.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.ts";
import { cliToken, leftovers, nothingLeft, useCliRuns } from "../helpers/cli-runs.ts";

type Mode = "huge" | "gzip-bomb" | "trickle" | "retry-after-day" | "far-reset";
let mode: Mode = "huge";
const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
const list = JSON.stringify({ data: [], page: 1, pages: 1, results: 0 });

/** Answers the start-up check, the preflight and the token check like this API, then everything else the way `mode` says. */
const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const path = new URL(request.url ?? "/", "http://x").pathname;
  const preflight =
    (request.headers.authorization === undefined && (path === "/v4" || path === "/v4/regions")) ||
    path === "/v4/profile";
  if (preflight || (mode === "far-reset" && path !== "/v4/regions")) {
    response.writeHead(200, {
      "content-type": "application/json",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 10 * 365 * 86400),
    });
    response.end(list);
    return;
  }
  if (mode === "far-reset" || mode === "huge") {
    response.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (!response.destroyed && response.write(chunk));
    };
    response.on("drain", pump);
    pump();
    return;
  }
  if (mode === "gzip-bomb") {
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    response.end(bomb);
    return;
  }
  if (mode === "trickle") {
    response.writeHead(200, { "content-type": "application/json" });
    const timer = setInterval(() => response.write(" "), 50);
    response.on("close", () => clearInterval(timer));
    return;
  }
  response.writeHead(429, { "content-type": "application/json", "retry-after": "86400" });
  response.end('{"errors":[{"reason":"Too many requests"}]}');
});

let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const bounds = ["--max-response-bytes", "1048576", "--request-deadline", "300", "--max-wait", "1000"];

describe("conform run against a hostile target", () => {
  it.each<[Mode, RegExp]>([
    ["huge", /RESPONSE_TOO_LARGE/],
    ["gzip-bomb", /RESPONSE_TOO_LARGE/],
    ["trickle", /REQUEST_DEADLINE/],
    ["retry-after-day", /WAIT_TOO_LONG/],
    ["far-reset", /WAIT_TOO_LONG/],
  ])("%s: ends on its own, writes its report (mode 0600) and exits 1", async (hostile, code) => {
    mode = hostile;
    const reportDir = mkdtempSync(join(tmpdir(), "conform-hostile-"));
    const result = await cli([
      "run",
      "--base-url",
      baseUrl,
      "--token",
      "t".repeat(40),
      "--suite",
      "catalogue",
      "--report-dir",
      reportDir,
      "--reporter",
      "json",
      ...bounds,
    ]);
    expect(result.code).toBe(1);
    const file = join(reportDir, "latest", "report.json");
    expect(readFileSync(file, "utf8")).toMatch(code);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe("conform run fails early", () => {
  it.each([
    [["--base-url", "https://user:hunter22@127.0.0.1:1/v4"], /--base-url holds credentials/],
    [
      ["--base-url", "https://127.0.0.1:1/v4", "--auth-url", "https://u:hunter22@127.0.0.1:1"],
      /--auth-url holds/,
    ],
    [["--base-url", "https://127.0.0.1:1/v4", "--token", ""], /--token is empty/],
    [["--max-response-bytes", "0"], /--max-response-bytes 0: give an integer of at least 1/],
    [["--max-time", "-5"], /--max-time -5/],
  ])("refuses %j as a usage error (exit 2), printing no credential", async (args, message) => {
    const result = await cli(["run", ...args]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.out + result.err).not.toContain("hunter22");
  });

  it("refuses an unwritable report directory before the run (exit 2)", async () => {
    // A file where the directory should be: unwritable even for root (chmod would not stop root).
    const file = join(mkdtempSync(join(tmpdir(), "conform-readonly-")), "a-file");
    writeFileSync(file, "");
    const result = await cli(["run", "--suite", "catalogue", "--report-dir", file, "--reporter", "json"]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--report-dir: .* cannot be written \(ENOTDIR\)/);
    expect(result.out).not.toMatch(/PASSED/);
  });

  it("ends a run at --max-time like an interruption, with its report, exit 2", async () => {
    mode = "trickle";
    const reportDir = mkdtempSync(join(tmpdir(), "conform-max-time-"));
    const result = await cli([
      "run",
      "--base-url",
      baseUrl,
      "--token",
      "t".repeat(40),
      "--suite",
      "catalogue",
      "--report-dir",
      reportDir,
      "--reporter",
      "json",
      "--request-deadline",
      "60000",
      "--max-time",
      // Counted from the run's start, loading included: long enough that a loaded machine is past the start-up.
      "4000",
    ]);
    expect(result.code).toBe(2);
    const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8"));
    expect(report.complete).toBe(false);
    expect(JSON.stringify(report)).toMatch(/--max-time/);
    expect(existsSync(join(reportDir, "latest"))).toBe(true);
  });
});

/** `conform run --allow-writes` of one fixture suite (`test/fixtures/suites/<id>.suite.ts`), report.json only. */
function runFixtureSuite(
  conform: ReturnType<typeof useCliRuns>["conform"],
  baseUrl: string,
  id: string,
  reportDir: string,
) {
  const suitePath = join(import.meta.dirname, `../fixtures/suites/${id}.suite.ts`);
  const target = ["--base-url", baseUrl, "--token", cliToken, "--allow-writes"];
  return conform([
    "run",
    ...target,
    "--suite-path",
    suitePath,
    "--suite",
    id,
    "--reporter",
    "json",
    "--report-dir",
    reportDir,
  ]);
}

describe("conform run with a suite that leaves an error nothing awaits", () => {
  const { startTarget, conform } = useCliRuns();

  it("errors that case, still cleans up and writes the report (a child process: Node would end it)", async () => {
    const server = await startTarget();
    const reportDir = mkdtempSync(join(tmpdir(), "conform-stray-"));
    const run = runFixtureSuite(conform, server.baseUrl, "stray-rejection", reportDir);
    expect(await run.exited, run.output()).toBe(1);
    const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8"));
    expect(JSON.stringify(report)).toMatch(/SUITE_UNHANDLED_ERROR.*a stray rejection from the suite/);
    expect(leftovers(server)).toEqual(nothingLeft);
  });
});

describe("conform run with a case that awaits what can never settle", () => {
  const { startTarget, conform } = useCliRuns();

  it("ends with exit 2, report.json and what it left, not with Node's exit 13 and nothing", async () => {
    const server = await startTarget();
    const reportDir = mkdtempSync(join(tmpdir(), "conform-stalled-"));
    const run = runFixtureSuite(conform, server.baseUrl, "stalled", reportDir);
    // The child's idle connections close after their keep-alive (10 s); then nothing is left to wait on.
    expect(await run.exited, run.output()).toBe(2);
    expect(run.output()).toMatch(/the run stalled, .* quitting before the cleanup ended/);
    expect(run.output()).toMatch(/load balancer \d+ \(DELETE \/nodebalancers\/\d+\)/);
    const runs = readdirSync(reportDir).filter((name) => !name.startsWith(".") && name !== "latest");
    const report = JSON.parse(readFileSync(join(reportDir, runs[0] ?? "", "report.json"), "utf8"));
    expect(report).toMatchObject({ exitCode: 2, complete: false });
  }, 40_000);
});
