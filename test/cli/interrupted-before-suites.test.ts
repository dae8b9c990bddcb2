/**
 * A run interrupted before its suites started still writes its reports (status interrupted, no case, the signal's
 * exit code): a signal while conform still loads (held by bin/conform.js until the run's handlers install), and
 * one while the run waits for a target that accepts but never answers.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { JsonReport } from "../../src/reporters/json.ts";
import { cliToken, useCliRuns } from "../helpers/cli-runs.ts";

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(
  JSON.parse(readFileSync(join(import.meta.dirname, "../../src/reporters/report.schema.json"), "utf8")),
);

const { conform } = useCliRuns();
const folder = mkdtempSync(join(tmpdir(), "conform-before-suites-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Preloaded into the child: says on stderr when bin/conform.js holds signals (it then loads conform's modules), or
// after 5 s that it never did, so the test signals at a known moment of the loading.
const holdWatch = join(folder, "hold-watch.mjs");
writeFileSync(
  holdWatch,
  `const started = Date.now();
const timer = setInterval(() => {
  const held = process[Symbol.for("conform.signalHold")] !== undefined;
  if (!held && Date.now() - started < 5000) return;
  clearInterval(timer);
  process.stderr.write(held ? "hold-watch: holding\\n" : "hold-watch: no hold\\n");
}, 2);
timer.unref();
`,
);

/** A target that accepts connections and never answers (the run waits on its first request). */
const silent = createServer((socket) => sockets.push(socket));
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});
afterAll(() => new Promise((resolve) => silent.close(resolve)));

async function silentTarget(): Promise<string> {
  if (!silent.listening) await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address() as { port: number };
  return `http://127.0.0.1:${address.port}/v4`;
}

/** Waits (bounded: 20 s) until `ready()`; throws with the run's output if it never is. */
async function until(ready: () => boolean, output: () => string): Promise<void> {
  for (let i = 0; i < 800; i += 1) {
    if (ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not ready after 20 s:\n${output()}`);
}

/** The run's reports: the single run folder under `reportDir`, with the files written there. */
function reportsIn(reportDir: string): { files: string[]; report: JsonReport } {
  const runs = readdirSync(reportDir).filter((name) => name !== "latest" && !name.startsWith("."));
  expect(runs).toHaveLength(1);
  const runDir = join(reportDir, runs[0]!);
  const report = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8")) as JsonReport;
  return { files: readdirSync(runDir).sort(), report };
}

function expectEmptyInterruptedReport(report: JsonReport, exitCode: number): void {
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  expect(report).toMatchObject({ status: "interrupted", complete: false, exitCode, suites: [] });
  expect(report.counts).toMatchObject({ total: 0, interrupted: 0 });
  expect(report.warnings.join("\n")).toContain("before the suites started: no case ran");
}

const reporters = ["--reporter", "json,junit,markdown", "--report-dir"];

describe("a run interrupted before its suites started writes its reports", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)(
    "%s while conform still loads: held, then exit %i with the reports",
    async (signal, exitCode) => {
      const reportDir = mkdtempSync(join(folder, "loading-"));
      const run = conform(
        ["run", "--base-url", await silentTarget(), "--token", cliToken, ...reporters, reportDir],
        { nodeOptions: ["--import", pathToFileURL(holdWatch).href] },
      );
      await until(() => run.output().includes("hold-watch:"), run.output);
      expect(run.output()).toContain("hold-watch: holding");
      run.child.kill(signal);
      expect(await run.exited, run.output()).toBe(exitCode);
      expect(run.output()).toContain(`conform: interrupted (${signal})`);
      expect(run.output()).toMatch(/reports: .*report\.json/);
      const { files, report } = reportsIn(reportDir);
      expect(files).toEqual(["junit.xml", "report.json", "summary.md"]);
      expectEmptyInterruptedReport(report, exitCode);
    },
  );

  it("SIGTERM to a wrapper's whole group while conform loads: the wrapper's end is no second signal", async () => {
    const reportDir = mkdtempSync(join(folder, "wrapped-"));
    const run = conform(
      ["run", "--base-url", await silentTarget(), "--token", cliToken, ...reporters, reportDir],
      { wrapped: true, nodeOptions: ["--import", pathToFileURL(holdWatch).href] },
    );
    await until(() => run.output().includes("hold-watch:"), run.output);
    expect(run.output()).toContain("hold-watch: holding");
    // As `timeout` or a CI runner does: the shell (the wrapper) dies of it, conform holds it.
    process.kill(-run.child.pid!, "SIGTERM");
    await run.closed;
    expect(run.output()).toContain("conform: interrupted (SIGTERM)");
    expect(run.output(), run.output()).not.toContain("SIGTERM again");
    expectEmptyInterruptedReport(reportsIn(reportDir).report, 143);
  });

  it("SIGTERM while the run waits for a target that accepts but never answers: exit 143 with the reports", async () => {
    const reportDir = mkdtempSync(join(folder, "waiting-"));
    const target = await silentTarget();
    const run = conform(["run", "--base-url", target, "--token", cliToken, ...reporters, reportDir]);
    await until(() => sockets.length > 0, run.output);
    run.child.kill("SIGTERM");
    expect(await run.exited, run.output()).toBe(143);
    expect(run.output()).toContain("the run was interrupted (SIGTERM) before the suites started");
    const { files, report } = reportsIn(reportDir);
    expect(files).toEqual(["junit.xml", "report.json", "summary.md"]);
    expectEmptyInterruptedReport(report, 143);
    expect(report.target).toMatchObject({ baseUrl: target, embedded: false });
  });

  it("--max-time spent while waiting for the target: exit 2 (unchanged) with the reports", async () => {
    const reportDir = mkdtempSync(join(folder, "max-time-"));
    const args = ["--base-url", await silentTarget(), "--token", cliToken, "--max-time", "1000"];
    const run = conform(["run", ...args, ...reporters, reportDir]);
    expect(await run.exited, run.output()).toBe(2);
    expect(run.output()).toContain("(--max-time) before the suites started");
    expectEmptyInterruptedReport(reportsIn(reportDir).report, 2);
  });
});

describe("a command that writes no report", () => {
  it("holds no signal while it loads (Node's default action stays)", async () => {
    const run = conform(["spec", "--help"], { nodeOptions: ["--import", pathToFileURL(holdWatch).href] });
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).not.toContain("hold-watch: holding");
  });
});
