/**
 * Interruptions. A writing run (`--allow-writes`, the back-ends workflows) against a target started outside the run
 * (a reference server this test starts, plain HTTP, faster clock) is sent SIGTERM or SIGINT once it has created an
 * instance: it exits 143 or 130, its report.json says `complete: false` with the case in flight `interrupted`
 * (nothing failed or errored), and nothing it made is left on the target. A second signal (emitted in-process)
 * quits at once, naming what the cleanup ledger still holds and the `conform cleanup` command, and writes
 * report.json synchronously.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { handleInterruptions, leftBehindLines } from "../../src/cli/interruption.ts";
import { RunInterrupted } from "../../src/core/errors.ts";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { createReporters } from "../../src/reporters/index.ts";
import type { JsonReport } from "../../src/reporters/json.ts";
import { labelMatches } from "../../src/runner/leftovers.ts";
import { interruptedRun } from "../fixtures/events/interrupted.ts";
import { bundledSpec } from "../helpers/reference.ts";
import { Capture } from "../reporters/helpers.ts";

const bin = join(import.meta.dirname, "../../bin/conform.js");
const token = "c".repeat(64);

const servers: ReferenceServer[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function startTarget(): Promise<ReferenceServer> {
  const server = await createReferenceServer({
    spec: await bundledSpec(),
    http: true,
    token,
    timeScale: 0.2,
  });
  servers.push(server);
  return server;
}

/** `conform run` of the back-ends workflows against the test's server, with its reports in a fresh folder. */
function runBackEnds(server: ReferenceServer) {
  const reportDir = mkdtempSync(join(tmpdir(), "conform-signal-"));
  const child = spawn(
    process.execPath,
    [
      bin,
      "run",
      "--base-url",
      server.baseUrl,
      "--token",
      token,
      "--allow-writes",
      "--suite",
      "workflow-back-ends",
      "--reporter",
      "json,console",
      "--report-dir",
      reportDir,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let output = "";
  for (const stream of [child.stdout, child.stderr])
    stream?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const report = () =>
    JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8")) as JsonReport;
  return { child, exited, output: () => output, report };
}

/** Everything on the server whose label carries the run prefix (load balancers, their profiles, instances). */
function madeByRuns(server: ReferenceServer) {
  const { state } = server;
  const balancers = [...state.nodeBalancers.values()].filter((record) =>
    labelMatches(record.label, "conform"),
  );
  const ids = new Set(balancers.map((record) => record.id));
  return {
    balancers: balancers.length,
    profiles: [...state.configs.values()].filter((record) => ids.has(record.nodebalancer_id)).length,
    instances: [...state.instances.values()].filter((record) => labelMatches(record.label, "conform")).length,
  };
}

describe("a signal during a writing run", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)(
    "%s: exit %i, report.json complete:false with the case in flight interrupted, nothing left on the target",
    async (signal, exitCode) => {
      const server = await startTarget();
      const run = runBackEnds(server);
      for (let i = 0; i < 600 && madeByRuns(server).instances === 0; i += 1) {
        if (run.child.exitCode !== null)
          throw new Error(`the run ended before creating anything:\n${run.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(madeByRuns(server).instances, run.output()).toBeGreaterThan(0);
      run.child.kill(signal);
      expect(await run.exited, run.output()).toBe(exitCode);
      expect(run.output()).toContain(`conform: interrupted (${signal}); cleaning up what the run created`);
      expect(madeByRuns(server)).toEqual({ balancers: 0, profiles: 0, instances: 0 });
      const report = run.report();
      expect(report).toMatchObject({ status: "interrupted", complete: false, exitCode, unfinishedCases: [] });
      expect(report.cleanup?.failed).toEqual([]);
      expect(report.cleanup?.deleted).toBeGreaterThan(0);
      expect(report.counts).toMatchObject({ failed: 0, errored: 0, interrupted: 1 });
      const cases = report.suites.flatMap((suite) => suite.cases);
      const interrupted = cases.filter((one) => one.status === "interrupted");
      expect(interrupted).toHaveLength(1);
      expect(interrupted[0]).not.toHaveProperty("reproduction");
      expect(run.output()).toMatch(/■ INTERRUPTED .*1 interrupted/);
    },
  );
});

describe("a second signal", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s twice: the first aborts the run, the second quits at once (%i) with what is left, the cleanup command and report.json",
    async (signal, exitCode) => {
      const outputDir = mkdtempSync(join(tmpdir(), "conform-second-"));
      const reporters = createReporters(["json"], {
        outputDir,
        stream: new Capture(),
        isTTY: false,
        ci: false,
      });
      // The run so far: everything before the engine said it finished.
      for (const event of interruptedRun().slice(0, -1)) await reporters.emit(event);
      const controller = new AbortController();
      let written = "";
      const exits: number[] = [];
      const stop = handleInterruptions({
        controller,
        left: { baseUrl: "http://127.0.0.1:9/v4", prefix: "conform-ab12cd", caFile: "/tmp/my ca.pem" },
        entries: () => [{ description: "load balancer 7", deletePath: "/nodebalancers/7" }],
        reporters,
        write: (text) => {
          written += text;
        },
        exit: (code) => void exits.push(code),
      });
      try {
        process.emit(signal);
        expect(controller.signal.reason).toBeInstanceOf(RunInterrupted);
        expect((controller.signal.reason as RunInterrupted).exitCode).toBe(exitCode);
        expect(exits).toEqual([]);
        process.emit(signal);
      } finally {
        stop();
      }
      expect(exits).toEqual([exitCode]);
      const cleanup =
        "conform cleanup --base-url http://127.0.0.1:9/v4 --prefix conform-ab12cd --ca '/tmp/my ca.pem'";
      expect(written).toContain(`conform: ${signal} again: quitting before the cleanup ended`);
      expect(written).toContain("  load balancer 7 (DELETE /nodebalancers/7)");
      expect(written).toContain(cleanup);
      expect(written).toContain(`report written: ${join(outputDir, "report.json")}`);
      const report = JSON.parse(readFileSync(join(outputDir, "report.json"), "utf8")) as JsonReport;
      expect(report).toMatchObject({ status: "interrupted", complete: false, exitCode: null, cleanup: null });
      expect(report.warnings.at(-1)).toContain(cleanup);
    },
  );

  it("says nothing is left when the target was the embedded server", () => {
    expect(leftBehindLines({ baseUrl: undefined, prefix: "conform-ab12cd" }, [])).toEqual([
      "nothing is left: the target was the embedded reference server, which stops with this process",
    ]);
    expect(
      leftBehindLines(
        { baseUrl: "https://api.example.net/v4", prefix: "conform-ab12cd", insecure: true },
        [],
      ),
    ).toEqual([
      "the cleanup ledger is empty (a write in flight may still have created something)",
      "remove what the run left (labels starting conform-ab12cd), with the run's token in CONFORM_TOKEN or --token-env: conform cleanup --base-url https://api.example.net/v4 --prefix conform-ab12cd --insecure",
    ]);
  });
});
