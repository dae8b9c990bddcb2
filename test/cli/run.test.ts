import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { colorFromEnv } from "../../src/cli/run-with-reporters.ts";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { cli } from "../helpers/cli.ts";

const fixtures = join(import.meta.dirname, "../fixtures/suites");
const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../src/reporters/report.schema.json"), "utf8"),
);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe("conform run", () => {
  it("runs a suite against the embedded server and writes a report that matches its schema", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), "conform-run-"));
    const result = await cli([
      "run",
      "--suite",
      "catalogue",
      "--seed",
      "5",
      "--report-dir",
      reportDir,
      "--reporter",
      "json,junit",
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8"));
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const valid = ajv.validate(schema, report);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(report.run?.seed ?? report.seed).toBe(5);
    expect(readFileSync(join(reportDir, "latest", "junit.xml"), "utf8")).toContain("<testsuites");
    // The report's label prefix, and the last line saying where the reports went.
    expect(report.labelPrefix).toBe(
      `conform-${report.runId
        .replace(/[^a-z0-9]/gi, "")
        .slice(-6)
        .toLowerCase()}`,
    );
    expect(result.out.trimEnd().split("\n").at(-1)).toBe(
      `reports: ${join(reportDir, report.runId, "report.json")}, ${join(reportDir, report.runId, "junit.xml")} (also in ${join(reportDir, "latest")}/)`,
    );
  });

  it("says in one line that an https URL on a plain-HTTP port does not speak TLS (use http://)", async () => {
    const plain = createServer((_request, response) => response.end("plain"));
    plain.listen(0, "127.0.0.1");
    await once(plain, "listening");
    try {
      const { port } = plain.address() as AddressInfo;
      const reportDir = mkdtempSync(join(tmpdir(), "conform-run-"));
      const result = await cli([
        "run",
        "--base-url",
        `https://127.0.0.1:${port}/v4`,
        "--token",
        "t0ken-for-a-test",
        "--reporter",
        "json",
        "--report-dir",
        reportDir,
      ]);
      expect(result.code).toBe(2);
      expect(result.err.trimEnd().split("\n")).toEqual([
        `conform: target https://127.0.0.1:${port}/v4 is unreachable: the target does not speak TLS there (is it plain HTTP? then use http:// in the URL) [TARGET_UNREACHABLE]`,
      ]);
    } finally {
      plain.close();
    }
  });

  it.each([
    [["run", "--rate-limit", "fast"], /--rate-limit fast/],
    [["run", "--concurrency", "0"], /--concurrency 0: give an integer of at least 1/],
    [["run", "--token", "x", "--token-env", "Y"], /not both/],
    [["run", "--suite", "no-such-suite", "--reporter", "json"], /unknown suite no-such-suite/],
    [["run", "--reporter", "pdf"], /unknown reporter pdf/],
    [["run", "--base-url", "http://127.0.0.1:9/v4", "--reporter", "json"], /unreachable/],
    [["run", "--config", "/nonexistent/conform.yaml"], /cannot be read/],
    [["run", "--shard", "3/2"], /--shard 3\/2: give i\/n/],
    [["run", "--shard", "half"], /--shard half: give i\/n/],
    [["run", "--durations", "report.json"], /--durations balances shards: give it with --shard/],
    [
      ["run", "--baseline", "/nonexistent/report.json"],
      /--baseline \/nonexistent\/report.json: cannot be read \(ENOENT\)/,
    ],
    [["run", "--suite", "catalogue", "--shard", "2/2", "--reporter", "json"], /shard 2\/2 holds no suite/],
  ])("exits 2 for %j with a clear message", async (args, message) => {
    const reportDir = mkdtempSync(join(tmpdir(), "conform-run-"));
    const result = await cli([...args, "--report-dir", reportDir]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.err).not.toMatch(/unexpected error|\n\s+at /);
  });

  it("reads options from a YAML config file, with flags winning", async () => {
    const dir = mkdtempSync(join(tmpdir(), "conform-config-"));
    const configFile = join(dir, "conform.yaml");
    writeFileSync(configFile, `suite: [no-such-suite]\nreporter: [json]\nreport-dir: ${dir}\n`);
    expect((await cli(["run", "--config", configFile])).err).toMatch(/unknown suite no-such-suite/);
    expect((await cli(["run", "--config", configFile, "--suite", "catalogue"])).code).toBe(0);
  });

  it.each([
    [{ NO_COLOR: "1" }, { color: false }],
    [{ FORCE_COLOR: "1" }, { color: true }],
    [{ FORCE_COLOR: "0" }, { color: false }],
    [{}, {}],
  ])("colour from %j", (env, expected) => {
    expect(colorFromEnv(env)).toEqual(expected);
  });
});

describe("conform --version", () => {
  it("prints the package's version", async () => {
    const result = await cli(["--version"]);
    expect(result.code).toBe(0);
    expect(result.out.trim()).toBe(
      JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")).version,
    );
  });
});

describe("conform run against a real target, with secrets", () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await createReferenceServer({ http: true, token: `${"c0ffee".repeat(10)}beef` });
  });
  afterAll(() => server.close());

  it("never writes the token to any report file, and cleans up what it created", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), "conform-secret-"));
    process.env.CONFORM_TEST_TOKEN = server.token;
    const result = await cli([
      "run",
      "--base-url",
      server.baseUrl,
      "--token-env",
      "CONFORM_TEST_TOKEN",
      "--suite-path",
      fixtures,
      "--suite",
      "writes-probe",
      "--suite",
      "catalogue",
      "--allow-writes",
      "--report-dir",
      reportDir,
    ]);
    delete process.env.CONFORM_TEST_TOKEN;
    expect(result.code).toBe(0);
    expect(result.out + result.err).not.toContain(server.token);
    const files = filesUnder(reportDir);
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const file of files) expect(readFileSync(file, "utf8")).not.toContain(server.token);
    expect(server.state.nodeBalancers.size).toBe(0);
  });

  it("refuses a base URL with the wrong path (exit 2), saying what it tried and what came back", async () => {
    const result = await cli([
      "run",
      "--base-url",
      server.baseUrl.replace(/\/v4$/, "/v3"),
      "--token",
      server.token,
      "--reporter",
      "json",
      "--report-dir",
      mkdtempSync(join(tmpdir(), "conform-v3-")),
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /does not answer like this API: GET http:\/\/127\.0\.0\.1:\d+\/v3\/regions .* answered 404 .*\[TARGET_NOT_THIS_API\]/,
    );
    // Nothing ran, nothing was written: no line names report files.
    expect(result.out).not.toMatch(/reports: /);
  });

  it("refuses a writing suite without --allow-writes (exit 2)", async () => {
    const result = await cli([
      "run",
      "--base-url",
      server.baseUrl,
      "--token",
      server.token,
      "--suite-path",
      fixtures,
      "--suite",
      "writes-probe",
      "--reporter",
      "json",
      "--report-dir",
      mkdtempSync(join(tmpdir(), "conform-refuse-")),
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--allow-writes/);
  });
});
