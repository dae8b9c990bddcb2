import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer, connect as netConnect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../../src/reference/server.ts";
import { runConfigDefaults } from "../../src/runner/config.ts";
import { runConformance } from "../../src/runner/run.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";

/** Suites of one case each sending `requests` GETs in order (cases of a suite run in order, suites at once). */
function writeSuites(dir: string, suites: number, requests: number): string[] {
  const index = pathToFileURL(join(import.meta.dirname, "../../src/index.ts")).href;
  return Array.from({ length: suites }, (_, lane) => {
    const id = `connections-${lane + 1}`;
    writeFileSync(
      join(dir, `${id}.suite.mjs`),
      `import { defineSuite } from ${JSON.stringify(index)};
export default defineSuite({ id: ${JSON.stringify(id)}, title: "GETs in order", tags: ["read-only"], cases: [{
  id: "gets", title: "GETs in order",
  run: async (t) => { for (let i = 0; i < ${requests}; i += 1) t.expect("answered", (await t.api.get("/regions")).status === 200); },
}] });
`,
    );
    return id;
  });
}

describe("the engine's connections to the target", () => {
  let reference: ReferenceServer;
  let relay: Server;
  let relayUrl: string;
  let open = 0;
  let mostOpen = 0;
  let dir: string;

  beforeAll(async () => {
    // Limits far above the test's requests: the pacer must not hold them.
    const roomy = { limit: 100_000, windowMs: 60_000 };
    reference = await createReferenceServer({ http: true, rateLimits: { general: roomy, list: roomy } });
    const target = new URL(reference.baseUrl);
    // A TCP relay in front of the reference server: it counts the connections open at once.
    relay = createServer((socket: Socket) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      const upstream = netConnect(Number(target.port), target.hostname);
      socket.pipe(upstream).pipe(socket);
      const closed = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on("close", closed).on("error", closed);
      upstream.on("close", closed).on("error", closed);
      socket.once("close", () => {
        open -= 1;
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}${target.pathname}`;
    dir = mkdtempSync(join(tmpdir(), "conform-engine-connections-"));
  });

  afterAll(async () => {
    await new Promise((resolve) => relay.close(resolve));
    await reference.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // No more connections than cases at once (at least 8): a case sends one request at a time, and a connection
  // opened whenever the others are busy for an instant would cost a handshake and sit idle.
  it.each([[12], [9]])("at concurrency %i, opens at most that many at once", async (concurrency) => {
    mostOpen = 0;
    const suites = writeSuites(dir, concurrency, 25);
    const finished = await runConformance(
      {
        ...runConfigDefaults,
        specPath: bundledSpecPath,
        baseUrl: relayUrl,
        token: reference.token,
        suitePaths: [dir],
        suites,
        concurrency,
        seed: 1,
        reporters: [],
      },
      {
        runId: "20261124T000000Z-test",
        listeners: [],
        signal: new AbortController().signal,
        toolVersion: "test",
      },
    );
    expect(finished.counts).toMatchObject({ passed: concurrency, failed: 0, errored: 0 });
    expect(finished.exchanges).toBe(concurrency * 25);
    expect(mostOpen).toBeGreaterThan(1);
    expect(mostOpen).toBeLessThanOrEqual(concurrency);
  });
});
