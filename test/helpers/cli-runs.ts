/**
 * The CLI run as a user runs it, against a reference server the test starts (plain HTTP, a faster clock, a fixed
 * token) so its state can be inspected directly: `useCliRuns()` registers the cleanup of every server and child
 * it made, and gives the functions the CLI tests share (a writing run of the back-ends workflows, waiting for its
 * first instance, what the runs left on the server).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import type { JsonReport } from "../../src/reporters/json.ts";
import { labelMatches } from "../../src/runner/leftovers.ts";
import { bundledSpec } from "./reference.ts";

export const conformBin = join(import.meta.dirname, "../../bin/conform.js");
export const cliToken = "c".repeat(64);

export interface CliRun {
  /** conform, or the shell that started it (`wrapped`). */
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  /** Conform's output streams closed: conform itself ended (its wrapper may have ended before it). */
  readonly closed: Promise<void>;
  /** Stdout and stderr so far, interleaved. */
  output(): string;
}

/** What of the runs' is left on the server (labels with the run prefix), by kind. */
export function leftovers(server: ReferenceServer) {
  const { state } = server;
  const balancers = [...state.nodeBalancers.values()].filter((record) =>
    labelMatches(record.label, "conform"),
  );
  const ids = new Set(balancers.map((record) => record.id));
  return {
    balancers: balancers.length,
    profiles: [...state.configs.values()].filter((record) => ids.has(record.nodebalancer_id)).length,
    nodes: [...state.nodes.values()].filter((record) => ids.has(record.nodebalancer_id)).length,
    instances: [...state.instances.values()].filter((record) => labelMatches(record.label, "conform")).length,
  };
}

export const nothingLeft = { balancers: 0, profiles: 0, nodes: 0, instances: 0 };

/** Registers the cleanup (after each test) and answers the functions that start servers and runs. */
export function useCliRuns() {
  const servers: ReferenceServer[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    // A test may have closed its server itself (an unreachable target): closing again must not fail the test.
    await Promise.allSettled(servers.splice(0).map((server) => server.close()));
  });

  /** A reference server over HTTP whose instances boot in about a second (time scale 0.2). */
  async function startTarget(): Promise<ReferenceServer> {
    const server = await createReferenceServer({
      spec: await bundledSpec(),
      http: true,
      token: cliToken,
      timeScale: 0.2,
    });
    servers.push(server);
    return server;
  }

  /**
   * `conform <args>` in a child process under this Node; `wrapped`: started by a shell that does not exec it (as
   * `npm run` and `npx` do), in a process group of its own (the wrapper's pid names it).
   */
  function conform(
    args: readonly string[],
    { wrapped = false, nodeOptions = [] as readonly string[] } = {},
  ): CliRun {
    const node = [process.execPath, ...nodeOptions, conformBin, ...args];
    const child = wrapped
      ? spawn("sh", ["-c", '"$0" "$@"; true', ...node], { stdio: ["ignore", "pipe", "pipe"], detached: true })
      : spawn(node[0]!, node.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let output = "";
    for (const stream of [child.stdout, child.stderr])
      stream?.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
      });
    const exited = once(child, "exit").then(([code]) => code as number | null);
    const closed = Promise.all([once(child.stdout!, "close"), once(child.stderr!, "close")]).then(() => {});
    return { child, exited, closed, output: () => output };
  }

  /** `conform run` of the back-ends workflows (3 to 5) against `server`, its reports in a fresh folder. */
  function runBackEnds(
    server: ReferenceServer,
    options: { wrapped?: boolean; nodeOptions?: readonly string[] } = {},
  ): CliRun & { report(): JsonReport } {
    const reportDir = mkdtempSync(join(tmpdir(), "conform-cli-"));
    const run = conform(
      [
        "run",
        "--base-url",
        server.baseUrl,
        "--token",
        cliToken,
        "--allow-writes",
        "--suite",
        "workflow-back-ends",
        "--reporter",
        "console,json",
        "--report-dir",
        reportDir,
      ],
      options,
    );
    // `latest/` is mirrored when the reports are closed; a second signal writes only the run's own report.json, and
    // one that comes while the mirror is being swapped leaves its hidden staging copy (`.latest.<pid>.<n>.tmp`).
    const report = () => {
      const runs = readdirSync(reportDir).filter((name) => name !== "latest" && !name.startsWith("."));
      const file = existsSync(join(reportDir, "latest", "report.json"))
        ? join(reportDir, "latest", "report.json")
        : join(reportDir, runs.length === 1 ? runs[0]! : "latest", "report.json");
      return JSON.parse(readFileSync(file, "utf8")) as JsonReport;
    };
    return { ...run, report };
  }

  /** Waits (bounded: 15 s) until the run has created its first instance on `server`. */
  async function untilInstanceExists(server: ReferenceServer, run: CliRun): Promise<void> {
    for (let i = 0; i < 600; i += 1) {
      if (leftovers(server).instances > 0) return;
      if (run.child.exitCode !== null)
        throw new Error(`the run ended before creating anything:\n${run.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no instance after 15 s:\n${run.output()}`);
  }

  return { startTarget, conform, runBackEnds, untilInstanceExists };
}
