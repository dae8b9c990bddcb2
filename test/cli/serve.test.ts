import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Agent, request } from "undici";
import { describe, expect, it } from "vitest";

const bin = join(import.meta.dirname, "../../bin/conform.js");

/** Starts `conform serve` and resolves once its banner is printed. */
async function startServe(args: string[]) {
  const child = spawn(process.execPath, [bin, "serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in 20 s: ${output}`)), 20_000);
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("Ctrl-C stops it.")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(output)?.[1] ?? "";
  return { child, output, baseUrl: field("base URL"), token: field("token"), caFile: field("CA file") };
}

describe("conform serve", () => {
  it("prints what a person needs, answers with them over HTTPS, and stops on Ctrl-C with 130, its files gone", async () => {
    const token = "a".repeat(64);
    const served = await startServe(["--token", token, "--time-scale", "0.1"]);
    expect(served.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v4$/);
    expect(served.token).toBe(token);
    expect(served.output).toContain("curl --cacert");
    expect(served.output).toMatch(/login:\s+\S+ \/ \S+/);
    const agent = new Agent({ connect: { ca: readFileSync(served.caFile, "utf8") } });
    const answer = await request(`${served.baseUrl}/nodebalancers`, {
      headers: { authorization: `Bearer ${token}` },
      dispatcher: agent,
    });
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.json()).toMatchObject({ data: [], page: 1, results: 0 });
    await agent.close();
    expect(existsSync(served.caFile)).toBe(true);
    served.child.kill("SIGINT");
    const [code] = await once(served.child, "exit");
    expect(code).toBe(130);
    // The CA file and the run config holding the demo login: removed with their folder.
    expect(existsSync(dirname(served.caFile))).toBe(false);
  });

  it("prints the conform run command that works against it; without --ca a run says to give --ca or --insecure", async () => {
    const served = await startServe(["--time-scale", "0.1"]);
    let reportDir: string | undefined;
    try {
      const printed = /^ {2}(CONFORM_TOKEN=\S+ npm run conform -- run .*)$/m.exec(served.output)?.[1] ?? "";
      expect(printed).toBe(
        `CONFORM_TOKEN=${served.token} npm run conform -- run --base-url ${served.baseUrl} --ca ${served.caFile} --config ${join(dirname(served.caFile), "run-config.json")} --allow-writes --data-plane`,
      );
      // The config gives the seeded user, so the login flows run; only its owner may read it.
      const config = join(dirname(served.caFile), "run-config.json");
      expect(JSON.parse(readFileSync(config, "utf8"))).toMatchObject({
        "suite-options": { login: { username: expect.any(String), password: expect.any(String) } },
      });
      expect(statSync(config).mode & 0o077).toBe(0);
      // The printed command, one quick suite of it (the whole run waits out rate-limit windows for minutes).
      const [assignment, ...words] = printed.split(" ");
      const args = words.slice(words.indexOf("--") + 1);
      const env = { ...process.env, CONFORM_TOKEN: assignment!.split("=")[1] };
      reportDir = mkdtempSync(join(tmpdir(), "conform-serve-run-"));
      const ran = spawnSync(
        process.execPath,
        [
          bin,
          ...args,
          "--suite",
          "lists",
          "--suite",
          "auth",
          "--reporter",
          "json",
          "--report-dir",
          reportDir,
        ],
        { env, encoding: "utf8" },
      );
      expect(ran.status, ran.stdout + ran.stderr).toBe(0);
      // With the printed command nothing is skipped for want of a login.
      const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8")) as {
        suites: { cases: { status: string; skipReason?: string }[] }[];
      };
      const skipped = report.suites.flatMap((suite) => suite.cases).filter((one) => one.status === "skipped");
      expect(skipped.map((one) => one.skipReason).filter((reason) => /login/.test(reason ?? ""))).toEqual([]);
      const withoutCa = args.filter((arg, index) => arg !== "--ca" && args[index - 1] !== "--ca");
      const refused = spawnSync(
        process.execPath,
        [bin, ...withoutCa, "--suite", "lists", "--report-dir", reportDir],
        {
          env,
          encoding: "utf8",
        },
      );
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/not trusted: give --ca FILE .* or --insecure/);
      expect(refused.stderr).not.toContain("--use-system-ca");
    } finally {
      served.child.kill("SIGINT");
      await once(served.child, "exit");
      if (reportDir) rmSync(reportDir, { recursive: true, force: true });
    }
  });

  it("serves plain HTTP on request", async () => {
    const served = await startServe(["--http"]);
    expect(served.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/);
    expect(served.token).toMatch(/^[0-9a-f]{64}$/);
    const answer = await request(`${served.baseUrl}/regions`);
    expect(answer.statusCode).toBe(200);
    await answer.body.dump();
    const config = /--config (\S+)/.exec(served.output)?.[1] ?? "";
    expect(existsSync(config)).toBe(true);
    served.child.kill("SIGTERM");
    const [code] = await once(served.child, "exit");
    expect(code).toBe(143);
    expect(existsSync(dirname(config))).toBe(false);
  });

  it("serves a deliberately wrong server with --fault, and says so", async () => {
    const served = await startServe(["--http", "--fault", "spec-version-missing"]);
    expect(served.output).toContain("FAULTS:     spec-version-missing");
    const answer = await request(`${served.baseUrl}/regions`);
    expect(answer.headers["x-spec-version"]).toBeUndefined();
    await answer.body.dump();
    served.child.kill("SIGTERM");
    await once(served.child, "exit");
  });

  it.each([
    [["--fault", "no-such-fault"], /unknown fault no-such-fault/],
    [["--host", "0.0.0.0"], /loopback only/],
    [["--time-scale", "0"], /time-scale/],
    [["--token", "short"], /--token/],
  ])("refuses %j with exit 2", async (args, message) => {
    const child = spawn(process.execPath, [bin, "serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it("says in --help what --token accepts", () => {
    const help = spawnSync(process.execPath, [bin, "serve", "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(/--token .*at least 8 characters, no spaces/);
  });
});
