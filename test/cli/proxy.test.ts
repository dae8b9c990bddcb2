import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { createReferenceServer } from "../../src/reference/server.ts";
import type { JsonReport } from "../../src/reporters/json.ts";
import { startProxy } from "../helpers/proxy-child.ts";

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(
  JSON.parse(readFileSync(join(import.meta.dirname, "../../src/reporters/report.schema.json"), "utf8")),
);

const root = mkdtempSync(join(tmpdir(), "conform-proxy-cli-"));

describe("conform proxy as a command", () => {
  it.each([
    [[] as string[], 0, "passed"],
    [["pages-off-by-one"], 1, "failed"],
  ])(
    "with faults %j, SIGTERM writes the reports and the HAR and exits %i",
    async (faults, exitCode, status) => {
      const server = await createReferenceServer({ http: true, faults });
      const name = faults.join("-") || "clean";
      const reportDir = join(root, name);
      const har = join(root, `${name}.har`);
      try {
        const proxy = startProxy(new URL(server.baseUrl).origin, reportDir, [
          "--reporter",
          "json",
          "--har",
          har,
        ]);
        const url = await proxy.url;
        const answer = await request(`${url}/v4/compute/types`, {
          headers: { authorization: `Bearer ${server.token}` },
        });
        expect(answer.statusCode).toBe(200);
        await answer.body.text();
        proxy.child.kill("SIGTERM");
        expect(await proxy.exited, proxy.output()).toBe(exitCode);
        const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8"));
        expect(report).toMatchObject({ status, exitCode });
        expect(JSON.parse(readFileSync(har, "utf8")).log.entries).toHaveLength(1);
      } finally {
        await server.close();
      }
    },
  );
});

/**
 * A target we did not write, deliberately wrong: every answer is a 200 whose list is not a list, so each exchange of
 * a list operation fails its schema.
 */
