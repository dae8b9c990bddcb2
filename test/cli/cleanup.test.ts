/**
 * Leftovers and `conform cleanup`: a run killed (SIGKILL) in the middle of workflow 3 leaves resources behind,
 * which `conform cleanup --prefix` lists (dry run) and then deletes, children first, leaving everything else
 * alone (a run interrupted with SIGINT or SIGTERM cleans up itself: `interruption.test.ts`). The target is a
 * reference server this test starts (plain HTTP, faster clock), so its state can be inspected directly.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { readReportTarget } from "../../src/cli/commands/cleanup.ts";
import { labelMatches } from "../../src/runner/leftovers.ts";
import { cli } from "../helpers/cli.ts";
import { leftovers, nothingLeft as nothing, cliToken as token, useCliRuns } from "../helpers/cli-runs.ts";

const { startTarget, conform, runBackEnds, untilInstanceExists } = useCliRuns();

/** A load balancer made on the target as someone else (or an earlier run) would have made it. */
async function createBalancer(server: { baseUrl: string }, label: string): Promise<void> {
  const created = await fetch(`${server.baseUrl}/nodebalancers`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ region: "us-east", label }),
  });
  expect(created.status).toBe(200);
}

describe("conform cleanup", () => {
  it("after a run killed in the middle of workflow 3, lists the leftovers, deletes them, and nothing else", async () => {
    const server = await startTarget();
    // Someone else's resources, which must survive.
    await createBalancer(server, "production-web");

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
    expect(dry.output()).toMatch(
      /would delete nodebalancers\/configs \d+ \(conform-\w+-web\) of nodebalancers \d+/,
    );
    expect(dry.output()).toMatch(/would delete nodebalancers \d+ \(conform-\w+-backends\)/);
    expect(dry.output()).toMatch(/would delete compute\/instances \d+ \(conform-\w+-node-a\)/);
    expect(dry.output()).toMatch(
      /kept profile\/tokens \d+ conform-reference: it is the token this cleanup uses/,
    );
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
    expect(byRun.output()).toMatch(/would delete nodebalancers \d+ \(conform-\w+-backends\)/);

    const real = conform(["cleanup", "--base-url", server.baseUrl, "--token", token, "--prefix", printed!]);
    expect(await real.exited, real.output()).toBe(0);
    const lines = real.output().split("\n");
    const order = [
      "deleted nodebalancers/configs ",
      "deleted nodebalancers ",
      "deleted compute/instances ",
    ].map((start) => lines.findIndex((line) => line.trim().startsWith(start)));
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
    for (const label of ["conform-0z3fa0-web", "conform-1z9bb1-web"]) await createBalancer(server, label);
    const report = join(mkdtempSync(join(tmpdir(), "conform-cleanup-")), "report.json");
    writeFileSync(
      report,
      JSON.stringify({
        runId: "20261123T021500Z-3fa0",
        labelPrefix: "conform-0z3fa0",
        target: { baseUrl: server.baseUrl, authUrl: null, embedded: false },
      }),
    );
    const cleaned = conform([
      "cleanup",
      "--from-report",
      report,
      "--base-url",
      server.baseUrl,
      "--token",
      token,
    ]);
    expect(await cleaned.exited, cleaned.output()).toBe(0);
    expect(cleaned.output()).toContain(`conform cleanup → ${server.baseUrl}  prefix conform-0z3fa0`);
    expect(cleaned.output()).toMatch(/1 of 1 leftover deleted/);
    expect([...server.state.nodeBalancers.values()].map((record) => record.label)).toEqual([
      "conform-1z9bb1-web",
    ]);
  });

  it("a crafted report can neither aim the token at another host nor widen the prefix (exit 2, nothing sent)", async () => {
    const server = await startTarget();
    await createBalancer(server, "web-prod-1");
    // The "other host": another loopback listener that must hear nothing.
    const heard: string[] = [];
    const other = createServer((request, response) => {
      heard.push(`${request.method} ${request.url} ${request.headers.authorization ?? ""}`);
      response.end("{}");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/v4`;
    try {
      const dir = mkdtempSync(join(tmpdir(), "conform-crafted-"));
      const write = (name: string, report: object) => {
        writeFileSync(join(dir, name), JSON.stringify(report));
        return join(dir, name);
      };
      const elsewhere = write("elsewhere.json", {
        runId: "20261123T021500Z-3fa0",
        labelPrefix: "conform-0z3fa0",
        target: { baseUrl: otherUrl, embedded: false },
      });
      const broad = write("broad.json", {
        runId: "x",
        labelPrefix: "web",
        target: { baseUrl: server.baseUrl, embedded: false },
      });
      const broadShard = write("broad-shard.json", {
        runId: "20261123T021500Z-3fa0",
        labelPrefix: "conform-0z3fa0",
        target: { baseUrl: server.baseUrl, embedded: false },
        mergedFrom: [{ runId: "r", shard: 1, labelPrefix: "web" }],
      });
      for (const [args, message] of [
        [["--from-report", elsewhere], /give --base-url .* to confirm it/],
        [["--from-report", elsewhere, "--base-url", server.baseUrl], /is a run against .*nothing was sent/],
        [["--from-report", broad, "--base-url", server.baseUrl], /labelPrefix "web" is not one run's prefix/],
        [
          ["--from-report", broadShard, "--base-url", server.baseUrl],
          /mergedFrom\[0\]\.labelPrefix "web" is not one run's prefix/,
        ],
      ] as const) {
        const refused = conform(["cleanup", ...args, "--token", token]);
        expect(await refused.exited, refused.output()).toBe(2);
        expect(refused.output()).toMatch(message);
        expect(refused.output()).not.toContain(token);
      }
      expect(heard).toEqual([]);
      expect([...server.state.nodeBalancers.values()].map((record) => record.label)).toEqual(["web-prod-1"]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it.each([
    [["--from-report", "/nonexistent/report.json"], /cannot be read as JSON/],
    [
      ["--prefix", "conform", "--run", "x"],
      /give one of --prefix, --run, --from-report, not --prefix and --run/,
    ],
    [[], /say whose leftovers/],
    [["--prefix", ""], /--prefix is empty: give a label prefix \(conform: every run's leftovers/],
    [["--prefix", " "], /--prefix is empty/],
    [["--run", ""], /--run "" names no run \(no letter or digit\) and would match every run's leftovers/],
    [["--run", "..."], /--run "\.\.\." names no run/],
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

  it("without any token, says no token was given (exit 2) before asking the target", async () => {
    vi.stubEnv("CONFORM_TOKEN", "");
    try {
      // Port 9 (discard) answers nothing: the message cannot come from the target.
      const refused = await cli(["cleanup", "--base-url", "http://127.0.0.1:9/v4", "--prefix", "conform"]);
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/^conform: no token given: set CONFORM_TOKEN, or give --token-env VAR/);
      expect(refused.out).toBe("");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("an unreachable target is exit 2", async () => {
    const server = await startTarget();
    const url = server.baseUrl;
    await server.close();
    const refused = conform(["cleanup", "--base-url", url, "--token", token, "--prefix", "conform"]);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toMatch(/unreachable/);
  });
});

describe("--from-report: whose leftovers a report names", () => {
  const target = { baseUrl: "https://api.example.net/v4", embedded: false };
  it.each([
    ["a run", { runId: "20261124T064328Z-f80d", labelPrefix: "conform-8zf80d", target }, ["conform-8zf80d"]],
    [
      "a run before 1.1 (derived from its run id)",
      { runId: "20261124T064328Z-f80d", target },
      ["conform-8zf80d"],
    ],
    [
      "a merged run: every shard's",
      {
        runId: "20261124T070000Z-0001",
        labelPrefix: "conform-8z0001",
        target,
        mergedFrom: [
          { runId: "20261124T064328Z-f80d", shard: 1, labelPrefix: "conform-8zf80d" },
          { runId: "20261124T064329Z-a1b2", shard: 2, labelPrefix: "conform-8za1b2" },
        ],
      },
      ["conform-8zf80d", "conform-8za1b2"],
    ],
    [
      "a merged run of 2.1 (shards without labelPrefix: derived from their run ids)",
      {
        runId: "20261124T070000Z-0001",
        labelPrefix: "conform-8zf80d",
        target,
        mergedFrom: [
          { runId: "20261124T064328Z-f80d", shard: 1 },
          { runId: "20261124T064328Z-a1b2", shard: 2 },
        ],
      },
      ["conform-8zf80d", "conform-8za1b2"],
    ],
  ])("%s", (_name, report, prefixes) => {
    const path = join(mkdtempSync(join(tmpdir(), "conform-from-report-")), "report.json");
    writeFileSync(path, JSON.stringify(report));
    expect(readReportTarget(path)).toEqual({ prefixes, baseUrl: target.baseUrl, embedded: false });
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
