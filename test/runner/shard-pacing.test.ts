/**
 * Shards sharing one token: two clients in parallel (as two `--shard` processes would be), each pacing from the
 * target's own X-RateLimit-* headers with `share` 2, against a fixed-window limiter that every operation of a token
 * shares. Together they stay within the windows: the target answers no 429.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretValues } from "../../src/core/redact.ts";
import { HttpClient } from "../../src/runner/http-client.ts";
import { RatePacer } from "../../src/runner/rate-pacer.ts";

const limit = 16;
let origin = "";
const served = { ok: 0, refused: 0 };
const windows = new Map<number, number>();
// One rule per token for every path, in windows aligned to the second (as X-RateLimit-Reset's unit).
const server = createServer((_request, response) => {
  const second = Math.floor(Date.now() / 1000);
  const used = (windows.get(second) ?? 0) + 1;
  windows.set(second, used);
  const headers = {
    "content-type": "application/json",
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": String(Math.max(0, limit - used)),
    "x-ratelimit-reset": String(second + 1),
  };
  if (used > limit) {
    served.refused += 1;
    response.writeHead(429, { ...headers, "retry-after": "1" });
  } else {
    served.ok += 1;
    response.writeHead(200, headers);
  }
  response.end("{}");
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function shardClient(share: number) {
  return new HttpClient({
    timeoutMs: 5000,
    ca: undefined,
    insecure: false,
    connections: 4,
    maxResponseBytes: 1024,
    maxRetries: 0,
    requestDeadlineMs: 5000,
    maxWaitMs: 5000,
    pacer: new RatePacer({ kind: "auto" }, undefined, undefined, undefined, share),
    secrets: new SecretValues(),
    matchOperation: (_method, url) => new URL(url).pathname.slice(1),
  });
}

/** One shard: 4 workers, each sending `each` requests in turn over three operations, with one token. */
async function shard(client: HttpClient, each: number): Promise<number> {
  let refused = 0;
  await Promise.all(
    Array.from({ length: 4 }, async (_, worker) => {
      for (let sent = 0; sent < each; sent++) {
        const path = ["getA", "getB", "listC"][(worker + sent) % 3];
        const answer = await client.send({
          method: "GET",
          url: `${origin}/${path}`,
          headers: { authorization: "Bearer shared-token" },
          retry: false,
        });
        if (answer.status === 429) refused += 1;
      }
    }),
  );
  return refused;
}

describe("two shards sharing a token", () => {
  it("pace from the target's headers to no 429 between them", async () => {
    const clients = [shardClient(2), shardClient(2)];
    try {
      // 2 × 4 × 9 = 72 requests: more than four windows' worth of the limit.
      const refused = await Promise.all(clients.map((client) => shard(client, 9)));
      expect(refused).toEqual([0, 0]);
      expect(served).toEqual({ ok: 72, refused: 0 });
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  }, 30_000);
});
