/**
 * Section 8: start-up as an installed package starts. The build (`tsc -p tsconfig.build.json`) goes to a temporary
 * folder beside `bin/`, `specs/` and package.json, the checkout's node_modules linked in: what `npm i` of the
 * tarball gives (no sources, so bin/conform.js runs `dist/`). Each repetition times, in fresh processes and one
 * after the other, a bare `node -e 0`, `conform --version`, `conform --help`, `conform spec`, and `conform run` until its first
 * request reaches a loopback listener (then it is killed); the ratios are of medians against the bare start.
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatMs, formatSummary, renderTable, type Summary, summarize } from "./measure.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

export interface StartUpResult {
  readonly bareMs: Summary;
  readonly versionMs: Summary;
  readonly helpMs: Summary;
  readonly specMs: Summary;
  /** From spawning `conform run --base-url <loopback>` to its first request arriving. */
  readonly firstRequestMs: Summary;
  readonly cutShort: boolean;
  readonly problems: readonly string[];
}

/** The package as `npm i` of its tarball lays it out, in a temporary folder (removed by the caller). */
function installedCopy(folder: string): string {
  const built = spawnSync(
    process.execPath,
    [
      join(root, "node_modules/typescript/bin/tsc"),
      "-p",
      "tsconfig.build.json",
      "--outDir",
      join(folder, "dist"),
    ],
    { cwd: root, encoding: "utf8", timeout: 120_000 },
  );
  if (built.status !== 0) throw new Error(`the build failed: ${built.stdout}${built.stderr}`);
  for (const part of ["bin", "specs", "package.json"])
    cpSync(join(root, part), join(folder, part), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(folder, "node_modules"));
  return join(folder, "bin", "conform.js");
}

/** Milliseconds from spawn to exit of `node <args>`; a failure is a problem, not a figure. */
function timed(args: readonly string[], problems: string[]): Promise<number | undefined> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: "ignore", timeout: 30_000 });
  return new Promise((resolve) => {
    child.once("exit", (code) => {
      if (code === 0) resolve(performance.now() - started);
      else {
        problems.push(`node ${args.join(" ")} exited ${code}`);
        resolve(undefined);
      }
    });
  });
}

/** Milliseconds from spawning `conform run` to its first request at a loopback listener (then the run is killed). */
async function untilFirstRequest(
  bin: string,
  reportDir: string,
  problems: string[],
): Promise<number | undefined> {
  let arrived: (() => void) | undefined;
  const first = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = createServer((_request, response) => {
    arrived?.();
    response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      bin,
      "run",
      "--base-url",
      `http://127.0.0.1:${port}/v4`,
      "--token",
      "bench-start-up",
      "--report-dir",
      reportDir,
    ],
    { stdio: "ignore" },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const outcome = await Promise.race([
    first.then(() => performance.now() - started),
    exited.then(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 30_000).unref()),
  ]);
  if (child.exitCode === null) child.kill("SIGKILL");
  await exited;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  if (outcome === undefined) problems.push("conform run sent no request within 30 s");
  return outcome;
}

export async function benchStartUp(plan: { reps: number; maxMs: number }): Promise<StartUpResult> {
  const folder = mkdtempSync(join(tmpdir(), "conform-bench-start-up-"));
  const problems: string[] = [];
  const samples = {
    bare: [] as number[],
    version: [] as number[],
    help: [] as number[],
    spec: [] as number[],
    first: [] as number[],
  };
  const started = performance.now();
  try {
    const bin = installedCopy(folder);
    // One unmeasured round: the file system cache holds the modules, as on a second start.
    await timed([bin, "spec"], problems);
    for (let rep = 0; rep < plan.reps && performance.now() - started < plan.maxMs; rep += 1) {
      const add = (list: number[], value: number | undefined) => value !== undefined && list.push(value);
      add(samples.bare, await timed(["-e", "0"], problems));
      add(samples.version, await timed([bin, "--version"], problems));
      add(samples.help, await timed([bin, "--help"], problems));
      add(samples.spec, await timed([bin, "spec"], problems));
      add(samples.first, await untilFirstRequest(bin, join(folder, "reports"), problems));
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return {
    bareMs: summarize(samples.bare),
    versionMs: summarize(samples.version),
    helpMs: summarize(samples.help),
    specMs: summarize(samples.spec),
    firstRequestMs: summarize(samples.first),
    cutShort: samples.bare.length < plan.reps,
    problems,
  };
}

/** The goal: `conform --version` within twice a bare Node start. */
export const startUpGoal = 2;
const goalText = `conform --version at most ${startUpGoal}x a bare node -e 0 (installed package)`;

const ratio = (of: Summary, to: Summary) => of.median / to.median;

export function startUpGoalOf(result: StartUpResult | undefined): {
  section: number;
  goal: string;
  measured: string;
  met: boolean | null;
} {
  if (!result) return { section: 8, goal: goalText, measured: "not run", met: null };
  if (result.problems.length > 0 || result.versionMs.n === 0)
    return { section: 8, goal: goalText, measured: `invalid: ${result.problems.join("; ")}`, met: null };
  const measured = `${formatMs(result.versionMs.median)} / ${formatMs(result.bareMs.median)} = ${ratio(result.versionMs, result.bareMs).toFixed(2)}x`;
  return { section: 8, goal: goalText, measured, met: ratio(result.versionMs, result.bareMs) <= startUpGoal };
}

/** Section 8's lines. */
export function renderStartUp(result: StartUpResult | undefined): string[] {
  const out = [
    "8. Start-up of the installed package (fresh processes, ratios of medians to a bare node -e 0)",
  ];
  if (!result) return [...out, "   not run"];
  const row = (name: string, summary: Summary) => [
    name,
    formatSummary(summary, formatMs),
    summary.n === 0 ? "n/a" : `${ratio(summary, result.bareMs).toFixed(2)}x`,
  ];
  const table = renderTable(
    ["what", "time", "vs bare"],
    [
      row("node -e 0", result.bareMs),
      row("conform --version", result.versionMs),
      row("conform --help", result.helpMs),
      row("conform spec", result.specMs),
      row("conform run, to its first request", result.firstRequestMs),
    ],
  );
  return [
    ...out,
    ...table.split("\n").map((line) => `   ${line}`),
    ...(result.cutShort ? ["   (the time budget cut the repetitions short)"] : []),
    ...result.problems.map((problem) => `   INVALID: ${problem}`),
  ];
}
