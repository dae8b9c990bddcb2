import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { handleInterruptions, leftBehindLines } from "../../src/cli/interruption.ts";
import { RunInterrupted } from "../../src/core/errors.ts";
import { createReporters } from "../../src/reporters/index.ts";
import type { JsonReport } from "../../src/reporters/json.ts";
import { interruptedRun } from "../fixtures/events/interrupted.ts";
import { leftovers, nothingLeft, useCliRuns } from "../helpers/cli-runs.ts";
import { Capture } from "../reporters/helpers.ts";

const { startTarget, runBackEnds, untilInstanceExists } = useCliRuns();

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
