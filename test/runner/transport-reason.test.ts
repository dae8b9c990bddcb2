import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import { TransportError } from "../../src/runner/http-client.ts";
import { transportReason } from "../../src/runner/transport-reason.ts";
import { closeServer, listenOnLoopback, testClient } from "../helpers/loopback.ts";
import { runSuites } from "../helpers/run-suites.ts";

/** An error as undici hands it over, optionally wrapping a cause. */
function failure(message: string, code?: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), code ? { code } : {});
}

const openSslWrongVersion =
  "40ED0C40C47F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/openssl/openssl/ssl/record/methods/tlsany_meth.c:77:\n";

describe("transportReason", () => {
  it.each<[string, unknown, string | RegExp]>([
    [
      "an https URL on a plain-HTTP port (OpenSSL's code)",
      failure(openSslWrongVersion, "ERR_SSL_WRONG_VERSION_NUMBER"),
      "the target does not speak TLS there (is it plain HTTP? then use http:// in the URL)",
    ],
    [
      "the same, wrapped by the client without the code",
      failure("fetch failed", undefined, failure(openSslWrongVersion)),
      "the target does not speak TLS there (is it plain HTTP? then use http:// in the URL)",
    ],
    [
      "an untrusted certificate, without Node's --use-system-ca hint",
      failure(
        "self-signed certificate; if the root CA is installed locally, try running Node.js with --use-system-ca",
        "DEPTH_ZERO_SELF_SIGNED_CERT",
      ),
      /^self-signed certificate \(its TLS certificate is not trusted: give --ca FILE .* or --insecure\)$/,
    ],
    [
      "a refused connection says nothing listens there",
      Object.assign(failure("connect ECONNREFUSED 127.0.0.1:9", "ECONNREFUSED"), {
        address: "127.0.0.1",
        port: 9,
      }),
      "connection refused: nothing listens at 127.0.0.1:9",
    ],
    [
      "a connection the target closed",
      failure("other side closed", "UND_ERR_SOCKET"),
      "the target closed the connection before its answer ended (other side closed)",
    ],
    [
      "a host not found",
      Object.assign(failure("getaddrinfo ENOTFOUND api.invalid", "ENOTFOUND"), { hostname: "api.invalid" }),
      "the host api.invalid is not found (DNS)",
    ],
    [
      "a bound without the bounds to name: undici's words",
      failure("Body Timeout Error", "UND_ERR_BODY_TIMEOUT"),
      "Body Timeout Error",
    ],
    [
      "a message over several lines, on one line",
      failure("first line\n  second line\n"),
      "first line second line",
    ],
  ])("%s", (_name, error, reason) => {
    const said = transportReason(error);
    expect(said).not.toContain("\n");
    if (typeof reason === "string") expect(said).toBe(reason);
    else expect(said).toMatch(reason);
  });

  const bounds = { timeoutMs: 30_000, requestDeadlineMs: 60_000 };
  it.each<[string, unknown, string]>([
    [
      "a body silent for --timeout (undici's UND_ERR_BODY_TIMEOUT)",
      failure("Body Timeout Error", "UND_ERR_BODY_TIMEOUT"),
      "the answer's body stalled: nothing came for 30 s (--timeout: the longest silence while reading a body; --request-deadline, 60 s, bounds the whole body); reading stopped",
    ],
    [
      "no headers within --timeout",
      failure("Headers Timeout Error", "UND_ERR_HEADERS_TIMEOUT"),
      "no answer: its headers did not come within 30 s (--timeout)",
    ],
    [
      "no connection within --timeout",
      failure("Connect Timeout Error", "UND_ERR_CONNECT_TIMEOUT"),
      "could not connect within 30 s (--timeout)",
    ],
    [
      "the whole request's timer",
      Object.assign(new Error("The operation was aborted due to timeout"), { name: "TimeoutError" }),
      "no whole answer within 90 s (--timeout for the headers plus --request-deadline for the body)",
    ],
  ])("names the bound that fired and its option: %s", (_name, error, reason) => {
    expect(transportReason(error, bounds)).toBe(reason);
  });
});

/**
 * A tiny deliberately stalling target: its answers stop after the headers, or never start, or are cut. What the
 * client and a run say of each names the bound and its option, never only undici's code.
 */
describe("transport failures against a stalling target", () => {
  /** Requests to answer whole before the bodies stall: a run's start (the base URL, its public list, the token). */
  let answered = 0;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (answered > 0) {
      answered -= 1;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ data: [], page: 1, pages: 1, results: 0 }));
    } else if (path.endsWith("/no-headers")) {
      // Nothing at all: the headers never come.
    } else if (path.endsWith("/cut")) {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"data":');
      setTimeout(() => response.socket?.destroy(), 20);
    } else {
      // Headers and the start of a body, then silence.
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"data":[');
    }
  });
  let origin = "";
  let closedPort = 0;
  beforeAll(async () => {
    origin = await listenOnLoopback(server);
    // A port that was just free and is closed again: nothing listens there.
    const probe = createServer();
    closedPort = Number(new URL(await listenOnLoopback(probe)).port);
    await closeServer(probe);
  });
  afterAll(() => closeServer(server));

  const client = () => testClient({ timeoutMs: 300 });

  it.each<[string, () => string, string, RegExp]>([
    [
      "a body that stalls after the headers",
      () => `${origin}/v4/stall`,
      "UND_ERR_BODY_TIMEOUT",
      /^the answer's body stalled: nothing came for 300 ms \(--timeout: .*; --request-deadline, 5 s, bounds the whole body\); reading stopped$/,
    ],
    [
      "headers that never come",
      () => `${origin}/v4/no-headers`,
      "UND_ERR_HEADERS_TIMEOUT",
      /^no answer: its headers did not come within 300 ms \(--timeout\)$/,
    ],
    [
      "a connection closed in the middle of the body",
      () => `${origin}/v4/cut`,
      "UND_ERR_SOCKET",
      /^the target closed the connection before its answer ended \(.+\)$/,
    ],
    [
      "a closed port",
      () => `http://127.0.0.1:${closedPort}/v4/regions`,
      "ECONNREFUSED",
      /^connection refused: nothing listens at 127\.0\.0\.1:\d+$/,
    ],
  ])("the client says %s in words, the code kept", async (_name, url, code, reason) => {
    const http = client();
    try {
      const error = await http.send({ method: "GET", url: url() }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(TransportError);
      const { exchange } = error as TransportError;
      expect(exchange.error).toEqual({ code, message: expect.stringMatching(reason) });
      expect((error as TransportError).message).toMatch(new RegExp(`: .+ \\(${code}\\)$`));
    } finally {
      await http.close();
    }
  });

  it("a run whose answers stall after its start: the case's error names --timeout", async () => {
    answered = 3;
    const run = await runSuites({
      baseUrl: `${origin}/v4`,
      token: "stub-token",
      suites: ["versioning"],
      timeoutMs: 300,
    });
    const errors = run.events
      .filter((event): event is CaseFinished => event.type === "case-finished")
      .map((event) => event.error?.message ?? "");
    expect(
      errors.some((message) => /body stalled: nothing came for 300 ms \(--timeout: /.test(message)),
    ).toBe(true);
  });
});
