/**
 * A falsified X-Filter property carries the exchange that failed: against a reference server started here with
 * `filter-neq-ignored` (plain HTTP, so the lines work as printed without a CA), the failure points at the filtered
 * request (its `x-filter` header), names the ids expected, missing and extra, its printed curl line run by curl
 * answers the defective list, and its printed replay line re-runs that one property to the same counterexample.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import { failedChecks, failureLines } from "../../src/reporters/_internals/failure-text.ts";
import { embeddedRateLimits } from "../../src/runner/target.ts";
import { cli } from "../helpers/cli.ts";
import { type ReferenceHarness, startReference } from "../helpers/reference.ts";
import { runSuites, type SuiteRun } from "../helpers/run-suites.ts";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/**
 * Runs a printed command line through bash with the token in CONFORM_TOKEN: what it prints on stdout. Never
 * synchronously: the server answering it runs in this process.
 */
async function bash(line: string, token: string): Promise<string> {
  const { stdout } = await promisify(execFile)("bash", ["--norc", "--noprofile", "-c", line], {
    env: { ...env, CONFORM_TOKEN: token },
    timeout: 60_000,
  });
  return stdout;
}

/** What bash makes of a command line's words (as the user's shell would split the printed line). */
async function shellWords(line: string): Promise<string[]> {
  const out = await bash(`args() { printf '%s\\0' "$@"; }; args ${line}`, "");
  return out.split("\0").slice(0, -1);
}

const cases = (run: SuiteRun) =>
  run.events.filter((event): event is CaseFinished => event.type === "case-finished");

let faulty: ReferenceHarness;
let run: SuiteRun;
let semantics: CaseFinished;
const seed = 3;

beforeAll(async () => {
  // The embedded run's rate limits (the run's own token never paced), so the run is not held by pacing.
  faulty = await startReference({ http: true, faults: ["filter-neq-ignored"], ...embeddedRateLimits });
  // A few load balancers to filter (the suite seeds only the embedded server).
  for (const [index, throttle] of [0, 5, 5, 20, 10].entries()) {
    const created = await faulty.call("POST", "/nodebalancers", {
      json: { region: "us-east", label: `fx-${index}`, client_conn_throttle: throttle },
    });
    expect(created.status).toBe(200);
  }
  run = await runSuites({
    baseUrl: faulty.server.baseUrl,
    token: faulty.server.token,
    suites: ["filters"],
    seed,
  });
  semantics = cases(run).find((event) => event.caseId === "semantics")!;
}, 120_000);

afterAll(() => {
  delete process.env.CONFORM_TOKEN;
});

describe("a falsified filter property carries the exchange that failed", () => {
  it("points at the filtered request, with the ids expected, missing and extra", () => {
    expect(semantics.status).toBe("failed");
    // The run's own observed-filter check judges the same answer too: the property's assertion is the one here.
    const check = failedChecks(semantics).find((failure) => failure.result.checkId.startsWith("assert:"));
    // Named by its root cause (the operators at fault), whichever property found it.
    expect(check?.result.checkId).toMatch(/^assert:getNodeBalancers: X-Filter answers wrongly with \+/);
    const request = check!.exchange!.request;
    const shrunk = semantics.reproduction?.counterexample as { filter: { value: object }; pageSize: number };
    expect(JSON.parse(request.headers["x-filter"]!)).toEqual(shrunk.filter.value);
    expect(new URL(request.url).searchParams.get("page_size")).toBe(String(shrunk.pageSize));
    const actual = check!.actual as { ids: string[]; missing: string[]; extra: string[] };
    const expected = check!.expected as { ids: string[] };
    expect(actual.extra.length).toBeGreaterThan(0);
    expect(actual.missing).toEqual([]);
    for (const id of actual.extra) expect(expected.ids).not.toContain(id);
    expect(actual.ids).toEqual(expect.arrayContaining(actual.extra));
  });

  it("its printed curl line, run by curl against the faulty server, answers the defective list", async () => {
    const lines = failureLines(semantics);
    const at = lines.findIndex((line) =>
      line.startsWith("✗ assert:getNodeBalancers: X-Filter answers wrongly"),
    );
    const curl = lines.slice(at).find((line) => line.trimStart().startsWith("reproduce: curl "));
    expect(curl).toContain("x-filter: ");
    const answered = JSON.parse(
      await bash(curl!.trim().replace(/^reproduce: /, ""), faulty.server.token),
    ) as {
      data: { id: number }[];
    };
    const { extra } = failedChecks(semantics).find((failure) => failure.result.checkId.startsWith("assert:"))!
      .actual as { extra: string[] };
    expect(answered.data.map((item) => String(item.id))).toEqual(expect.arrayContaining(extra));
  });

  it("its printed replay line re-runs that one property, from its path, to the same counterexample", async () => {
    const replay = semantics.reproduction!.replay!;
    expect(replay).toMatch(
      / --property 'filters\/semantics\/getNodeBalancers answers what the oracle says' --path /,
    );
    const words = await shellWords(replay);
    expect(words[0]).toBe("conform");
    const reportDir = mkdtempSync(join(tmpdir(), "conform-replay-"));
    process.env.CONFORM_TOKEN = faulty.server.token;
    const result = await cli([...words.slice(1), "--report-dir", reportDir, "--reporter", "json"]);
    expect(result.code, result.err).toBe(1);
    const report = JSON.parse(readFileSync(join(reportDir, "latest", "report.json"), "utf8"));
    const [suite] = report.suites;
    expect(report.suites).toHaveLength(1);
    const byId = new Map(suite.cases.map((entry: { id: string }) => [entry.id, entry]));
    const replayed = byId.get("semantics") as { status: string; reproduction: object };
    expect(replayed.status).toBe("failed");
    expect(replayed.reproduction).toMatchObject({
      counterexample: semantics.reproduction?.counterexample,
      path: semantics.reproduction?.path,
    });
    // The other properties are not run: each other case says so, and no property of theirs is judged.
    for (const id of ["and-or", "order-reverse", "page-size-independent", "invalid-filters"]) {
      const other = byId.get(id) as { status: string; logs?: string[] };
      expect(other.logs, id).toContain(
        "properties not run: the run replays filters/semantics/getNodeBalancers answers what the oracle says",
      );
    }
    expect(report.exchanges.total).toBeGreaterThan(0);
    expect(report.exchanges.total).toBeLessThan(run.finished.exchanges);
  });
});
