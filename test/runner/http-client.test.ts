import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Exchange } from "../../src/core/exchange.ts";
import { redactedPlaceholder, SecretValues } from "../../src/core/redact.ts";
import { HttpClient, retryAfterMs, TransportError } from "../../src/runner/http-client.ts";
import { RatePacer } from "../../src/runner/rate-pacer.ts";

let origin = "";
/** Secrets a hostile target hands out: each must be learnt and never recorded. */
const issuedToken = "t0".repeat(32);
const issuedSecret = "s3".repeat(20);
const deep = 10_000;
/** Answers of a target whose labels lie or whose bodies break, each carrying a secret (the leaks of issue 23). */
const hostileAnswers: Record<string, { readonly type: string; readonly body: string }> = {
  "json-as-text": {
    type: "text/plain",
    body: JSON.stringify({ id: 5, token: issuedToken, client: { secret: issuedSecret } }),
  },
  "token-list-as-text": {
    type: "text/plain; charset=utf-8",
    body: JSON.stringify({ data: Array.from({ length: 5 }, (_, id) => ({ id, token: issuedToken })) }),
  },
  // Cut by the client's 1024-byte cap in the middle of the token: what is kept of it is still secret.
  "cut-json": {
    type: "application/json",
    body: `{"pad":"${"x".repeat(990)}","token":"${issuedToken}"}`,
  },
  "yaml-as-text": { type: "text/plain", body: `id: 5\ntoken: ${issuedToken}\nsecret: '${issuedSecret}'\n` },
  "form-as-html": { type: "text/html", body: `access_token=${issuedToken}&token_type=bearer` },
  "deep-json": {
    type: "application/json",
    body: `${'{"a":'.repeat(deep)}{"token":"${issuedToken}"}${"}".repeat(deep)}`,
  },
};
let hits429 = 0;
/** Requests the server received, by method and path (for "was it sent at all"). */
const received: string[] = [];
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const url = new URL(request.url ?? "/", "http://x");
  received.push(`${request.method} ${url.pathname}`);
  if (url.pathname === "/slow") {
    // Answers after 150 ms: long enough for a test to interrupt the request in flight.
    setTimeout(() => {
      response.writeHead(request.method === "POST" ? 201 : 200, { "content-type": "application/json" });
      response.end('{"id":7}');
    }, 150);
    return;
  }
  if (url.pathname === "/limited") {
    hits429 += 1;
    if (hits429 <= 2) {
      response.writeHead(429, { "content-type": "application/json", "retry-after": "0" });
      response.end('{"errors":[{"reason":"Too many requests"}]}');
      return;
    }
  }
  if (url.pathname === "/big") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ data: "x".repeat(5000) }));
    return;
  }
  if (url.pathname.startsWith("/chunked/")) {
    // No content-length: the client cannot know the size before reading.
    const size = Number(url.pathname.split("/")[2]);
    response.writeHead(200, { "content-type": "application/json" });
    const text = JSON.stringify({ data: "é".repeat(size) });
    response.write(text.slice(0, 10));
    response.end(text.slice(10));
    return;
  }
  if (url.pathname === "/escaped-token") {
    // The key spelled with a JSON escape: the same "token" once parsed.
    response.writeHead(200, { "content-type": "application/json" });
    response.end(`{"id":1,"\\u0074oken":"${"e5".repeat(32)}"}`);
    return;
  }
  const hostile = hostileAnswers[url.pathname.replace(/^\/hostile\//, "")];
  if (url.pathname.startsWith("/hostile/") && hostile) {
    response.writeHead(200, { "content-type": hostile.type });
    response.end(hostile.body);
    return;
  }
  if (url.pathname === "/token") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ access_token: "a1".repeat(32), expires_in: 7200 }));
    return;
  }
  response.writeHead(200, {
    "content-type": "application/json",
    "x-echo-auth": request.headers.authorization ?? "",
  });
  response.end(JSON.stringify({ ok: true, echo: request.headers.authorization ?? null }));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client(overrides: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) {
  return new HttpClient({
    timeoutMs: 2000,
    ca: undefined,
    insecure: false,
    connections: 4,
    maxResponseBytes: 1024,
    maxRetries: 3,
    maxWaitMs: 50,
    requestDeadlineMs: 5000,
    pacer: new RatePacer({ kind: "auto" }),
    secrets: new SecretValues(),
    matchOperation: () => undefined,
    ...overrides,
  });
}

