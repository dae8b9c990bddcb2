/**
 * A test's own server on 127.0.0.1 (any free port) for the whole file: listening before its tests, its
 * connections dropped and closed after them. Answers the server's origin (`http://127.0.0.1:<port>`) once listening.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

export function onLoopback(server: Server, before: { close?: () => void } = {}): () => string {
  let origin = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    before.close?.();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return () => origin;
}
