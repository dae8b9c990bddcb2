/**
 * A secret echoed back is judged before it is redacted (issue 36 point 3): a load balancer that shows a profile's
 * real ssl_key where the description allows only "<REDACTED>" or null fails body-matches-schema, naming the field,
 * and the key is in no output: console, report.json, report.html, summary.md, junit.xml, the HAR.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { cli } from "../helpers/cli.ts";
import { cliToken as token } from "../helpers/cli-runs.ts";
import { bundledSpec } from "../helpers/reference.ts";

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.allSettled(servers.splice(0).map((server) => server.close()));
});

describe("a target echoing ssl_key", () => {
  it("is caught by body-matches-schema, and the key is in no output", async () => {
    const server = await createReferenceServer({
      spec: await bundledSpec(),
      http: true,
      token,
      faults: ["ssl-key-echoed"],
    });
    servers.push(server);
    // The keys the suite uploads, as the server stores them (what the fault echoes back).
    const keys = new Set<string>();
    const certificates = new Set<string>();
    const configs = server.state.configs;
    const set = configs.set.bind(configs);
    configs.set = (id, record) => {
      if (typeof record.ssl_key === "string") keys.add(record.ssl_key);
      if (typeof record.ssl_cert === "string") certificates.add(record.ssl_cert);
      return set(id, record);
    };
    const dir = mkdtempSync(join(tmpdir(), "conform-secret-echo-"));
    const har = join(dir, "run.har");
    const result = await cli([
      "run",
      "--base-url",
      server.baseUrl,
      "--token",
      token,
      "--allow-writes",
      "--suite",
      "workflow-balancer",
      "--report-dir",
      join(dir, "reports"),
      "--har",
      har,
    ]);
    expect(result.code, result.err).toBe(1);
    expect(keys.size).toBeGreaterThan(0);
    const latest = join(dir, "reports", "latest");
    const report = JSON.parse(readFileSync(join(latest, "report.json"), "utf8"));
    const messages: string[] = report.suites.flatMap((suite: { cases: { results: unknown[] }[] }) =>
      suite.cases.flatMap((one) =>
        (one.results as { checkId: string; outcome: { status: string; message?: string } }[])
          .filter((r) => r.checkId === "body-matches-schema" && r.outcome.status === "failed")
          .map((r) => r.outcome.message ?? ""),
      ),
    );
    expect(messages.join("\n")).toMatch(/\/ssl_key: a secret echoed back .*its value is withheld/);
    const outputs = [
      result.out,
      result.err,
      readFileSync(har, "utf8"),
      ...readdirSync(latest).map((name) => readFileSync(join(latest, name), "utf8")),
    ];
    expect(readdirSync(latest).sort()).toEqual(["junit.xml", "report.html", "report.json", "summary.md"]);
    for (const output of outputs) {
      expect(output).not.toMatch(/PRIVATE KEY/);
      for (const key of keys) {
        // The key's base64 body, line by line, but for what its certificate shows too (an EC key holds its public
        // point): no part of it may be anywhere.
        const secretLines = key
          .split("\n")
          .filter((one) => one.length >= 32 && ![...certificates].some((cert) => cert.includes(one)));
        expect(secretLines.length).toBeGreaterThan(0);
        for (const line of secretLines) expect(output).not.toContain(line);
      }
    }
  }, 60_000);
});
