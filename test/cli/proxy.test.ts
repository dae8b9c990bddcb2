import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { createReferenceServer } from "../../src/reference/server.ts";
import { conformBin } from "../helpers/cli-runs.ts";

const root = mkdtempSync(join(tmpdir(), "conform-proxy-cli-"));

/** Starts `conform proxy` in a child process; resolves with its URL once it listens. */
function startProxy(target: string, reportDir: string, har: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      conformBin,
      "proxy",
      "--target",
      target,
      "--port",
      "0",
      "--reporter",
      "json",
      "--report-dir",
      reportDir,
      "--har",
      har,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (\S+),/.exec(output);
      if (found?.[1]) resolve(found[1]);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    exited.then(() => reject(new Error(`the proxy exited: ${output}`)));
  });
  return { child, url, exited, output: () => output };
}

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
        const proxy = startProxy(new URL(server.baseUrl).origin, reportDir, har);
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