async function wrongTarget() {
  const server = createServer((incoming, outgoing) => {
    incoming.resume();
    outgoing.writeHead(200, { "content-type": "application/json" });
    outgoing.end(JSON.stringify({ data: "not a list", page: 1, pages: 1, results: 1 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits (bounded: 400 looks, the machine is shared) until `read` answers something. */
async function until<T>(read: () => T | undefined, what: string, output: () => string): Promise<T> {
  for (let look = 0; look < 400; look += 1) {
    const found = read();
    if (found !== undefined) return found;
    await sleep(50);
  }
  throw new Error(`never saw ${what}: ${output()}`);
}

/** report.json as it is now, or undefined while it is not there (a reader never sees half a file). */
function reportNow(path: string): JsonReport | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as JsonReport) : undefined;
}

describe("conform proxy --report-every", () => {
  it("writes snapshots of every report while it runs, then the final ones when stopped", async () => {
    const target = await wrongTarget();
    const reportDir = join(root, "every");
    try {
      const proxy = startProxy(target.origin, reportDir, [
        "--reporter",
        "console,json,junit,html,markdown",
        "--report-every",
        "0.005",
      ]);
      const url = await proxy.url;
      for (let sent = 0; sent < 3; sent += 1) {
        const answer = await request(`${url}/v4/regions`);
        expect(answer.statusCode).toBe(200);
        await answer.body.text();
      }
      const latest = join(reportDir, "latest");
      const snapshot = await until(
        () => {
          const report = reportNow(join(latest, "report.json"));
          return report?.snapshot && report.exchanges.total === 3 ? report : undefined;
        },
        "a snapshot of 3 exchanges",
        proxy.output,
      );
      expect(validate(snapshot), JSON.stringify(validate.errors)).toBe(true);
      expect(snapshot).toMatchObject({ status: "failed", complete: false, exitCode: null, finishedAt: null });
      expect(snapshot.snapshot?.sequence).toBeGreaterThanOrEqual(1);
      expect(snapshot.suites[0]?.cases[0]).toMatchObject({ status: "failed", exchangeCount: 3 });
      expect(snapshot.groups.length).toBeGreaterThan(0);
      for (const file of ["junit.xml", "report.html", "summary.md"])
        expect(readFileSync(join(latest, file), "utf8")).toMatch(/snapshot/i);
      // The console line may follow the files (its write and our read of the pipe come after them): wait for it.
      await until(
        () =>
          /conform: snapshot \d+ \(3 exchanges judged\), reports: \S+report\.json, /.test(proxy.output())
            ? true
            : undefined,
        "the snapshot's console line",
        proxy.output,
      );
      expect(proxy.output()).not.toContain("labels -*");

      proxy.child.kill("SIGINT");
      expect(await proxy.exited, proxy.output()).toBe(1);
      expect(proxy.output()).toContain(
        "conform: interrupted (SIGINT); writing the reports of what was judged",
      );
      const final = reportNow(join(latest, "report.json"));
      expect(validate(final), JSON.stringify(validate.errors)).toBe(true);
      expect(final).toMatchObject({ snapshot: null, status: "failed", complete: true, exitCode: 1 });
      expect(final?.exchanges.total).toBe(3);
      expect(readFileSync(join(latest, "summary.md"), "utf8")).not.toContain("Snapshot");
    } finally {
      await target.close();
    }
  });

  it("a snapshot that cannot be written is one line, and the proxy goes on", async () => {
    const target = await wrongTarget();
    const reportDir = join(root, "unwritable");
    try {
      const proxy = startProxy(target.origin, reportDir, ["--reporter", "json", "--report-every", "0.005"]);
      const url = await proxy.url;
      const runDir = await until(
        () => readdirSync(reportDir).find((name) => name !== "latest" && !name.startsWith(".")),
        "the run's report directory",
        proxy.output,
      );
      // A file where the run's directory was: no report can be written there (root ignores modes, not this).
      const moved = join(root, "unwritable-moved");
      renameSync(join(reportDir, runDir), moved);
      writeFileSync(join(reportDir, runDir), "in the way");
      await (await request(`${url}/v4/regions`)).body.text();
      await until(
        () => (/snapshot \d+ \(1 exchange judged\) not written: \S+/.test(proxy.output()) ? true : undefined),
        "the line of a snapshot not written",
        proxy.output,
      );
      rmSync(join(reportDir, runDir));
      renameSync(moved, join(reportDir, runDir));
      await (await request(`${url}/v4/regions`)).body.text();
      proxy.child.kill("SIGTERM");
      expect(await proxy.exited, proxy.output()).toBe(1);
      expect(reportNow(join(reportDir, runDir, "report.json"))).toMatchObject({
        snapshot: null,
        exitCode: 1,
        exchanges: { total: 2 },
      });
    } finally {
      await target.close();
    }
  });

  it("a proxy waiting for traffic says so in its snapshots, and why it judged nothing when it stops", async () => {
    const reportDir = join(root, "waiting");
    // Port 9 (discard) on loopback: nothing listens there, the connection is refused.
    const proxy = startProxy("http://127.0.0.1:9", reportDir, [
      "--reporter",
      "console,json,html,markdown",
      "--report-every",
      "0.005",
    ]);
    const url = await proxy.url;
    const latest = join(reportDir, "latest");
    const summary = await until(
      () =>
        reportNow(join(latest, "report.json"))?.snapshot
          ? readFileSync(join(latest, "summary.md"), "utf8")
          : undefined,
      "a snapshot",
      proxy.output,
    );
    expect(summary.split("\n")[0]).toMatch(/^### ⏳ conform snapshot: no traffic judged yet: 0 failed/);
    expect(readFileSync(join(latest, "report.html"), "utf8")).toContain("no traffic judged yet");
    expect((await request(`${url}/v4/regions`)).statusCode).toBe(502);
    proxy.child.kill("SIGTERM");
    expect(await proxy.exited, proxy.output()).toBe(143);
    expect(proxy.output()).toContain(
      "⚠ nothing judged: no exchange of an operation of the description; the target did not answer (ECONNREFUSED) 1×",
    );
  });

  it.each([
    ["0", "--report-every 0: give a number from 0.005 to 35791"],
    ["0.0001", "--report-every 0.0001: give a number from 0.005 to 35791"],
    ["1e3", "--report-every is not a number"],
  ])("refuses --report-every %s (exit 2)", async (value, message) => {
    const proxy = startProxy("http://127.0.0.1:9", join(root, "refused"), ["--report-every", value]);
    await proxy.url.catch(() => undefined);
    expect(await proxy.exited).toBe(2);
    expect(proxy.output()).toContain(message);
  });
});
