/**
 * The client against a hostile target (a tiny deliberately wrong server): every bound ends the request on its own,
 * saying which bound and how to change it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WaitTooLongError } from "../../src/core/errors.ts";
import { SecretValues } from "../../src/core/redact.ts";
import { HttpClient, TransportError } from "../../src/runner/http-client.ts";
import { RatePacer } from "../../src/runner/rate-pacer.ts";

const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
const small = gzipSync(JSON.stringify({ data: [1, 2, 3] }));
const timers = new Set<NodeJS.Timeout>();
/** Paths whose connection the client closed. */
const freed: string[] = [];

const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const path = new URL(request.url ?? "/", "http://x").pathname;
  if (path === "/huge") {
    // 64 KiB chunks without end: only the cap stops the reader.
    response.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (response.write(chunk)) if (response.destroyed) return;
    };
    response.on("drain", pump);
    pump();
    return;
  }
  if (path === "/declared-huge") {
    // A length far above the cap, one byte of it, then nothing: the connection stays open until the client frees it.
    response.writeHead(200, { "content-type": "application/json", "content-length": String(1e9) });
    response.write("{");
    request.socket.once("close", () => freed.push(path));
    return;
  }
  if (path === "/gzip-bomb" || path === "/gzip") {
    const body = path === "/gzip" ? small : bomb;
    response.writeHead(200, {
      "content-type": "application/json",
      "content-encoding": "gzip",
      "content-length": body.length,
    });
    response.end(body);
    return;
  }
  if (path === "/trickle") {
    // A byte every 100 ms: never idle for the body timeout, never done.
    response.writeHead(200, { "content-type": "application/json" });
    const timer = setInterval(() => response.write(" "), 100);
    timers.add(timer);
    response.on("close", () => clearInterval(timer));
    return;
  }
  if (path === "/retry-after-day") {
    response.writeHead(429, { "content-type": "application/json", "retry-after": "86400" });
    response.end('{"errors":[{"reason":"Too many requests"}]}');
    return;
  }
  if (path === "/far-reset") {
    response.writeHead(200, {
      "content-type": "application/json",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 10 * 365 * 86400),
    });
    response.end('{"data":[]}');
    return;
  }
  response.writeHead(404).end();
});

let origin = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client(overrides: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) {
  return new HttpClient({
    timeoutMs: 5000,
    ca: undefined,
    insecure: false,
    connections: 2,
    maxResponseBytes: 256 * 1024,
    requestDeadlineMs: 400,
    maxRetries: 3,
    maxWaitMs: 1000,
    pacer: new RatePacer({ kind: "auto" }, undefined, undefined, 1000),
    secrets: new SecretValues(),
    matchOperation: () => undefined,
    ...overrides,
  });
}

describe("runner HTTP client against a hostile target", () => {
  it.each([
    ["an endless body", "/huge", "RESPONSE_TOO_LARGE", /^answer too large: .* 262144-byte cap/],
    ["a gzip bomb", "/gzip-bomb", "RESPONSE_TOO_LARGE", /of gzip decode to more than the 262144-byte cap/],
    ["a body trickling a byte at a time", "/trickle", "REQUEST_DEADLINE", /within 400 ms of its headers/],
  ])("ends %s on its own, failing the exchange with the bound hit", async (_name, path, code, message) => {
    const http = client();
    const error = await http.send({ method: "GET", url: `${origin}${path}` }).catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.code).toBe(code);
    expect(error.exchange.error.message).toMatch(message);
    await http.close();
  });

  it("frees the connection of an answer declaring a length above the cap: the next request and close settle", async () => {
    // Timeouts far beyond the test's own: only freeing the connection lets anything below settle.
    const http = client({ connections: 1, timeoutMs: 600_000, requestDeadlineMs: 600_000 });
    const [first, second] = await Promise.allSettled([
      http.send({ method: "GET", url: `${origin}/declared-huge` }),
      http.send({ method: "GET", url: `${origin}/gzip` }),
    ]);
    expect(first).toMatchObject({ status: "rejected", reason: { code: "RESPONSE_TOO_LARGE" } });
    expect((first as PromiseRejectedResult).reason.exchange.error.message).toMatch(
      /^answer too large: application\/json, 1000000000 bytes declared, above the 262144-byte cap/,
    );
    expect(second).toMatchObject({ status: "fulfilled", value: { json: { data: [1, 2, 3] } } });
    await http.close();
    await expect.poll(() => freed).toContain("/declared-huge");
  });

  it("decodes a gzip answer within the cap", async () => {
    const http = client();
    const answer = await http.send({ method: "GET", url: `${origin}/gzip` });
    expect(answer.json).toEqual({ data: [1, 2, 3] });
    await http.close();
  });

  it("fails a Retry-After beyond the ceiling at once instead of waiting it", async () => {
    const http = client();
    const error = await http.send({ method: "GET", url: `${origin}/retry-after-day` }).catch((e) => e);
    expect(error).toBeInstanceOf(WaitTooLongError);
    expect(error.code).toBe("WAIT_TOO_LONG");
    expect(error.message).toMatch(/asking to wait 86400 s .* beyond the 1 s ceiling \(--max-wait\)/);
    expect(http.retries).toBe(0);
    await http.close();
  });

  it("fails the next request of a window resetting in years instead of waiting for it", async () => {
    const http = client();
    await http.send({ method: "GET", url: `${origin}/far-reset` });
    const error = await http.send({ method: "GET", url: `${origin}/far-reset` }).catch((e) => e);
    expect(error).toBeInstanceOf(WaitTooLongError);
    expect(error.message).toMatch(/rate-limit window of GET \/far-reset is spent .*--max-wait/);
    await http.close();
  });
});
