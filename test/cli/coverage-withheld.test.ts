/**
 * A read-only run (a target conform did not start, no --allow-writes): a create naming no resource is requested
 * only with invalid bodies, on purpose, and every report format says why its valid column is empty, as
 * `conform spec --plan` says before the run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer } from "../../src/reference/server.ts";
import type { JsonOperationCoverage, JsonReport } from "../../src/reporters/json.ts";
import { mergeCoverage } from "../../src/reporters/merge-reports.ts";
import { embeddedRateLimits } from "../../src/runner/target.ts";
import { cli } from "../helpers/cli.ts";
import { bundledSpec } from "../helpers/reference.ts";

const server = await createReferenceServer({ spec: await bundledSpec(), ...embeddedRateLimits });
const dir = mkdtempSync(join(tmpdir(), "conform-withheld-"));
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The words every format says (pinned here, so the test holds on its own). */
const writesWithheld =
  "writes need --allow-writes: a write naming no resource gets only invalid requests without them";
const unescapeMarkdown = (text: string) => text.replace(/\\([\\`*_{}[\]()#+\-.!|~>])/g, "$1");
/** The list and the create of load balancers: the create names no resource. */
const selection = ["--path-pattern", "/nodebalancers"];

describe("a create's valid request withheld in a read-only run", () => {
  let report: JsonReport;
  let console: string;
  const row = (id: string) => report.coverage.byOperation.find((one) => one.operationId === id);

  beforeAll(async () => {
    const caFile = join(dir, "ca.pem");
    writeFileSync(caFile, server.certificatePem!);
    const result = await cli([
      "run",
      ...[
        "--base-url",
        server.baseUrl,
        "--auth-url",
        server.authUrl,
        "--token",
        server.token,
        "--ca",
        caFile,
      ],
      ...["--suite", "operations", ...selection, "--seed", "1"],
      ...["--reporter", "console,json,html,markdown", "--report-dir", dir],
    ]);
    expect(result.code, result.out + result.err).toBe(0);
    console = result.out;
    report = JSON.parse(readFileSync(join(dir, "latest", "report.json"), "utf8")) as JsonReport;
  }, 60_000);

  it("report.json: the create's row says why, the list's does not", () => {
    expect(row("createNodeBalancer")).toMatchObject({
      valid: { sent: 0, accepted: 0 },
      validWithheld: writesWithheld,
    });
    expect(row("createNodeBalancer")?.invalid?.sent).toBeGreaterThan(0);
    expect(row("getNodeBalancers")?.valid?.sent).toBeGreaterThan(0);
    expect(row("getNodeBalancers")?.validWithheld).toBeUndefined();
  });

  it("console, Markdown and HTML say it in the create's row", () => {
    const line = console.split("\n").find((one) => one.includes("  createNodeBalancer  "));
    expect(line).toContain(`valid withheld: ${writesWithheld}`);
    const markdown = unescapeMarkdown(readFileSync(join(dir, "latest", "summary.md"), "utf8"));
    const cells = markdown
      .split("\n")
      .find((one) => one.startsWith("| `createNodeBalancer` |"))
      ?.split(" | ");
    expect(cells?.[4]).toBe(`withheld: ${writesWithheld}`);
    const html = readFileSync(join(dir, "latest", "report.html"), "utf8");
    const tr = html.split('data-operation="createNodeBalancer"')[1]?.split("</tr>")[0];
    expect(tr).toContain(`<td class="num valid">withheld: ${writesWithheld}</td>`);
  });

  it.each([
    [[], `requested; valid request withheld: ${writesWithheld}`],
    [["--allow-writes"], "requested"],
  ])("conform spec --plan %j says it before the run", async (writes, expected) => {
    const result = await cli(["spec", "--plan", ...selection, ...writes]);
    const line = result.out.split("\n").find((one) => one.includes("  createNodeBalancer  "));
    expect(line?.endsWith(`  createNodeBalancer  ${expected}`), line).toBe(true);
  });
});

describe("merge-reports: a withheld valid request", () => {
  const shard = (valid: number, withheld: boolean): JsonReport["coverage"] =>
    ({
      byOperation: [
        {
          operationId: "createNodeBalancer",
          method: "POST",
          path: "/nodebalancers",
          statuses: [400],
          requests: 2,
          valid: { sent: valid, accepted: valid },
          invalid: { sent: 2 - valid, refused: 2 - valid },
          ...(withheld ? { validWithheld: writesWithheld } : {}),
        } satisfies JsonOperationCoverage,
      ],
    }) as unknown as JsonReport["coverage"];

  it.each([
    [
      "withheld in one shard, no valid request in any: said",
      [shard(0, true), shard(0, false)],
      writesWithheld,
    ],
    ["a valid request in another shard: not said", [shard(0, true), shard(1, false)], undefined],
  ])("%s", (_name, shards, expected) => {
    expect(mergeCoverage(shards)[0]?.validWithheld).toBe(expected);
  });
});