describe("runner HTTP client", () => {
  it("waits and retries 429s, recording every attempt and counting them", async () => {
    const http = client();
    const seen: Exchange[] = [];
    const answer = await http.send({ method: "GET", url: `${origin}/limited` }, (exchange) =>
      seen.push(exchange),
    );
    expect(answer.status).toBe(200);
    expect(seen.map((exchange) => exchange.response?.status)).toEqual([429, 429, 200]);
    expect(seen.map((exchange) => exchange.retries)).toEqual([0, 1, 2]);
    expect(http.retries).toBe(2);
    expect(http.rateLimited).toBe(2);
    await http.close();
  });

  it("returns a 429 at once when the caller asks not to retry", async () => {
    hits429 = 0;
    const http = client();
    const answer = await http.send({ method: "GET", url: `${origin}/limited`, retry: false });
    expect(answer.status).toBe(429);
    expect(http.retries).toBe(0);
    await http.close();
  });

  it.each([
    ["declared length, above the cap", "/big"],
    ["no declared length, above the cap", "/chunked/2000"],
  ])("fails a body above the cap as too large, recording why (%s)", async (_name, path) => {
    const http = client();
    const seen: Exchange[] = [];
    const error = await http
      .send({ method: "GET", url: `${origin}${path}` }, (e) => seen.push(e))
      .catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.code).toBe("RESPONSE_TOO_LARGE");
    expect(seen[0]?.error?.message).toMatch(/^answer too large: .*1024-byte cap \(--max-response-bytes\)/);
    await http.close();
  });

  it.each([
    ["declared length", "/echo", { ok: true, echo: null }],
    ["no declared length", "/chunked/100", { data: "é".repeat(100) }],
  ])("reads a body within the cap whole, counting its bytes (%s)", async (_name, path, json) => {
    const http = client();
    const answer = await http.send({ method: "GET", url: `${origin}${path}` });
    expect(answer.json).toEqual(json);
    expect(answer.exchange.response).toMatchObject({
      truncated: false,
      bytes: Buffer.byteLength(JSON.stringify(json)),
      text: JSON.stringify(json),
    });
    await http.close();
  });

  it("redacts a secret key written with escapes, in the answer and in a JSON request body", async () => {
    const secrets = new SecretValues();
    const http = client({ secrets, maxResponseBytes: 1_000_000 });
    const answer = await http.send({
      method: "POST",
      url: `${origin}/escaped-token`,
      body: `{"label":"x","\\u0070assword":"${"p9".repeat(8)}"}`,
      headers: { "content-type": "application/json" },
    });
    expect((answer.json as { token: string }).token).toBe("e5".repeat(32));
    expect(answer.exchange.response?.json).toEqual({ id: 1, token: redactedPlaceholder });
    expect(answer.exchange.response?.text).not.toContain("e5e5e5");
    expect(answer.exchange.request.body).toBe(`{"label":"x","password":"${redactedPlaceholder}"}`);
    expect(secrets.appearsIn(`Bearer ${"e5".repeat(32)}`)).toBe(true);
    await http.close();
  });

  it("records secrets redacted while the caller gets the live values", async () => {
    const secrets = new SecretValues();
    const http = client({ secrets, maxResponseBytes: 1_000_000 });
    const token = await http.send({
      method: "POST",
      url: `${origin}/token`,
      body: "client_secret=abcdefgh1&code=zz",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect((token.json as { access_token: string }).access_token).toBe("a1".repeat(32));
    expect(token.exchange.response?.text).not.toContain("a1a1a1");
    expect(token.exchange.request.body).not.toContain("abcdefgh1");
    // The token the target handed out is now a known secret: it is scrubbed wherever it shows up later.
    const echo = await http.send({
      method: "GET",
      url: `${origin}/echo`,
      headers: { authorization: `Bearer ${"a1".repeat(32)}` },
    });
    expect(echo.exchange.request.headers.authorization).toBe(`Bearer ${redactedPlaceholder}`);
    expect(JSON.stringify(echo.exchange)).not.toContain("a1a1a1a1");
    await http.close();
  });

  it.each([
    ["JSON labelled text/plain", "json-as-text", [issuedToken, issuedSecret]],
    ["a token list labelled text/plain", "token-list-as-text", [issuedToken]],
    ["YAML-like text", "yaml-as-text", [issuedToken, issuedSecret]],
    ["a form labelled text/html", "form-as-html", [issuedToken]],
    ["JSON nested 10,000 deep (no recursion to overflow)", "deep-json", [issuedToken]],
  ])("records %s without its secrets, learning them at once", async (_what, name, issued) => {
    const secrets = new SecretValues();
    const http = client({ secrets, maxResponseBytes: 1_000_000 });
    const answer = await http.send({ method: "GET", url: `${origin}/hostile/${name}` });
    expect(answer.exchange.error).toBeUndefined();
    const recorded = JSON.stringify(answer.exchange);
    for (const secret of issued) {
      expect(recorded).not.toContain(secret.slice(0, 12));
      expect(secrets.appearsIn(`later: ${secret}`)).toBe(true);
    }
    // The caller still reads the live body; `json` only where the label says JSON and the body is whole.
    expect(answer.text).toContain(issued[0]);
    if (name === "json-as-text") {
      expect(answer.json).toBeUndefined();
      expect(answer.parsed).toMatchObject({ id: 5, token: issuedToken });
      expect(answer.exchange.response?.json).toBeUndefined();
    }
    await http.close();
  });

  it("JSON cut by the size cap in the middle of a token: the answer fails too large and none of its body is recorded", async () => {
    const http = client({ maxResponseBytes: 1024 });
    const sent = http.send({ method: "GET", url: `${origin}/hostile/cut-json` });
    await expect(sent).rejects.toMatchObject({ code: "RESPONSE_TOO_LARGE" });
    const error = await sent.catch((thrown: TransportError) => thrown);
    expect(error.exchange.response).toBeUndefined();
    expect(JSON.stringify(error.exchange)).not.toContain(issuedToken.slice(0, 12));
    await http.close();
  });

  it("redacts a JSON request body whatever its label", async () => {
    const http = client({ maxResponseBytes: 1_000_000 });
    const answer = await http.send({
      method: "POST",
      url: `${origin}/echo`,
      body: JSON.stringify({ label: "x", root_pass: "r00t-pa55word" }),
      headers: { "content-type": "text/plain" },
    });
    expect(answer.exchange.request.body).toBe(`{"label":"x","root_pass":"${redactedPlaceholder}"}`);
    await http.close();
  });

  it("turns a refused connection into a TransportError carrying the recorded exchange", async () => {
    const http = client();
    const error = await http
      .send({ method: "GET", url: "http://127.0.0.1:9/nothing" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).exchange.response).toBeUndefined();
    expect((error as TransportError).code).toMatch(/ECONNREFUSED|UND_ERR/);
    await http.close();
  });

  it.each([
    ["an answer", `/ok`],
    ["a refused connection", undefined],
  ])("a listener that throws on %s rejects the request with its error", async (_name, path) => {
    const http = client();
    const url = path === undefined ? "http://127.0.0.1:9/nothing" : `${origin}${path}`;
    const fault = new Error("the judge broke");
    const error = await http
      .send({ method: "GET", url }, () => {
        throw fault;
      })
      .catch((caught: unknown) => caught);
    expect(error).toBe(fault);
    await http.close();
  });

  it.each([
    ["3", 3000],
    ["0", 0],
    ["soon", undefined],
    [undefined, undefined],
  ])("reads Retry-After %j as %j ms", (value, expected) => {
    expect(retryAfterMs(value, Date.now())).toBe(expected);
  });

  it.each([
    ["a write in flight is let finish, so what it created reaches the cleanup ledger", "POST", 201],
    ["a read in flight is cancelled", "GET", "ABORTED"],
  ])("on interruption, %s", async (_name, method, expected) => {
    const http = client();
    const controller = new AbortController();
    const sent = http.send({
      method,
      url: `${origin}/slow`,
      body: method === "POST" ? "{}" : undefined,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 30);
    const outcome = await sent.then(
      (answer) => answer.status,
      (error: unknown) => (error instanceof TransportError ? error.code : error),
    );
    expect(outcome).toBe(expected);
    await http.close();
  });

  it("sends nothing once the run is interrupted", async () => {
    const http = client();
    const controller = new AbortController();
    controller.abort();
    const before = received.length;
    const seen: Exchange[] = [];
    const error = await http
      .send(
        { method: "POST", url: `${origin}/after-abort`, body: "{}", signal: controller.signal },
        (exchange) => seen.push(exchange),
      )
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe("ABORTED");
    expect(seen.map((exchange) => exchange.error?.code)).toEqual(["ABORTED"]);
    expect(received.slice(before)).toEqual([]);
    await http.close();
  });

  it("reads an HTTP-date Retry-After", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5000);
  });
});
