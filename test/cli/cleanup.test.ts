/**
 * Leftovers and `conform cleanup`: a run killed (SIGKILL) in the middle of workflow 3 leaves resources behind,
 * which `conform cleanup --prefix` lists (dry run) and then deletes, children first, leaving everything else
 * alone (a run interrupted with SIGINT or SIGTERM cleans up itself: `interruption.test.ts`). The target is a
 * reference server this test starts (plain HTTP, faster clock), so its state can be inspected directly.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { labelMatches } from "../../src/runner/leftovers.ts";
import { bundledSpec } from "../helpers/reference.ts";

const bin = join(import.meta.dirname, "../../bin/conform.js");
const token = "c".repeat(64);

const servers: ReferenceServer[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A reference server over HTTP whose instances boot in about a second (time scale 0.2). */
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

function conform(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, exited, output: () => output };
}

/** `conform run` of the back-ends suite (workflows 3 to 5) against the test's server. */
function runBackEnds(server: ReferenceServer) {
  return conform([
    "run",
    "--base-url",
    server.baseUrl,
    "--token",
    token,
    "--allow-writes",
    "--suite",
    "workflow-back-ends",
    "--reporter",
    "console,json",
    "--report-dir",
    mkdtempSync(join(tmpdir(), "conform-cleanup-")),
  ]);
}

/** Waits (bounded) until workflow 3 has created its first instance. */
async function untilInstanceExists(server: ReferenceServer, run: ReturnType<typeof conform>): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if ([...server.state.instances.values()].some((instance) => labelMatches(instance.label, "conform")))
      return;
    if (run.child.exitCode !== null) throw new Error(`the run ended before workflow 3:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no instance after 15 s:\n${run.output()}`);
}

/** What of the run's is left on the server, by kind. */
function leftovers(server: ReferenceServer) {
  const { state } = server;
  const balancers = [...state.nodeBalancers.values()].filter((record) =>
    labelMatches(record.label, "conform"),
  );
  const balancerIds = new Set(balancers.map((record) => record.id));
  return {
    balancers: balancers.length,
    profiles: [...state.configs.values()].filter((record) => balancerIds.has(record.nodebalancer_id)).length,
    nodes: [...state.nodes.values()].filter((record) => balancerIds.has(record.nodebalancer_id)).length,
    instances: [...state.instances.values()].filter((record) => labelMatches(record.label, "conform")).length,
  };
}

const nothing = { balancers: 0, profiles: 0, nodes: 0, instances: 0 };

