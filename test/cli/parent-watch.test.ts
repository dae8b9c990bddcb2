/**
 * Signals through wrappers: `npm run` and `npx` start conform through a shell and end at once on a SIGTERM (npm
 * passes it to the shell, which dies of it). Conform then takes its parent's end as its own SIGTERM: the cases
 * in flight are interrupted, cleanup runs, the reports are written, exit 143. A Ctrl-C reaching the whole group
 * is one signal, not two. Here the wrapper is `sh -c 'conform ...; true'`, which does not exec conform.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { cliToken, leftovers, nothingLeft, useCliRuns } from "../helpers/cli-runs.ts";

const { startTarget, conform, runBackEnds, untilInstanceExists } = useCliRuns();

describe("a writing run started by a wrapper", () => {
  it.each([
    ["the wrapper is sent SIGTERM (as npm passes it on to its shell)", "SIGTERM", false, 143],
    ["the wrapper is killed", "SIGKILL", false, 143],
    ["Ctrl-C reaches the whole process group: one signal, not a second", "SIGINT", true, 130],
  ] as const)(
    "%s: conform ends the run as on its own signal, nothing left on the target",
    async (_how, signal, group, exitCode) => {
      const server = await startTarget();
      const run = runBackEnds(server, { wrapped: true });
      await untilInstanceExists(server, run);
      process.kill(group ? -run.child.pid! : run.child.pid!, signal);
      await run.closed;
      expect(leftovers(server)).toEqual(nothingLeft);
      const report = run.report();
      expect(report, run.output()).toMatchObject({ status: "interrupted", complete: false, exitCode });
      expect(report.cleanup?.failed).toEqual([]);
      expect(report.cleanup?.deleted).toBeGreaterThan(0);
      expect(run.output()).not.toContain("again: quitting");
    },
  );
});

describe("a wrapper that ends while conform is still loading", () => {
  it("is seen: conform read its parent first, so it does not go on orphaned", async () => {
    // Holds the CLI's main module back 1.5 s after saying so: the wrapper ends inside that window.
    const hold = join(mkdtempSync(join(tmpdir(), "conform-hold-")), "hold.mjs");
    writeFileSync(
      hold,
      `import { registerHooks } from "node:module";
registerHooks({ resolve(specifier, context, next) {
  if (/cli[\\/]main\\.(ts|js)$/.test(specifier)) { process.stderr.write("loading main\\n"); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500); }
  return next(specifier, context);
} });
`,
    );
    const server = await startTarget();
    const run = runBackEnds(server, { wrapped: true, nodeOptions: ["--import", pathToFileURL(hold).href] });
    for (let i = 0; i < 400 && !run.output().includes("loading main"); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(run.output()).toContain("loading main");
    process.kill(run.child.pid!, "SIGKILL");
    await run.closed;
    // Ended before its run could start (Node's default SIGTERM while loading) or interrupted: never run to its end.
    expect(run.output()).not.toMatch(/PASSED/);
    expect(leftovers(server)).toEqual(nothingLeft);
  });
});

describe("conform serve started by a wrapper", () => {
  it("stops when the wrapper ends, removing the folder it wrote in the temp directory", async () => {
    const served = conform(["serve", "--http"], { wrapped: true });
    for (let i = 0; i < 400 && !served.output().includes("Ctrl-C stops it."); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const config = /--config (\S+)/.exec(served.output())?.[1];
    expect(config, served.output()).toBeDefined();
    expect(existsSync(config!)).toBe(true);
    process.kill(served.child.pid!, "SIGTERM");
    await served.closed;
    expect(existsSync(dirname(config!))).toBe(false);
  });
});

describe("conform proxy started by a wrapper", () => {
  it("writes its report when the wrapper ends, exiting by its verdict", async () => {
    const server = await startTarget();
    const reportDir = mkdtempSync(join(tmpdir(), "conform-proxy-wrapped-"));
    const proxy = conform(
      [
        "proxy",
        "--target",
        new URL(server.baseUrl).origin,
        "--port",
        "0",
        "--reporter",
        "json",
        "--report-dir",
        reportDir,
      ],
      { wrapped: true },
    );
    for (let i = 0; i < 400 && !/listening on (\S+),/.test(proxy.output()); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const url = /listening on (\S+),/.exec(proxy.output())?.[1];
    expect(url, proxy.output()).toBeDefined();
    const answer = await request(`${url}/v4/compute/types`, {
      headers: { authorization: `Bearer ${cliToken}` },
    });
    expect(answer.statusCode).toBe(200);
    await answer.body.text();
    process.kill(proxy.child.pid!, "SIGTERM");
    await proxy.closed;
    const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8"));
    expect(report, proxy.output()).toMatchObject({ status: "passed", exitCode: 0 });
    expect(report.counts.passed).toBe(1);
  });
});
