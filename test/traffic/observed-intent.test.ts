/**
 * A client's request (proxy, verify without `_conform.intent`) gets its intent from the description: valid, or
 * the rules it breaks, in the generators' words; none where the description cannot tell. Then the valid/invalid
 * checks and the coverage table judge it.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request as send } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import type { RecordedRequest } from "../../src/core/exchange.ts";
import { createReferenceServer } from "../../src/reference/server.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { observedIntentOf } from "../../src/traffic/observed-intent.ts";
import { verifyRecordings } from "../../src/traffic/verify.ts";
import { proxyConfig, startProxy } from "../helpers/proxy-session.ts";

const spec = await loadSpec(bundledSpecPath);
const base = "http://127.0.0.1:48001/v4";

function observed(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): RecordedRequest {
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return {
    method,
    url: `${base}${path}`,
    headers: { ...(text === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: text,
  };
}

/** What a row expects: the mode and the rules broken (`in at rule`), or no intent at all. */
type Expected = "none" | "positive" | readonly string[];

const rows: readonly [string, string, RecordedRequest, Expected][] = [
  ["a list read with nothing to break", "getRegions", observed("GET", "/regions"), "positive"],
  [
    "a page size the description allows",
    "getRegions",
    observed("GET", "/regions?page_size=25&page=2"),
    "positive",
  ],
  [
    "a page size below the minimum",
    "getRegions",
    observed("GET", "/regions?page_size=2"),
    ["query page_size violate-bound"],
  ],
  [
    "a page that is no integer",
    "getRegions",
    observed("GET", "/regions?page=first"),
    ["query page change-type"],
  ],
  [
    "page 0 and page size 1000 at once",
    "getRegions",
    observed("GET", "/regions?page=0&page_size=1000"),
    ["query page violate-bound", "query page_size violate-bound"],
  ],
  [
    "a filter header that is a JSON object",
    "getNodeBalancers",
    observed("GET", "/nodebalancers", undefined, {
      "x-filter": '{"label":"a"}',
    }),
    "positive",
  ],
  [
    "a filter header that is no JSON object",
    "getNodeBalancers",
    observed("GET", "/nodebalancers", undefined, {
      "x-filter": "label=a",
    }),
    ["header X-Filter change-type"],
  ],
  [
    "a path id below its minimum",
    "getNodeBalancer",
    observed("GET", "/nodebalancers/0"),
    ["path nodeBalancerId violate-bound"],
  ],
  [
    "a create with its required field",
    "createNodeBalancer",
    observed("POST", "/nodebalancers", { region: "us-east" }),
    "positive",
  ],
  [
    "a create with tags null, as real clients send",
    "createNodeBalancer",
    observed("POST", "/nodebalancers", { region: "us-east", tags: null }),
    "positive",
  ],
  [
    "a create with a field the description does not list",
    "createNodeBalancer",
    observed("POST", "/nodebalancers", { region: "us-east", firewall_id: 7 }),
    "positive",
  ],
  [
    "a create without its required field",
    "createNodeBalancer",
    observed("POST", "/nodebalancers", {}),
    ["body /region remove-required-property"],
  ],
  [
    "a create with no body at all",
    "createNodeBalancer",
    observed("POST", "/nodebalancers"),
    ["body  remove-required-property"],
  ],
  [
    "a throttle above its bound and a region of the wrong type",
    "createNodeBalancer",
    observed("POST", "/nodebalancers", { region: 5, client_conn_throttle: 21 }),
    ["body /region change-type", "body /client_conn_throttle violate-bound"],
  ],
  [
    "a body that is no JSON (cut by a recorder?)",
    "createNodeBalancer",
    observed("POST", "/nodebalancers", '{"region": "us-'),
    "none",
  ],
  [
    "a body a recorder redacted",
    "createNodeBalancer",
    observed("POST", "/nodebalancers", { region: "us-east", label: "[REDACTED]" }),
    "none",
  ],
  ["an operation the description lacks", "getVolumes", observed("GET", "/volumes"), "none"],
];