describe("conform cleanup", () => {
  it("after a run killed in the middle of workflow 3, lists the leftovers, deletes them, and nothing else", async () => {
    const server = await startTarget();
    // Someone else's resources, which must survive.
    const bystander = await fetch(`${server.baseUrl}/nodebalancers`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ region: "us-east", label: "production-web" }),
    });
    expect(bystander.status).toBe(200);

    const run = runBackEnds(server);
    await untilInstanceExists(server, run);
    run.child.kill("SIGKILL");
    expect(await run.exited).toBeNull();
    const left = leftovers(server);
    expect(left.balancers).toBe(1);
    expect(left.profiles).toBe(1);
    expect(left.instances).toBeGreaterThanOrEqual(1);

    const dry = conform([
      "cleanup",
      "--base-url",
      server.baseUrl,
      "--token",
      token,
      "--prefix",
      "conform",
      "--dry-run",
    ]);
    expect(await dry.exited, dry.output()).toBe(0);
    expect(dry.output()).toMatch(/would delete profile \d+ \(conform-\w+-web\) of load balancer \d+/);
    expect(dry.output()).toMatch(/would delete load balancer \d+ \(conform-\w+-backends\)/);
    expect(dry.output()).toMatch(/would delete instance \d+ \(conform-\w+-node-a\)/);
    expect(dry.output()).toMatch(/kept token \d+ conform-reference: it is the token this cleanup uses/);
    expect(dry.output()).not.toMatch(/production-web/);
    expect(leftovers(server)).toEqual(left);

    // The prefix as the run printed it at its start.
    const printed = /labels (conform-[a-z0-9]{6})-\*/.exec(run.output())?.[1];
    expect(printed, run.output()).toBeDefined();
    const runId = /· run (\S+)/.exec(run.output())?.[1] ?? "";
    const byRun = conform([
      "cleanup",
      "--base-url",
      server.baseUrl,
      "--token",
      token,
      "--run",
      runId,
      "--dry-run",
    ]);
    expect(await byRun.exited, byRun.output()).toBe(0);
    expect(byRun.output()).toContain(`prefix ${printed}`);
    expect(byRun.output()).toMatch(/would delete load balancer \d+ \(conform-\w+-backends\)/);

    const real = conform(["cleanup", "--base-url", server.baseUrl, "--token", token, "--prefix", printed!]);
    expect(await real.exited, real.output()).toBe(0);
    const lines = real.output().split("\n");
    const order = ["deleted profile", "deleted load balancer", "deleted instance"].map((start) =>
      lines.findIndex((line) => line.trim().startsWith(start)),
    );
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(leftovers(server)).toEqual(nothing);
    expect([...server.state.nodeBalancers.values()].map((record) => record.label)).toEqual([
      "production-web",
    ]);
    // The token the cleanup used still works.
    expect(server.state.tokens.has(token)).toBe(true);

    const again = conform(["cleanup", "--base-url", server.baseUrl, "--token", token, "--prefix", "conform"]);
    expect(await again.exited).toBe(0);
    expect(again.output()).toMatch(/0 of 0 leftovers deleted/);
  });

  it("--from-report finds the run's prefix and target in its report.json, and deletes only that run's", async () => {
    const server = await startTarget();
    for (const label of ["conform-0z3fa0-web", "conform-1z9bb1-web"]) {
      const created = await fetch(`${server.baseUrl}/nodebalancers`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ region: "us-east", label }),
      });
      expect(created.status).toBe(200);
    }
    const report = join(mkdtempSync(join(tmpdir(), "conform-cleanup-")), "report.json");
    writeFileSync(
      report,
      JSON.stringify({
        runId: "20261123T021500Z-3fa0",
        labelPrefix: "conform-0z3fa0",
        target: { baseUrl: server.baseUrl, authUrl: null, embedded: false },
      }),
    );
    const cleaned = conform(["cleanup", "--from-report", report, "--token", token]);
    expect(await cleaned.exited, cleaned.output()).toBe(0);
    expect(cleaned.output()).toContain(`conform cleanup → ${server.baseUrl}  prefix conform-0z3fa0`);
    expect(cleaned.output()).toMatch(/1 of 1 leftover deleted/);
    expect([...server.state.nodeBalancers.values()].map((record) => record.label)).toEqual([
      "conform-1z9bb1-web",
    ]);
  });

  it.each([
    [["--from-report", "/nonexistent/report.json"], /cannot be read as JSON/],
    [
      ["--prefix", "conform", "--run", "x"],
      /give one of --prefix, --run, --from-report, not --prefix and --run/,
    ],
    [[], /say whose leftovers/],
  ])("refuses %j with exit 2, saying why", async (args, message) => {
    const refused = conform(["cleanup", "--base-url", "http://127.0.0.1:9/v4", "--token", token, ...args]);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toMatch(message);
  });

  it.each([
    [["--prefix", "c"], /too broad or malformed/],
    [["--prefix", "conform;x"], /too broad or malformed/],
    [["--prefix", "conform", "--token", "bad-token-123"], /refused the token \(401\)/],
  ])("refuses %j with exit 2", async (args, message) => {
    const server = await startTarget();
    const withToken = args.includes("--token") ? args : [...args, "--token", token];
    const refused = conform(["cleanup", "--base-url", server.baseUrl, ...withToken]);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toMatch(message);
  });

  it("an unreachable target is exit 2", async () => {
    const server = await startTarget();
    const url = server.baseUrl;
    await server.close();
    servers.splice(0);
    const refused = conform(["cleanup", "--base-url", url, "--token", token, "--prefix", "conform"]);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toMatch(/unreachable/);
  });
});

describe("label prefixes", () => {
  it.each([
    ["conform-ab12cd-balancer", "conform", true],
    ["conform", "conform", true],
    ["conform-ab12cd-balancer", "conform-ab12cd", true],
    ["conform-ab12cd-balancer", "conform-ab12cd-", true],
    ["conformance-prod", "conform", false],
    ["conform-ab12ce-balancer", "conform-ab12cd", false],
    ["my-conform-x", "conform", false],
    [undefined, "conform", false],
  ])("%s belongs to prefix %s: %s", (label, prefix, expected) => {
    expect(labelMatches(label, prefix)).toBe(expected);
  });
});
