/**
 * A tiny target on loopback for client tests (port 0), and the runner's HTTP client with small bounds to send to it.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { SecretValues } from "../../src/core/redact.ts";
import { HttpClient } from "../../src/runner/http-client.ts";
import { RatePacer } from "../../src/runner/rate-pacer.ts";

/** Listens on 127.0.0.1 at a free port; answers the origin (`http://127.0.0.1:<port>`). */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server and every connection still open to it. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/**
 * A test file's own server on loopback for all its tests: listening before them, closed (its connections dropped,
 * `before.close` first) after them. Answers a function giving its origin once listening.
 */
export function onLoopback(server: Server, before: { close?: () => void } = {}): () => string {
  let origin = "";
  beforeAll(async () => {
    origin = await listenOnLoopback(server);
  });
  afterAll(async () => {
    before.close?.();
    await closeServer(server);
  });
  return () => origin;
}

/** The runner's client with test bounds (5 s, 64 KiB, no retries), `overrides` applied. */
export function testClient(overrides: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient {
  return new HttpClient({
    timeoutMs: 5000,
    ca: undefined,
    insecure: false,
    connections: 2,
    maxResponseBytes: 64 * 1024,
    requestDeadlineMs: 5000,
    maxRetries: 0,
    maxWaitMs: 1000,
    pacer: new RatePacer({ kind: "auto" }, undefined, undefined, 1000),
    secrets: new SecretValues(),
    matchOperation: () => undefined,
    ...overrides,
  });
}
