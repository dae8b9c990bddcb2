/**
 * `conform proxy` between ordinary clients and servers we did not write: a deliberately odd echo server proves the
 * forwarding is untouched (bytes, big integers, redirects, HEAD, preflights); the reference server, clean and with
 * faults, driven by undici and by one of the project's own suites, proves the judgement.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent, RunFinished, RunSnapshot } from "../../src/core/events.ts";
import { createReferenceServer } from "../../src/reference/server.ts";
import { runProxy } from "../../src/traffic/proxy.ts";
import { proxyConfig, startProxy } from "../helpers/proxy-session.ts";
import { runSuites } from "../helpers/run-suites.ts";

const config = proxyConfig;
const client = new Agent({ keepAliveTimeout: 100 });
afterAll(() => client.close());

async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const answer = await request(url, {
    method: (init.method ?? "GET") as "GET",
    headers: init.headers,
    body: init.body,
    dispatcher: client,
  });
  const text = await answer.body.text();
  return { status: answer.statusCode, headers: answer.headers, text };
}

const warningsOf = (events: readonly RunEvent[]) =>
  events.flatMap((event) => (event.type === "warning" ? [event.message] : []));

const failedChecks = (events: readonly RunEvent[]) =>
  new Set(
    events.flatMap((event) =>
      event.type === "case-finished"
        ? event.results.filter((result) => result.outcome.status === "failed").map((result) => result.checkId)
        : [],
    ),
  );

describe("conform proxy forwards untouched", () => {
  let echo: Server;
  const seen: { method: string; url: string; body: string; headers: Record<string, unknown> }[] = [];

  it("passes bodies byte for byte, redirects, HEAD and preflights through", async () => {
    echo = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        seen.push({
          method: incoming.method ?? "",
          url: incoming.url ?? "",
          body,
          headers: incoming.headers,
        });
        if (incoming.url === "/v4/moved") {
          outgoing.writeHead(302, { location: "/v4/elsewhere" });
          outgoing.end();
          return;
        }
        const answer = '{"id":12345678901234567890,"echo":true}';
        outgoing.writeHead(incoming.method === "OPTIONS" ? 204 : 200, {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(answer)),
          "access-control-allow-origin": "*",
        });
        outgoing.end(incoming.method === "HEAD" || incoming.method === "OPTIONS" ? undefined : answer);
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    const proxy = await startProxy(`http://127.0.0.1:${(echo.address() as AddressInfo).port}`);
    try {
      const body = '{"label":"x","big":12345678901234567890, "spaced" :  1}';
      const posted = await send(`${proxy.url}/v4/anything?q=1`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-custom": "kept" },
        body,
      });
      expect(posted.text).toBe('{"id":12345678901234567890,"echo":true}');
      expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/v4/anything?q=1", body });
      expect(seen.at(-1)?.headers["x-custom"]).toBe("kept");

      const moved = await send(`${proxy.url}/v4/moved`);
      expect(moved.status).toBe(302);
      expect(moved.headers.location).toBe("/v4/elsewhere");
      expect(seen.at(-1)?.url).toBe("/v4/moved");

      const head = await send(`${proxy.url}/v4/compute/types`, { method: "HEAD" });
      expect([head.status, head.text, head.headers["content-length"]]).toEqual([200, "", "39"]);
      const preflight = await send(`${proxy.url}/v4/compute/types`, {
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "GET" },
      });
      expect(preflight.status).toBe(204);
      expect(seen.at(-1)?.method).toBe("OPTIONS");
    } finally {
      await proxy.stop();
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });
});

async function judgeThroughProxy(faults: string[]) {
  const server = await createReferenceServer({ http: true, faults });
  const proxy = await startProxy(new URL(server.baseUrl).origin);
  const auth = { authorization: `Bearer ${server.token}` };
  try {
    const base = `${proxy.url}/v4`;
    await send(`${base}/compute/types?page_size=25`, { headers: auth });
    await send(`${base}/compute/types?page=2&page_size=25`, { headers: auth });
    await send(`${base}/compute/types`, {
      headers: { ...auth, "x-filter": '{"memory":{"+gt":2048},"+order_by":"memory","+order":"desc"}' },
    });
    await send(`${base}/compute/types`, { headers: { ...auth, "x-filter": '{"price":1}' } });
    await send(`${base}/compute/types?page_size=5`, { headers: auth });
    for (let index = 0; index < 3; index += 1) await send(`${base}/profile`, { headers: auth });
    await send(`${base}/nodebalancers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: '{"region":"us-east","label":"x"}',
    });
    const made = await send(`${base}/nodebalancers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: '{"region":"us-east"}',
    });
    if (made.status === 200) {
      const balancer = `${base}/nodebalancers/${JSON.parse(made.text).id}`;
      await send(balancer, { headers: auth });
      const json = { ...auth, "content-type": "application/json" };
      const config = await send(`${balancer}/configs`, {
        method: "POST",
        headers: json,
        body: '{"port":80,"protocol":"http"}',
      });
      // The deprecated alias: POST to the profile itself adds a node at an instance's private address.
      const instance = await send(`${base}/compute/instances`, {
        method: "POST",
        headers: json,
        body: '{"region":"us-east","type":"g6-standard-1","booted":false}',
      });
      const ip = await send(`${base}/networking/ips`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ type: "ipv4", public: false, compute_id: JSON.parse(instance.text).id }),
      });
      const node = JSON.stringify({ label: "web-1", address: `${JSON.parse(ip.text).address}:80` });
      if (config.status === 200)
        await send(`${balancer}/configs/${JSON.parse(config.text).id}`, {
          method: "POST",
          headers: json,
          body: node,
        });
    }
    await send(`${base}/nodebalancers/${JSON.parse(made.text).id}`, { headers: auth });
  } finally {
    await proxy.stop().finally(() => server.close());
  }
  return proxy.events;
}

describe("conform proxy judges what an ordinary client sends", () => {
  it("finds nothing wrong with the clean reference server", async () => {
    const events = await judgeThroughProxy([]);
    const finished = events.at(-1) as RunFinished;
    expect([...failedChecks(events)]).toEqual([]);
    expect(finished.exitCode).toBe(0);
    expect(finished.exchanges).toBe(16);
  });

  it.each([
    ["pages-off-by-one", "observed-pages"],
    ["filter-gt-as-gte", "observed-filter"],
    ["filter-order-ignored", "observed-filter"],
    ["filter-unfilterable-accepted", "observed-filter"],
    ["page-size-out-of-range-accepted", "observed-pages"],
    ["rate-limit-remaining-frozen", "observed-rate-limit"],
    ["id-as-string", "body-matches-schema"],
    ["error-field-missing", "observed-error-field"],
    ["deprecated-alias-answers-200", "observed-deprecated"],
    ["spec-version-missing", "spec-version-header"],
  ])("catches %s (%s)", async (fault, check) => {
    const events = await judgeThroughProxy([fault]);
    expect([...failedChecks(events)]).toContain(check);
    expect((events.at(-1) as RunFinished).exitCode).toBe(1);
  });
});

describe("a bounded judgement", () => {
  it("hands a big answer back whole and judges its first part, marked cut", async () => {
    const server = await createReferenceServer({ http: true });
    const proxy = await startProxy(new URL(server.baseUrl).origin, { config: { maxResponseBytes: 100 } });
    try {
      const answer = await send(`${proxy.url}/v4/compute/types`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      expect(JSON.parse(answer.text).data.length).toBeGreaterThan(0);
    } finally {
      await proxy.stop().finally(() => server.close());
    }
    const exchange = proxy.events.find((event) => event.type === "exchange");
    expect(exchange?.type === "exchange" && exchange.exchange.response).toMatchObject({ truncated: true });
    expect([...failedChecks(proxy.events)]).toEqual([]);
  });
});

describe("streaming both ways within its bounds", () => {
  /** Endless answers, uploads counted, stalls: a target the proxy must not let grow it or hold it. */
  const received: number[] = [];
  let hostile: Server;
  let origin = "";
  const timers = new Set<NodeJS.Timeout>();

  afterAll(async () => {
    for (const timer of timers) clearInterval(timer);
    hostile?.closeAllConnections();
    await new Promise((resolve) => (hostile ? hostile.close(resolve) : resolve(undefined)));
  });

  async function startHostile() {
    hostile = createServer((incoming, outgoing) => {
      if (incoming.url === "/endless") {
        // 1 KiB every 10 ms, without end: only a bound of the proxy ends it.
        outgoing.writeHead(200, { "content-type": "application/json" });
        outgoing.write("[");
        const timer = setInterval(() => outgoing.write(`${"1,".repeat(512)}`), 10);
        timers.add(timer);
        outgoing.on("close", () => clearInterval(timer));
        return;
      }
      if (incoming.url === "/stall") return;
      let bytes = 0;
      incoming.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      incoming.on("end", () => {
        received.push(bytes);
        outgoing.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  }

  it("hands an endless answer on as it comes and cuts it at --request-deadline, a transport failure", async () => {
    await startHostile();
    const proxy = await startProxy(origin, { config: { requestDeadlineMs: 300, maxResponseBytes: 4096 } });
    let bytes = 0;
    let cut: unknown;
    try {
      const answer = await request(`${proxy.url}/endless`, { dispatcher: client });
      // The client reads the answer as it comes (the old proxy gave nothing before an end that never came)...
      try {
        for await (const chunk of answer.body) bytes += (chunk as Buffer).length;
      } catch (error) {
        // ...until the deadline cuts it.
        cut = error;
      }
    } finally {
      await proxy.stop();
    }
    expect(cut).toBeDefined();
    expect(bytes).toBeGreaterThan(4096);
    const exchange = proxy.events.find((event) => event.type === "exchange");
    expect(exchange?.type === "exchange" && exchange.exchange.error).toMatchObject({
      code: "REQUEST_DEADLINE",
      message: expect.stringMatching(/did not end within 300 ms of its headers \(--request-deadline\)/),
    });
  });

  it("forwards every byte of a big upload and keeps only its first part to judge", async () => {
    const upload = "x".repeat(3 * 1024 * 1024);
    const capped = await startProxy(origin, { config: { maxResponseBytes: 1024 } });
    try {
      const answer = await send(`${capped.url}/upload`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: upload,
      });
      expect(answer.status).toBe(200);
    } finally {
      await capped.stop();
    }
    expect(received.at(-1)).toBe(upload.length);
    const exchange = capped.events.find((event) => event.type === "exchange");
    expect(exchange?.type === "exchange" && exchange.exchange.request.body?.length).toBeLessThanOrEqual(1024);
  });

  it("stops at once while an answer streams without end and another is stalled", async () => {
    // Bounds far beyond the test's own time: only abandoning what is in flight lets it stop.
    const proxy = await startProxy(origin, { config: { requestDeadlineMs: 600_000, timeoutMs: 600_000 } });
    const streaming = await request(`${proxy.url}/endless`, { dispatcher: client });
    const stalled = request(`${proxy.url}/stall`, { dispatcher: client }).catch((error) => error);
    for await (const _chunk of streaming.body) break;
    await proxy.stop();
    await stalled;
    // Abandoned by the proxy's own stop: not the target's failure.
    expect(proxy.events.filter((event) => event.type === "exchange")).toEqual([]);
  });
});

describe("a port it cannot listen on", () => {
  it("is a usage error in one line naming the port (no stack)", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const stopped = runProxy(config, {
        runId: "20261124T000000Z-proxy",
        listeners: [],
        signal: new AbortController().signal,
        toolVersion: "test",
        target: "http://127.0.0.1:1",
        port,
      });
      await expect(stopped).rejects.toMatchObject({
        code: "CONFIG_INVALID",
        message: `--port ${port} on 127.0.0.1: cannot listen (EADDRINUSE)`,
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe("while it runs, and how it stops", () => {
  it("emits snapshots of what it judged so far, leaving the session going", async () => {
    const server = await createReferenceServer({ http: true });
    const proxy = await startProxy(new URL(server.baseUrl).origin, { reportEveryMs: 50 });
    const types = () =>
      send(`${proxy.url}/v4/compute/types`, { headers: { authorization: `Bearer ${server.token}` } });
    const snapshotOf = (exchanges: number) =>
      proxy.events.find(
        (event): event is RunSnapshot =>
          event.type === "run-snapshot" && event.finished.exchanges === exchanges,
      );
    let snapshot: RunSnapshot | undefined;
    try {
      await types();
      // Bounded: 400 looks (the machine is shared), not a timed assertion.
      for (let look = 0; look < 400 && !snapshot; look += 1) {
        snapshot = snapshotOf(1);
        if (!snapshot) await sleep(25);
      }
      await types();
    } finally {
      await proxy.stop().finally(() => server.close());
    }
    expect(snapshot).toMatchObject({
      cases: [{ type: "case-finished", status: "passed", exchangeCount: 1 }],
      suites: [{ type: "suite-finished", status: "passed" }],
      finished: { status: "passed", exitCode: 0, counts: { passed: 1 } },
    });
    const ended = proxy.events.filter((event) => event.type === "case-finished");
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ exchangeCount: 2, status: "passed" });
    expect((proxy.events.at(-1) as RunFinished).exchanges).toBe(2);
  });

  it("stops at --max-time by itself, saying so; having judged nothing, it exits 2 and says why", async () => {
    const proxy = await startProxy("http://127.0.0.1:9", { config: { maxTimeMs: 50 } });
    const finished = await proxy.finished;
    expect(finished).toMatchObject({ status: "errored", exitCode: 2, exchanges: 0 });
    expect(warningsOf(proxy.events)).toEqual([
      "the proxy reached its time limit of 50 ms (--max-time): it stops and writes the reports of what it judged",
      "nothing judged: no traffic came",
    ]);
  });

  it("having judged nothing because the target did not answer, says so in one line", async () => {
    // Port 9 (discard) on loopback: nothing listens there, the connection is refused.
    const proxy = await startProxy("http://127.0.0.1:9");
    try {
      expect((await send(`${proxy.url}/v4/regions`)).status).toBe(502);
    } finally {
      await proxy.stop();
    }
    expect(warningsOf(proxy.events)).toEqual([
      "nothing judged: no exchange of an operation of the description; the target did not answer (ECONNREFUSED) 1×",
    ]);
  });

  it("never takes a snapshot while the previous one is still being written", async () => {
    const server = await createReferenceServer({ http: true });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A reporter whose first snapshot takes as long as the test wants (a slow disk).
    const slow = (event: RunEvent) => (event.type === "run-snapshot" ? released : undefined);
    const proxy = await startProxy(new URL(server.baseUrl).origin, { reportEveryMs: 5, listeners: [slow] });
    const taken = () => proxy.events.filter((event) => event.type === "run-snapshot").length;
    try {
      for (let look = 0; look < 400 && taken() === 0; look += 1) await sleep(25);
      expect(taken()).toBe(1);
      // Many periods pass while the first is written: none of them takes another.
      await sleep(200);
      expect(taken()).toBe(1);
      release();
      for (let look = 0; look < 400 && taken() < 2; look += 1) await sleep(25);
      expect(taken()).toBeGreaterThanOrEqual(2);
    } finally {
      release();
      await proxy.stop().finally(() => server.close());
    }
  });
});

describe("HTTPS on both sides", () => {
  it("serves clients with its own certificate and trusts the target's through --ca", async () => {
    const dir = await mkdtemp(join(tmpdir(), "conform-proxy-tls-"));
    const server = await createReferenceServer({});
    try {
      const caFile = join(dir, "target-ca.pem");
      await writeFile(caFile, server.certificatePem ?? "");
      const own = join(dir, "proxy-ca.pem");
      const proxy = await startProxy(new URL(server.baseUrl).origin, {
        config: { caFile },
        httpsCertFile: own,
      });
      expect(proxy.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
      const trusting = new Agent({ connect: { ca: await readFile(own, "utf8") } });
      try {
        const answer = await request(`${proxy.url}/v4/compute/types`, {
          headers: { authorization: `Bearer ${server.token}` },
          dispatcher: trusting,
        });
        expect(answer.statusCode).toBe(200);
        await answer.body.text();
      } finally {
        await trusting.close();
      }
      const finished = await proxy.stop();
      expect([finished.exitCode, finished.exchanges]).toEqual([0, 1]);
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("one of the project's own suites through the proxy", () => {
  it.each([[[] as string[]], [["pages-off-by-one"]]])(
    "gives the direct run's per-exchange verdicts (faults %j)",
    async (faults) => {
      const direct = await runSuites({ suites: ["pagination"], faults });
      const server = await createReferenceServer({ http: true, faults });
      const proxy = await startProxy(new URL(server.baseUrl).origin);
      try {
        const through = await runSuites({
          suites: ["pagination"],
          baseUrl: `${proxy.url}/v4`,
          authUrl: proxy.url,
          token: server.token,
        });
        const perExchange = (checks: ReadonlySet<string>) =>
          [...checks].filter((id) => !id.startsWith("assert:")).sort();
        expect(perExchange(through.failedChecks)).toEqual(perExchange(direct.failedChecks));
      } finally {
        await proxy.stop().finally(() => server.close());
      }
      const judged = failedChecks(proxy.events);
      const directPerExchange = [...direct.failedChecks].filter((id) => !id.startsWith("assert:"));
      for (const check of directPerExchange) expect(judged).toContain(check);
      if (faults.length > 0) expect(judged).toContain("observed-pages");
      else expect([...judged]).toEqual([]);
    },
  );
});
