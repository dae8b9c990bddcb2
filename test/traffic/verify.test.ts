/**
 * `conform verify` on recordings: a run's own HAR reproduces the run's per-exchange verdicts, and go-vcr cassettes
 * written here in go-vcr's format (as an SDK's integration tests record them: versions 1 and 2, Authorization
 * filtered out) from traffic with the reference server are read and judged, clean and with faults.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { RunEvent, RunFinished } from "../../src/core/events.ts";
import { createReferenceServer } from "../../src/reference/server.ts";
import { type RunConfig, runConfigDefaults } from "../../src/runner/config.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { goDurationMs, readCassette } from "../../src/traffic/cassette.ts";
import { HarWriter } from "../../src/traffic/har.ts";
import { verifyRecordings } from "../../src/traffic/verify.ts";
import { runSuites } from "../helpers/run-suites.ts";

const config: RunConfig = { ...runConfigDefaults, specPath: bundledSpecPath, reporters: [] };
const dir = await mkdtemp(join(tmpdir(), "conform-verify-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function verify(files: string[]): Promise<{ events: RunEvent[]; finished: RunFinished }> {
  const events: RunEvent[] = [];
  const finished = await verifyRecordings(config, {
    runId: "20261124T000000Z-verify",
    listeners: [(event) => void events.push(event)],
    signal: new AbortController().signal,
    toolVersion: "test",
    files,
  });
  return { events, finished };
}

const failedChecks = (events: readonly RunEvent[]) =>
  new Set(
    events.flatMap((event) =>
      event.type === "case-finished"
        ? event.results.filter((result) => result.outcome.status === "failed").map((result) => result.checkId)
        : [],
    ),
  );

describe("a run's HAR fed to conform verify", () => {
  it.each([[[] as string[]], [["spec-version-missing"]], [["content-type-wrong"]]])(
    "reproduces the run's per-exchange verdicts (faults %j)",
    async (faults) => {
      const file = join(dir, `run-${faults.join("-") || "clean"}.har`);
      const har = new HarWriter(file, "test");
      const run = await runSuites({ suites: ["pagination"], faults });
      for (const event of run.events) await har.listener(event);
      await har.close();
      const parsed = JSON.parse(await readFile(file, "utf8"));
      expect(parsed.log.version).toBe("1.2");
      const runExchanges = run.events.filter((event) => event.type === "exchange").length;
      expect(parsed.log.entries).toHaveLength(runExchanges);
      const perExchange = [...run.failedChecks].filter((id) => !id.startsWith("assert:")).sort();
      const { events, finished } = await verify([file]);
      // The observed-* checks too: the run applies every check a verification does.
      const judged = [...failedChecks(events)].sort();
      expect(judged).toEqual(perExchange);
      // Every failure group of a per-exchange check in the run is one of the verification's.
      const groupsOf = (all: readonly { checkId: string; id: string }[]) =>
        all
          .filter((group) => !group.checkId.startsWith("assert:"))
          .map((group) => group.id)
          .sort();
      expect(groupsOf(finished.groups)).toEqual(groupsOf(run.finished.groups));
      if (faults.length === 0) expect(finished.exitCode).toBe(0);
      else expect(finished.exitCode).toBe(1);
    },
  );

  it("judges the generic layer's requests with the run's intent (valid or invalid), unmatched paths too", async () => {
    const file = join(dir, "run-generic.har");
    const har = new HarWriter(file, "test");
    const run = await runSuites({ suites: ["operations"], faults: ["invalid-body-accepted"] });
    for (const event of run.events) await har.listener(event);
    await har.close();
    expect(run.failedChecks).toContain("invalid-request-refused");
    const { events, finished } = await verify([file]);
    // The observed-* checks judge sequences, which a HAR of one suite's run replays only in part.
    const perExchange = (id: string) => !id.startsWith("observed-") && !id.startsWith("assert:");
    const judged = [...failedChecks(events)].filter(perExchange).sort();
    expect(judged).toEqual([...run.failedChecks].filter(perExchange).sort());
    const generic = (all: readonly { checkId: string; id: string; failures: number }[]) =>
      all
        .filter((group) => group.checkId.endsWith("-request-refused") || group.checkId.endsWith("-accepted"))
        .map((group) => `${group.id} ×${group.failures}`)
        .sort();
    expect(generic(finished.groups)).toEqual(generic(run.finished.groups));
  }, 180_000);

  it("keeps secrets out of the HAR", async () => {
    const file = join(dir, "secrets.har");
    const har = new HarWriter(file, "test");
    const run = await runSuites({ suites: ["auth"] });
    for (const event of run.events) await har.listener(event);
    await har.close();
    const text = await readFile(file, "utf8");
    expect(text).toContain("[REDACTED]");
    expect(text).not.toMatch(/Bearer [0-9a-f]{64}/);
  });
});

describe("a HAR's requests without Authorization", () => {
  const entry = (authorization: string | undefined, status: number, body: unknown) => ({
    startedDateTime: "2026-11-24T00:00:00.000Z",
    time: 5,
    request: {
      method: "GET",
      url: "https://api.example.net/v4/nodebalancers",
      headers: authorization === undefined ? [] : [{ name: "Authorization", value: authorization }],
    },
    response: {
      status,
      headers: [{ name: "Content-Type", value: "application/json" }],
      content: { mimeType: "application/json", text: JSON.stringify(body) },
    },
  });
  const forbidden = { errors: [{ reason: "Forbidden" }] };
  const listed = { data: [], page: 1, pages: 1, results: 0 };

  it.each([
    ["shows Authorization on another request: it kept the header, so the 403 is judged", true],
    ["shows Authorization on none: it may have dropped the header, so nothing is judged", false],
  ])("a recording that %s", async (_name, kept) => {
    const file = join(dir, `authorization-${kept}.har`);
    const entries = [
      entry(kept ? "Bearer [REDACTED]" : undefined, 200, listed),
      entry(undefined, 403, forbidden),
    ];
    await writeFile(file, JSON.stringify({ log: { version: "1.2", entries } }));
    const { events, finished } = await verify([file]);
    expect(failedChecks(events).has("auth-status")).toBe(kept);
    expect(finished.notShown?.rules.map((rule) => rule.id).includes("unauthenticated")).toBe(!kept);
  });
});

interface Interaction {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** Sends each interaction to the server and writes what came as a go-vcr cassette of `version`. */
async function recordCassette(file: string, version: 1 | 2, faults: string[], interactions: Interaction[]) {
  const server = await createReferenceServer({ http: true, faults });
  const origin = new URL(server.baseUrl).origin;
  const recorded: unknown[] = [];
  try {
    for (const [index, one] of interactions.entries()) {
      const url = `${origin}${one.path}`;
      const headers = { accept: "application/json", authorization: `Bearer ${server.token}`, ...one.headers };
      const answer = await request(url, { method: one.method as "GET", headers, body: one.body });
      const body = await answer.body.text();
      // SDKs filter the token out of what they record.
      const { authorization: _token, ...kept } = headers;
      const asLists = (from: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(from).map(([name, value]) => [name, [String(value)]]));
      const requestPart = { body: one.body ?? "", form: {}, headers: asLists(kept), url, method: one.method };
      const responsePart = {
        body,
        headers: asLists(answer.headers as Record<string, unknown>),
        status: `${answer.statusCode} ${answer.statusCode === 200 ? "OK" : ""}`.trim(),
        code: answer.statusCode,
        duration: version === 2 ? "12.5ms" : "",
      };
      recorded.push(
        version === 2
          ? {
              id: index,
              request: { proto: "HTTP/1.1", ...requestPart },
              response: { proto: "HTTP/1.1", ...responsePart },
            }
          : { request: requestPart, response: responsePart },
      );
    }
  } finally {
    await server.close();
  }
  await writeFile(file, `---\n${stringify({ version, interactions: recorded })}`);
}

