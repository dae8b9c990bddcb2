import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { handleInterruptions, type LeftBehind, leftBehindLines } from "../../src/cli/interruption.ts";
import { RunInterrupted } from "../../src/core/errors.ts";
import { createReporters, type ReporterGroup } from "../../src/reporters/index.ts";
import type { JsonReport } from "../../src/reporters/json.ts";
import type { LeftOnLedger } from "../../src/runner/ledger.ts";
import { crashedRun } from "../fixtures/events/interrupted.ts";
import { leftovers, nothingLeft, useCliRuns } from "../helpers/cli-runs.ts";
import { Capture } from "../reporters/helpers.ts";

const { startTarget, runBackEnds, untilInstanceExists } = useCliRuns();

/** A json reporter writing into a fresh folder. */
function jsonReporters(prefix: string): { outputDir: string; reporters: ReporterGroup } {
  const outputDir = mkdtempSync(join(tmpdir(), prefix));
  return {
    outputDir,
    reporters: createReporters(["json"], { outputDir, stream: new Capture(), isTTY: false, ci: false }),
  };
}

/** The signals handled for a run, what it writes and the exits it asks for recorded instead of done. */
function handled(reporters: ReporterGroup, left: LeftBehind | undefined, ledger: LeftOnLedger) {
  const controller = new AbortController();
  const seen = { written: "", exits: [] as number[] };
  const done = handleInterruptions({
    controller,
    left,
    ledger: () => ledger,
    reporters,
    write: (text) => {
      seen.written += text;
    },
    exit: (code) => void seen.exits.push(code),
  });
  return { controller, seen, done };
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
      await untilInstanceExists(server, run);
      run.child.kill(signal);
      expect(await run.exited, run.output()).toBe(exitCode);
      expect(run.output()).toContain(`conform: interrupted (${signal}); cleaning up what the run created`);
      expect(leftovers(server)).toEqual(nothingLeft);
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

describe("a double SIGTERM during a writing run against an outside target", () => {
  it("exits 143 at once; report.json has exit code 143 and the case it stopped in counted as interrupted", async () => {
    const server = await startTarget();
    const run = runBackEnds(server);
    await untilInstanceExists(server, run);
    run.child.kill("SIGTERM");
    // The second signal comes soon after the first, most likely while the case or the cleanup still runs; on a
    // loaded machine the run may have written its reports by then (it still quits at once, handled) or be gone.
    await new Promise((resolve) => setTimeout(resolve, 30));
    run.child.kill("SIGTERM");
    expect(await run.exited, run.output()).toBe(143);
    const output = run.output();
    if (output.includes("SIGTERM again: quitting before the cleanup ended"))
      expect(output).toContain("a write in flight may have created something the ledger does not hold yet");
    expect(output).not.toMatch(/⚠ .*; remove what the run left/);
    const report = run.report();
    expect(report).toMatchObject({ status: "interrupted", complete: false, exitCode: 143 });
    expect(report.counts.interrupted).toBe(1);
    expect(report.counts.total).toBe(report.suites.reduce((sum, suite) => sum + suite.counts.total, 0));
  });
});

describe("a second signal", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s twice: the first aborts the run, the second quits at once (%i) with what is left, the cleanup command and report.json",
    async (signal, exitCode) => {
      const { outputDir, reporters } = jsonReporters("conform-second-");
      // The run so far: the second signal comes while a case still runs (the first one's abort has not ended it).
      for (const event of crashedRun()) await reporters.emit(event);
      const {
        controller,
        seen,
        done: stop,
      } = handled(
        reporters,
        { baseUrl: "http://127.0.0.1:9/v4", prefix: "conform-ab12cd", caFile: "/tmp/my ca.pem" },
        {
          entries: [{ description: "load balancer 7", deletePath: "/nodebalancers/7" }],
          unidentified: [{ description: "instance", label: "conform-ab12cd-web" }],
        },
      );
      try {
        process.emit(signal);
        expect(controller.signal.reason).toBeInstanceOf(RunInterrupted);
        expect((controller.signal.reason as RunInterrupted).exitCode).toBe(exitCode);
        expect(seen.exits).toEqual([]);
        process.emit(signal);
      } finally {
        stop();
      }
      expect(seen.exits).toEqual([exitCode]);
      const cleanup =
        "conform cleanup --base-url http://127.0.0.1:9/v4 --prefix conform-ab12cd --ca '/tmp/my ca.pem'";
      expect(seen.written).toContain(`conform: ${signal} again: quitting before the cleanup ended`);
      expect(seen.written).toContain("left on the target (2, from the cleanup ledger):");
      expect(seen.written).toContain("  load balancer 7 (DELETE /nodebalancers/7)");
      expect(seen.written).toContain(
        "  instance labelled conform-ab12cd-web (the answer did not say what it created: `conform cleanup --prefix conform-ab12cd-web` finds it by label)",
      );
      expect(seen.written).toContain(
        "a write in flight may have created something the ledger does not hold yet",
      );
      expect(seen.written).toContain(cleanup);
      expect(seen.written).toContain(`report written: ${join(outputDir, "report.json")}`);
      const report = JSON.parse(readFileSync(join(outputDir, "report.json"), "utf8")) as JsonReport;
      // The process exits with the signal's code, and says so; the case it stopped in is counted, not only listed.
      expect(report).toMatchObject({ status: "interrupted", complete: false, exitCode, cleanup: null });
      expect(report.counts).toMatchObject({ passed: 2, interrupted: 1, total: 3 });
      expect(report.suites[0]?.counts).toMatchObject({ passed: 2, interrupted: 1, total: 3 });
      expect(report.unfinishedCases).toEqual([
        { suiteId: "workflows", caseId: "boot", title: "the instance boots" },
      ]);
      // One line summing it up, not the printed lines again joined by `;`.
      expect(report.warnings.at(-1)).toBe(
        `quit before the cleanup ended: 2 left on the cleanup ledger, 1 unidentified (a write in flight may have created something the ledger does not hold yet); remove them with ${cleanup}`,
      );
    },
  );

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s after the reports are written, following a first signal: still handled, quitting at once (%i)",
    (signal, exitCode) => {
      const before = process.listeners(signal);
      const { seen, done: reportsWritten } = handled(jsonReporters("conform-late-").reporters, undefined, {
        entries: [],
        unidentified: [],
      });
      try {
        process.emit(signal);
        // The interrupted run's process ends as soon as its reports are written, with the run's exit code...
        reportsWritten(exitCode);
        expect(seen.exits).toEqual([exitCode]);
        // ...and a signal until then is handled: the default action would kill it by the signal, its code lost.
        expect(process.listeners(signal).length).toBe(before.length + 1);
        process.emit(signal);
        expect(seen.exits).toEqual([exitCode, exitCode]);
        expect(seen.written).toContain(`conform: ${signal} again: the reports are written; quitting at once`);
      } finally {
        for (const listener of process.listeners(signal))
          if (!before.includes(listener)) process.off(signal, listener);
      }
    },
  );

  it("stops handling signals when the run ended without one", () => {
    const before = process.listenerCount("SIGTERM");
    const stop = handleInterruptions({
      controller: new AbortController(),
      left: undefined,
      ledger: () => ({ entries: [], unidentified: [] }),
      reporters: createReporters([], { outputDir: tmpdir(), stream: new Capture(), isTTY: false, ci: false }),
      write: () => {},
      exit: () => {},
    });
    stop();
    expect(process.listenerCount("SIGTERM")).toBe(before);
  });

  it("says nothing is left when the target was the embedded server", () => {
    const empty = { entries: [], unidentified: [] };
    expect(leftBehindLines({ baseUrl: undefined, prefix: "conform-ab12cd" }, empty)).toEqual([
      "nothing is left: the target was the embedded reference server, which stops with this process",
    ]);
    expect(
      leftBehindLines(
        { baseUrl: "https://api.example.net/v4", prefix: "conform-ab12cd", insecure: true },
        empty,
      ),
    ).toEqual([
      "the cleanup ledger is empty",
      "a write in flight may have created something the ledger does not hold yet: the command below finds it by label",
      "remove what the run left (labels starting conform-ab12cd), with the run's token in CONFORM_TOKEN or --token-env: conform cleanup --base-url https://api.example.net/v4 --prefix conform-ab12cd --insecure",
    ]);
  });
});
