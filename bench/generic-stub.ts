/**
 * A stub target for section 9: any description's paths answered on loopback without judging the request (a list
 * `{data, page, pages, results}`, an item, a create's `{id}`, an update, a 204 delete), behind one fixed-window
 * rate limit with `X-RateLimit-*` headers (windows aligned to whole seconds, as `Reset` is; 429 with `Retry-After`
 * beyond it). It measures what the generic layer costs, not what it finds: what the requests meant and how a real
 * validating mock answers them are the Prism trials' (docs/generic-layer.md).
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubOptions {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Window length, whole seconds. */
  readonly windowSeconds: number;
}

export interface StubTarget {
  readonly baseUrl: string;
  /** Requests answered within the limit (not 429). */
  counted(): number;
  /** Requests answered 429. */
  refused(): number;
  close(): Promise<void>;
}

/** A path's last segment names an item when it looks like a value rather than a collection's name. */
const isItem = (segment: string) => /^\d+$|^[0-9a-f-]{8,}$/i.test(segment) || /[^a-z-]/.test(segment);

function answerFor(method: string, path: string, nextId: () => number): { status: number; body?: unknown } {
  const last = path.split("/").filter(Boolean).at(-1) ?? "";
  const item = isItem(last);
  if (method === "GET" && !item) {
    const data = [1, 2, 3].map((id) => ({ id, label: `item-${id}` }));
    return { status: 200, body: { data, page: 1, pages: 1, results: data.length } };
  }
  if (method === "GET") return { status: 200, body: { id: Number(last) || last, label: "item" } };
  if (method === "POST") return item ? { status: 202, body: {} } : { status: 201, body: { id: nextId() } };
  if (method === "DELETE") return { status: 204 };
  return { status: 200, body: { id: Number(last) || last } };
}

/** Starts the stub on 127.0.0.1 (port 0). */
export async function startStubTarget(options: StubOptions): Promise<StubTarget> {
  let counted = 0;
  let refused = 0;
  let id = 1000;
  let window = -1;
  let used = 0;
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on("end", () => {
      const nowSeconds = Date.now() / 1000;
      const current = Math.floor(nowSeconds / options.windowSeconds);
      if (current !== window) {
        window = current;
        used = 0;
      }
      const reset = (current + 1) * options.windowSeconds;
      const headers: Record<string, string> = {
        "x-ratelimit-limit": String(options.limit),
        "x-ratelimit-reset": String(reset),
      };
      if (used >= options.limit) {
        refused += 1;
        headers["retry-after"] = String(Math.max(1, Math.ceil(reset - nowSeconds)));
        headers["x-ratelimit-remaining"] = "0";
        response.writeHead(429, { ...headers, "content-type": "application/json" });
        response.end(JSON.stringify({ errors: [{ reason: "Too many requests" }] }));
        return;
      }
      used += 1;
      counted += 1;
      headers["x-ratelimit-remaining"] = String(options.limit - used);
      const path = new URL(request.url ?? "/", "http://stub").pathname;
      const answer = answerFor(request.method ?? "GET", path, () => ++id);
      if (answer.body === undefined) {
        response.writeHead(answer.status, headers);
        response.end();
        return;
      }
      response.writeHead(answer.status, { ...headers, "content-type": "application/json" });
      response.end(JSON.stringify(answer.body));
    });
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    counted: () => counted,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
