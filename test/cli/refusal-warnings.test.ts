/**
 * A clean embedded run ends without warnings, so `--warnings-as-errors` passes: "judged on refusals" is about the
 * run's own valid requests, not those meant to be refused (auth's missing, unknown and other-scope tokens,
 * versioning's unknown ids, lifecycles' reads after a delete, the generated requests that break a rule); nested
 * lists are seeded and read under a parent that holds items. A target that refuses the run's own reads still gets
 * "judged on refusals".
 */
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, request as forward } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import type { JsonReport } from "../../src/reporters/json.ts";
import { cli } from "../helpers/cli.ts";
import { bundledSpec } from "../helpers/reference.ts";

function reportOf(reportDir: string): JsonReport {
  return JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8")) as JsonReport;
}

describe("judged on refusals", () => {
  it("nor any other warning ends a clean embedded run: --warnings-as-errors exits 0", async () => {
    const reportDir = mkdtempSync(join(tmpdir(), "conform-refusals-"));
    const result = await cli([
      "run",
      "--seed",
      "1",
      "--warnings-as-errors",
      "--reporter",
      "json",
      "--report-dir",
      reportDir,
    ]);
    expect(reportOf(reportDir).warnings).toEqual([]);
    expect(result.code, result.out + result.err).toBe(0);
  });

  describe("against a target that refuses the run's own reads of a load balancer", () => {
    const token = "r".repeat(64);
    let reference: ReferenceServer;
    const wrong = createServer((incoming, answer) => {
      // The token's scopes do not reach single load balancers: every read of one is 403, valid or not.
      if (incoming.method === "GET" && /^\/v4\/nodebalancers\/\d+$/.test(incoming.url ?? "")) {
        answer.writeHead(403, { "content-type": "application/json", "x-spec-version": "4.176.0" });
        answer.end(JSON.stringify({ errors: [{ reason: "Unauthorized" }] }));
        return;
      }
      const target = new URL(reference.baseUrl);
      const out = forward(
        {
          host: target.hostname,
          port: target.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (back) => {
          answer.writeHead(back.statusCode ?? 502, back.headers);
          back.pipe(answer);
        },
      );
      incoming.pipe(out);
    });

    afterAll(async () => {
      wrong.closeAllConnections();
      wrong.close();
      await reference?.close();
    });

    it("says it, naming the operation", async () => {
      reference = await createReferenceServer({ spec: await bundledSpec(), http: true, token });
      wrong.listen(0, "127.0.0.1");
      await once(wrong, "listening");
      const { port } = wrong.address() as AddressInfo;
      const reportDir = mkdtempSync(join(tmpdir(), "conform-refusals-wrong-"));
      const result = await cli([
        "run",
        "--base-url",
        `http://127.0.0.1:${port}/v4`,
        "--token",
        token,
        "--allow-writes",
        "--suite",
        "lifecycles",
        "--seed",
        "1",
        "--reporter",
        "json",
        "--report-dir",
        reportDir,
      ]);
      expect(reportOf(reportDir).warnings, result.out + result.err).toContainEqual(
        expect.stringMatching(
          /^warning: judged on refusals: getNodeBalancer answered 401\/403\/404 to \d+ of \d+ requests/,
        ),
      );
    });
  });
});