const sdkTest: Interaction[] = [
  { method: "GET", path: "/v4/compute/types?page_size=25" },
  { method: "GET", path: "/v4/compute/types?page=2&page_size=25" },
  {
    method: "GET",
    path: "/v4/compute/types",
    headers: { "x-filter": '{"memory":{"+gte":4096},"+order_by":"memory","+order":"desc"}' },
  },
  { method: "GET", path: "/v4/profile" },
  { method: "GET", path: "/v4/profile" },
  { method: "GET", path: "/v4/regions" },
  { method: "GET", path: "/v4/not-in-the-description" },
];

describe("go-vcr cassettes", () => {
  it.each([1, 2] as const)(
    "version %i of a clean server raises no alarm, and unknown operations are listed",
    async (version) => {
      const file = join(dir, `clean-v${version}.yaml`);
      await recordCassette(file, version, [], sdkTest);
      expect(readCassette(await readFile(file, "utf8"))).toHaveLength(sdkTest.length);
      const { events, finished } = await verify([file]);
      expect([...failedChecks(events)]).toEqual([]);
      expect(finished.exitCode).toBe(0);
      const warnings = events.filter((event) => event.type === "warning").map((event) => event.message);
      expect(warnings.join("\n")).toContain(
        "1 exchange matched no operation of the description and was not judged: GET /v4/not-in-the-description",
      );
      // What it could not show: the walk past page 1 and the filtered list it did show are not listed.
      expect(finished.notShown?.operations).toMatchObject({ exercised: 3, total: 48 });
      expect(finished.notShown?.rules.map((rule) => rule.id)).toEqual([
        "rate-limit",
        "error-path",
        "unauthenticated",
        "write",
        "oauth-flow",
      ]);
    },
  );

  it.each([
    ["pages-off-by-one", "observed-pages"],
    ["filter-order-ignored", "observed-filter"],
    ["rate-limit-remaining-frozen", "observed-rate-limit"],
    ["spec-version-wrong", "spec-version-header"],
  ])("with %s, %s fails", async (fault, check) => {
    const file = join(dir, `${fault}.yaml`);
    await recordCassette(file, 2, [fault], sdkTest);
    const { events, finished } = await verify([file]);
    expect([...failedChecks(events)]).toContain(check);
    expect(finished.exitCode).toBe(1);
  });

  it.each([
    ["12.5ms", 12.5],
    ["1m2s", 62_000],
    ["", 0],
    [1_500_000, 1.5],
  ] as const)("reads the Go duration %j", (text, ms) => {
    expect(goDurationMs(text)).toBeCloseTo(ms);
  });

  it("refuses a file that is neither HAR nor a cassette", async () => {
    const file = join(dir, "nothing.txt");
    await writeFile(file, "hello: world\n");
    await expect(verify([file])).rejects.toThrow(/neither a HAR file nor a go-vcr cassette/);
  });
});