describe("an observed request's intent, from the description", () => {
  it.each(rows)("%s (%s)", (_name, operationId, observed, expected) => {
    const intent = observedIntentOf(spec, operationId, observed);
    const got: Expected =
      intent === undefined
        ? "none"
        : intent.mode === "positive"
          ? "positive"
          : (intent.broken ?? []).map((rule) => `${rule.in} ${rule.at} ${rule.rule}`);
    expect(got).toEqual(expected);
    if (intent) expect(intent).toMatchObject({ operationId, scenario: "observed" });
  });

  it("leaves a client's path values and filter open, and a write's refusal unjudged", () => {
    expect(observedIntentOf(spec, "getNodeBalancer", observed("GET", "/nodebalancers/12"))).toMatchObject({
      mode: "positive",
      drawnPath: ["nodeBalancerId"],
    });
    expect(
      observedIntentOf(
        spec,
        "getNodeBalancers",
        observed("GET", "/nodebalancers", undefined, { "x-filter": "{}" }),
      ),
    ).toMatchObject({ unpinned: ["X-Filter"] });
    // A client id is text naming a client that must exist; the response type is pinned by its enum.
    const authorize = observed("GET", "/oauth/authorize?client_id=abc&response_type=code&state=s1");
    expect(observedIntentOf(spec, "getOAuthAuthorize", authorize)).toMatchObject({
      mode: "positive",
      unpinned: ["client_id", "state"],
    });
    const write = observedIntentOf(
      spec,
      "createNodeBalancer",
      observed("POST", "/nodebalancers", { region: "x" }),
    );
    expect(write?.undecidable).toMatch(/prose/);
  });

  it("judges no parameter it cannot compile: Swagger 2.0 keeps a parameter's schema on the parameter", async () => {
    const swagger = await loadSpec(join(import.meta.dirname, "../fixtures/specs/mini-cloud-2.0.json"));
    expect(observedIntentOf(swagger, "listTypes", observed("GET", "/compute/types?page=0"))).toBeUndefined();
    expect(observedIntentOf(swagger, "listTypes", observed("GET", "/compute/types"))).toMatchObject({
      mode: "positive",
    });
  });

  it("does not fail what the real service is known to take: its own time format, a recorder's placeholder", () => {
    const token = observed("POST", "/profile/tokens", {
      label: "ci",
      scopes: "*",
      expiry: "2024-07-09T13:29:58",
    });
    expect(observedIntentOf(spec, "createPersonalAccessToken", token)).toMatchObject({
      mode: "negative",
      broken: [{ in: "body", at: "/expiry", rule: "violate-pattern" }],
      undecidable: expect.stringMatching(/no zone designator/),
    });
    const node = observed("POST", "/nodebalancers/1/configs/2/nodes", {
      label: "node-1",
      address: "192.0.2.0:80",
    });
    const recorded = observedIntentOf(spec, "createNodeBalancerConfigNode", node, true);
    expect(recorded?.undecidable).toMatch(/placeholder/);
    // Seen live through the proxy, a documentation address is what the client sent: judged.
    const live = observedIntentOf(spec, "createNodeBalancerConfigNode", node);
    expect(live).toMatchObject({ mode: "negative" });
    expect(live?.undecidable).toBeUndefined();
  });
});

describe("conform proxy judges a client's requests by their intent", () => {
  const client = new Agent({ keepAliveTimeout: 100 });
  afterAll(() => client.close());

  async function throughProxy(faults: string[]) {
    const server = await createReferenceServer({ http: true, faults });
    const proxy = await startProxy(new URL(server.baseUrl).origin);
    try {
      for (const query of ["page_size=2", "page_size=25"]) {
        const answer = await send(`${proxy.url}/v4/regions?${query}`, { dispatcher: client });
        await answer.body.text();
      }
      const finished = await proxy.stop();
      const failed = proxy.events.flatMap((event) =>
        event.type === "case-finished"
          ? event.results
              .filter((result) => result.outcome.status === "failed")
              .map((result) => result.checkId)
          : [],
      );
      return { coverage: finished.coverage.find((row) => row.operationId === "getRegions"), failed };
    } finally {
      await proxy.stop();
      await server.close();
    }
  }

  it("counts a page size below the minimum as invalid, refused by the clean reference", async () => {
    const { coverage, failed } = await throughProxy([]);
    expect(coverage).toMatchObject({ valid: { sent: 1, accepted: 1 }, invalid: { sent: 1, refused: 1 } });
    expect(failed).toEqual([]);
  });

  it("fails a server that takes it (page-size-out-of-range-accepted)", async () => {
    const { coverage, failed } = await throughProxy(["page-size-out-of-range-accepted"]);
    expect(coverage).toMatchObject({ invalid: { sent: 1, refused: 0 } });
    expect(failed).toContain("invalid-request-refused");
  });
});

describe("conform verify of a HAR without intents", () => {
  const entry = (query: string, conform: Record<string, unknown> = {}) => ({
    startedDateTime: "2026-11-24T00:00:00.000Z",
    time: 1,
    request: { method: "GET", url: `https://api.example.test/v4/regions?${query}`, headers: [] },
    response: {
      status: 200,
      headers: [{ name: "content-type", value: "application/json" }],
      content: { mimeType: "application/json", text: '{"data":[],"page":1,"pages":1,"results":0}' },
    },
    timings: { wait: 1 },
    _conform: conform,
  });

  it("judges a client's invalid request taken, and keeps a suite's own word on what its request breaks", async () => {
    const folder = await mkdtemp(join(tmpdir(), "conform-intent-"));
    try {
      const file = join(folder, "client.har");
      const own = { breaks: "page_size below its minimum, sent by a suite" };
      await writeFile(
        file,
        JSON.stringify({ log: { entries: [entry("page_size=2"), entry("page_size=3", own)] } }),
      );
      const events: RunEvent[] = [];
      await verifyRecordings(proxyConfig, {
        runId: "20261124T000000Z-intent",
        listeners: [(event) => void events.push(event)],
        signal: new AbortController().signal,
        toolVersion: "test",
        files: [file],
      });
      const intents = events.flatMap((event) =>
        event.type === "exchange" ? [event.exchange.request.intent?.mode ?? "none"] : [],
      );
      expect(intents).toEqual(["negative", "none"]);
      const refusals = events.flatMap((event) =>
        event.type === "case-finished"
          ? event.results.flatMap((result) =>
              result.checkId === "invalid-request-refused" && result.outcome.status === "failed"
                ? [result.outcome.message]
                : [],
            )
          : [],
      );
      expect(refusals).toEqual([
        'getRegions: GET /v4/regions: a request breaking query page_size: violate-bound ("2": must be >= 25) accepted it (200)',
      ]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
