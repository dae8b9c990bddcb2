/**
 * `conform run --listen-driver` and `--listen-command`: mapped into `suiteOptions.listen` (over a config file's),
 * refused when they cannot work (exit 2), and end to end: the command driver makes nodes of the back-ends suite
 * listen on a loopback reference server (a template mapping 192.168.X.Y to its stand-in 127.168.X.Y), and the
 * none driver reports the listening steps as skipped, with the reason.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createReferenceServer } from "../../src/reference/server.ts";
import { listenFlagsProblem, withListenFlags } from "../../src/runner/listen-drivers/index.ts";
import { cli } from "../helpers/cli.ts";
import { bundledSpec } from "../helpers/reference.ts";

interface ReportCase {
  id: string;
  status: string;
  skipReason?: string;
}

function casesOf(reportDir: string): Record<string, ReportCase> {
  const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8")) as {
    suites: { cases: ReportCase[] }[];
  };
  return Object.fromEntries(report.suites.flatMap((suite) => suite.cases).map((entry) => [entry.id, entry]));
}

describe("listen flags", () => {
  it.each([
    [undefined, undefined, undefined, undefined],
    ["command", undefined, undefined, /needs --listen-command/],
    ["command", "  ", undefined, /needs --listen-command/],
    ["none", "ssh {address}", undefined, /only used by --listen-driver command/],
    ["reference", undefined, "https://api.example.net/v4", /only against the embedded or a loopback/],
    ["reference", undefined, "http://127.0.0.1:8080/v4", undefined],
    ["command", "ssh {address}", "https://api.example.net/v4", undefined],
    ["telepathy", undefined, undefined, /--listen-driver telepathy is unknown/],
  ])("--listen-driver %s --listen-command %j --base-url %s", (driver, command, baseUrl, problem) => {
    const found = listenFlagsProblem(driver, command, baseUrl);
    if (problem) expect(found).toMatch(problem);
    else expect(found).toBeUndefined();
  });

  it("flags are laid over the config file's listen options", () => {
    expect(
      withListenFlags({ listen: { port: 8080, driver: "none" }, other: 1 }, "command", "x {port}"),
    ).toEqual({
      listen: { port: 8080, driver: "command", command: "x {port}" },
      other: 1,
    });
    expect(withListenFlags({ listen: { port: 8080 } }, undefined, undefined)).toEqual({
      listen: { port: 8080 },
    });
    expect(withListenFlags({}, "none", undefined)).toEqual({ listen: { driver: "none" } });
  });

  it.each([
    [["--listen-driver", "command"], /needs --listen-command/],
    [["--listen-driver", "telepathy"], /telepathy/],
    [
      ["--listen-driver", "reference", "--base-url", "https://api.example.net/v4"],
      /loopback reference server/,
    ],
  ])("conform run %j exits 2", async (args, message) => {
    const result = await cli([
      "run",
      ...args,
      "--reporter",
      "json",
      "--report-dir",
      mkdtempSync(join(tmpdir(), "conform-")),
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });
});

describe("workflow 5 through the run command", () => {
  const token = "d".repeat(64);
  const servers: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it("the command driver makes nodes listen on a loopback reference server: every step passes", async () => {
    const server = await createReferenceServer({
      spec: await bundledSpec(),
      http: true,
      token,
      timeScale: 0.02,
    });
    servers.push(server);
    const dir = mkdtempSync(join(tmpdir(), "conform-listen-"));
    // Nodes listen on one port (listen.port, as on a real cloud); a high one, so no privileges are needed.
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const config = join(dir, "conform.json");
    writeFileSync(
      config,
      JSON.stringify({ "suite-options": { listen: { port }, workflows: { pollMs: 50 } } }),
    );
    // What `ssh root@{address} ...` does on a real cloud, done here on the address's loopback stand-in.
    const listenScript = `require('net').createServer((s) => s.end()).listen({port}, '{address}'.replace(/^192\\./, '127.'), () => console.log('listening on {label}'))`;
    const result = await cli([
      "run",
      "--config",
      config,
      "--base-url",
      server.baseUrl,
      "--token",
      token,
      "--allow-writes",
      "--suite",
      "workflow-back-ends",
      "--listen-driver",
      "command",
      "--listen-command",
      `${JSON.stringify(process.execPath)} -e "${listenScript}"`,
      "--reporter",
      "json",
      "--report-dir",
      dir,
    ]);
    const cases = casesOf(dir);
    expect(result.code, JSON.stringify(cases, null, 2)).toBe(0);
    for (const id of ["nodes-down", "nodes-up", "node-goes-down"]) expect(cases[id]?.status).toBe("passed");
    // A base URL without --data-plane: the load balancer itself is never connected to.
    for (const id of ["plane-none-up", "plane-both-nodes", "plane-skips-down-node"]) {
      expect(cases[id]).toMatchObject({
        status: "skipped",
        skipReason: expect.stringMatching(/--data-plane/),
      });
    }
    // The run deleted everything it made, listeners stopped.
    expect(server.state.nodes.size + server.state.nodeBalancers.size + server.state.instances.size).toBe(0);
  });

  it("with --listen-driver none, the listening steps are skipped with the reason", async () => {
    const dir = mkdtempSync(join(tmpdir(), "conform-listen-"));
    const result = await cli([
      "run",
      "--suite",
      "workflow-back-ends",
      "--listen-driver",
      "none",
      "--reporter",
      "json",
      "--report-dir",
      dir,
    ]);
    expect(result.code).toBe(0);
    const cases = casesOf(dir);
    expect(cases["nodes-down"]?.status).toBe("passed");
    expect(cases["nodes-up"]).toMatchObject({
      status: "skipped",
      skipReason: expect.stringMatching(/no listen driver/),
    });
    expect(cases["node-goes-down"]?.status).toBe("skipped");
  });
});
