/**
 * `conform verify` on recordings of the real service made by its Go SDK (test/fixtures/go-sdk-cassettes: brand
 * word renamed to `compute`, times and headers as recorded, filtered and sanitized by the SDK's recorder): the clean
 * set raises no failure and is really judged; each cassette of the differences set fails exactly where the real
 * service differs from our description. Also the converter's renaming.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CaseFinished, RunEvent } from "../../src/core/events.ts";
import { type RunConfig, runConfigDefaults } from "../../src/runner/config.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { verifyRecordings } from "../../src/traffic/verify.ts";
import { renameBrand, renameInJson, renameInUrl } from "../fixtures/go-sdk-cassettes/convert.ts";

const fixtures = join(import.meta.dirname, "../fixtures/go-sdk-cassettes");
const config: RunConfig = { ...runConfigDefaults, specPath: bundledSpecPath, reporters: [] };

async function verify(files: string[]) {
  const events: RunEvent[] = [];
  const finished = await verifyRecordings(config, {
    runId: "20261124T000000Z-go-sdk",
    listeners: [(event) => void events.push(event)],
    signal: new AbortController().signal,
    toolVersion: "test",
    files,
  });
  const cases = events.filter((event): event is CaseFinished => event.type === "case-finished");
  const failures = cases.flatMap((done) =>
    done.results
      .filter((result) => result.outcome.status === "failed")
      .map((result) => {
        const exchange = done.exchanges.find((kept) => kept.id === result.exchangeId);
        const text = result.outcome.status === "failed" ? result.outcome.message : "";
        return { checkId: result.checkId, operationId: exchange?.operationId, message: result.outcome, text };
      }),
  );
  const skips = cases.flatMap((done) =>
    done.results.flatMap((result) =>
      result.outcome.status === "skipped" ? [`${result.checkId}: ${result.outcome.reason}`] : [],
    ),
  );
  const warnings = events.flatMap((event) => (event.type === "warning" ? [event.message] : []));
  return { finished, cases, failures, skips, warnings };
}

const yamlIn = (dir: string) =>
  readdirSync(join(fixtures, dir))
    .filter((name) => name.endsWith(".yaml"))
    .map((name) => join(fixtures, dir, name));

describe("conform verify on the real service's Go SDK cassettes", () => {
  it("raises no failure on the clean set, and judges it", async () => {
    const files = yamlIn("clean");
    expect(files.length).toBeGreaterThanOrEqual(30);
    const { finished, cases, failures, skips, warnings } = await verify(files);
    expect(failures).toEqual([]);
    expect(finished.exitCode).toBe(0);
    // Exchanges of operations of the description (the others are counted in warnings).
    expect(finished.exchanges).toBeGreaterThanOrEqual(140);
    // Judged, not skipped: every file but the one whose only operation the description lacks passes checks.
    const passedChecks = cases.reduce((sum, done) => sum + done.passedChecks, 0);
    expect(passedChecks).toBeGreaterThanOrEqual(1100);
    expect(cases.filter((done) => done.status === "passed").length).toBeGreaterThanOrEqual(files.length - 1);
    // Operations the description lacks are counted and listed, not failed.
    expect(warnings.some((warning) => /matched no operation of the description/.test(warning))).toBe(true);
    // What the recorder filtered out is skipped with the reason, not failed.
    expect(skips.some((skip) => skip.startsWith("spec-version-header: the recording kept"))).toBe(true);
    expect(skips.some((skip) => skip.startsWith("rate-limit-headers: the recording kept"))).toBe(false);
    expect(skips.some((skip) => /192\.0\.2\.0.*sanitizer/.test(skip))).toBe(true);
  });

  // Where the real service differs from specs/cloud-api-v4.yaml (README.md beside the cassettes says how): each
  // failure by check and operation, with what its message names. A request the description refuses that the
  // service took is the client's traffic judged by the description (invalid-request-refused).
  it.each([
    ["TestIPAddresses_List.yaml", [["observed-filter", "getIPs", /Cannot filter on reserved/]]],
    [
      "TestNodeBalancerConfig_UDP.yaml",
      [
        ["body-matches-schema", "createNodeBalancerConfig", /\/protocol/],
        ["invalid-request-refused", "createNodeBalancerConfig", /body \/protocol: violate-enum/],
      ],
    ],
    [
      "TestIPAddress_Instance_Allocate.yaml",
      [
        ["observed-error-field", "allocateIP", /field compute_id/],
        [
          "invalid-request-refused",
          "allocateIP",
          /body \/compute_id: remove-required-property .* accepted it \(200\)/,
        ],
      ],
    ],
  ] as const)("%s fails only where the service differs from the description", async (file, expected) => {
    const { finished, failures } = await verify([join(fixtures, "differences", file)]);
    expect(finished.exitCode).toBe(1);
    expect(new Set(failures.map((failure) => `${failure.checkId} ${failure.operationId}`))).toEqual(
      new Set(expected.map(([checkId, operationId]) => `${checkId} ${operationId}`)),
    );
    for (const failure of failures) {
      const [, , message] = expected.find(([checkId]) => checkId === failure.checkId)!;
      expect(failure.text).toMatch(message);
    }
  });

  // The points facts.md corrected (issue 31): each was a failure on these recordings before.
  it("raises none of the failures the corrected facts removed, on every cassette", async () => {
    const { failures } = await verify([...yamlIn("clean"), ...yamlIn("differences")]);
    const corrected = [
      /Cannot order by created/, // the event feed is polled by created
      /Cannot filter on compute_id/, // the addresses' lenient filter
      /fault is field type names no field/, // ipv6 refused with a reason and no field
      /X-Accepted-OAuth-Scopes does not name the scope getProfile needs/, // the profile takes any token
    ];
    const messages = failures.map((failure) => failure.text);
    for (const pattern of corrected) expect(messages.filter((text) => pattern.test(text))).toEqual([]);
    // The event cassettes poll the feed ordered by created and are judged by the filter oracle.
    const { cases } = await verify([join(fixtures, "clean", "TestEventPoller_InstancePower.yaml")]);
    expect(cases[0]?.status).toBe("passed");
  });

  it("lists each operation the description lacks once, with its repeats", async () => {
    const { warnings, cases } = await verify([
      join(fixtures, "differences", "TestIPAddress_Instance_Allocate.yaml"),
    ]);
    const line =
      "4 exchanges matched no operation of the description and were not judged (3 distinct): POST /v4beta/compute/instances/82378688/configs, DELETE /v4beta/networking/reserved/ips/192.0.2.0, DELETE /v4beta/compute/instances/82378688/ips/192.0.2.0 ×2";
    expect(warnings).toContain(`verify:TestIPAddress_Instance_Allocate.yaml: ${line}`);
    expect(cases[0]?.logs).toContain(line.replace(" and were not judged", ""));
  });
});

describe("the cassette converter renames the brand word as the description does", () => {
  it.each([
    ["linode", "compute"],
    ["linodes", "computes"],
    ["linode_id", "compute_id"],
    ["linode_boot", "compute_boot"],
    ["maximum_linodes_per_pg", "maximum_computes_per_pg"],
    ["linode/debian12", "compute/debian12"],
    ["/v4/linode/instances/123", "/v4/compute/instances/123"],
    ["linodes:read_only nodebalancers:read_write", "computes:read_only nodebalancers:read_write"],
    // Data that merely contains the word stays.
    ["linodego-test-1", "linodego-test-1"],
    ["linode82373877", "linode82373877"],
    ["nb-0-0-0-0.ip.linodeusercontent.com", "nb-0-0-0-0.ip.linodeusercontent.com"],
    ["Linodes", "Linodes"],
    ["2018-01-02T03:04:05", "2018-01-02T03:04:05"],
  ])("%s -> %s", (value, renamed) => {
    expect(renameBrand(value)).toBe(renamed);
  });

  it("renames keys and values of a JSON text, keeping its other bytes", () => {
    expect(renameInJson('{"linode_id": 1, "type": "linode", "label": "linodego"}')).toBe(
      '{"compute_id": 1, "type": "compute", "label": "linodego"}',
    );
  });

  it("renames path segments of a URL, not its host or query", () => {
    expect(renameInUrl("https://api.linode.com/v4beta/linode/instances/1/ips?linode=1")).toBe(
      "https://api.linode.com/v4beta/compute/instances/1/ips?linode=1",
    );
  });
});
