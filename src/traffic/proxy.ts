/**
 * `conform proxy --target URL`: listens on loopback and forwards every request to the target untouched (method,
 * path and query, headers but the hop-by-hop ones, the body byte for byte; redirects, HEAD and CORS preflights
 * passed through, the answer's status, headers and bytes handed back as they came), and judges each exchange as
 * it completes with the per-exchange checks and the observed judgements (`session.ts`), the token told apart by a
 * digest of it and redacted like a run's. Plain HTTP, or HTTPS with a certificate of its own (`httpsCertFile`);
 * an HTTPS target is trusted through `--ca` (or `--insecure`). It ends when its signal aborts (SIGINT, SIGTERM) or
 * at its time limit (`--max-time`): the session's verdict is what it judged. Every `reportEveryMs` the session emits
 * a `run-snapshot` of what it judged so far, from which the reporters write their reports while it runs.
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { ConfigError, RunTimedOut } from "../core/errors.ts";
import type { RunFinished } from "../core/events.ts";
import type { RunConfig } from "../runner/config.ts";
import { EventBus } from "../runner/event-bus.ts";
import { type RunOptions, runSignal, selectChecks } from "../runner/run.ts";
import { loadSpec } from "../spec/load.ts";
import { proxyCertificate } from "./proxy-certificate.ts";
import { callerOf, ExchangeRecorder } from "./record.ts";
import { TrafficSession } from "./session.ts";

/** The suite id of a proxy's traffic. */
export const proxySourceId = "proxy";

/** Headers of one connection, never forwarded (RFC 9110 §7.6.1), and what undici sets itself. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
]);

export interface ProxyOptions extends RunOptions {
  /** The API's origin, with the path the proxy's paths go under (`https://api.example.net`). */
  readonly target: string;
  /** Loopback only; default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** Serve HTTPS with a certificate of its own, written (PEM) to this file for the clients to trust. */
  readonly httpsCertFile?: string;
  /** Told the proxy's own URL once it listens. */
  readonly onListening?: (url: string) => void;
  /** Every this many ms, a `run-snapshot` of what was judged so far (the reports written while it runs). */
  readonly reportEveryMs?: number;
  /** Told each exchange as it is judged (a count for a progress line). */
  readonly onExchange?: (judged: number) => void;
}

function isLoopbackHost(host: string): boolean {
  return /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1" || host === "localhost";
}

function forwardedHeaders(incoming: IncomingMessage): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || hopByHop.has(name)) continue;
    out[name] = value;
  }
  return out;
}

function flat(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * What is judged of an answer: the whole body, or past `maxBytes` (`--max-response-bytes`) only its first part,
 * marked cut (the client still gets every byte; the checks skip what a cut body cannot show).
 */
function recordedAnswer(status: number, headers: Record<string, string>, body: Buffer, maxBytes: number) {
  if (body.length <= maxBytes) return { status, headers, body: body.toString("utf8") };
  return { status, headers, body: body.subarray(0, maxBytes).toString("utf8"), bytes: body.length };
}

async function readAll(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function runProxy(config: RunConfig, options: ProxyOptions): Promise<RunFinished> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host)) throw new ConfigError(`--host ${host}: the proxy listens on loopback only`);
  let target: URL;
  try {
    target = new URL(options.target);
  } catch {
    throw new ConfigError(`--target ${options.target}: not a URL`);
  }
  const targetBase = target.href.replace(/\/$/, "");
  const checks = selectChecks(config.checks, config.excludeChecks);
  const spec = await loadSpec(config.specPath);
  const bus = new EventBus();
  for (const listener of options.listeners) bus.subscribe(listener);
  const recorder = new ExchangeRecorder(spec);
  const session = new TrafficSession(
    {
      secrets: recorder.secrets,
      runId: options.runId,
      spec,
      checks,
      bus,
      target: targetBase,
      toolVersion: options.toolVersion,
      keptBodyBytes: config.keptBodyBytes,
      keptReportBytes: config.keptReportBytes,
    },
    [{ id: proxySourceId, title: `traffic through the proxy to ${targetBase}` }],
  );
  const agent = new Agent({
    connect: {
      ...(config.caFile ? { ca: readFileSync(config.caFile, "utf8") } : {}),
      ...(config.insecure ? { rejectUnauthorized: false } : {}),
    },
  });
  let judged = 0;

  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const startedAt = Date.now();
    const started = performance.now();
    const body = await readAll(incoming);
    const method = incoming.method ?? "GET";
    const url = `${targetBase}${incoming.url ?? "/"}`;
    const headers = forwardedHeaders(incoming);
    const requestHeaders = flat(headers);
    // Every credential the client sent, the hop-by-hop Proxy-Authorization too (not forwarded, not recorded).
    recorder.learnHeaders(flat(incoming.headers));
    const requestBody = body.length > 0 ? body.toString("utf8") : undefined;
    let headersMs = 0;
    try {
      const answer = await request(url, {
        method: method as "GET",
        headers,
        body: body.length > 0 ? body : undefined,
        dispatcher: agent,
      });
      headersMs = performance.now() - started;
      const responseBody = Buffer.from(await answer.body.arrayBuffer());
      const responseHeaders: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        // The length is the target's: the bytes are handed back as they came (and a HEAD answer keeps it).
        if (value !== undefined && (name === "content-length" || !hopByHop.has(name)))
          responseHeaders[name] = value;
      }
      outgoing.writeHead(answer.statusCode, responseHeaders);
      outgoing.end(method.toUpperCase() === "HEAD" ? undefined : responseBody);
      session.add(
        proxySourceId,
        recorder.record({
          method,
          url,
          requestHeaders,
          requestBody,
          response: recordedAnswer(
            answer.statusCode,
            flat(answer.headers),
            responseBody,
            config.maxResponseBytes,
          ),
          startedAt,
          headersMs,
          totalMs: performance.now() - started,
        }),
        callerOf(requestHeaders),
      );
    } catch (error) {
      const code = (error as { code?: string }).code ?? "TRANSPORT";
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(`conform proxy: the target did not answer (${code})\n`);
      session.add(
        proxySourceId,
        recorder.record({
          method,
          url,
          requestHeaders,
          requestBody,
          response: undefined,
          error: { code, message: (error as Error).message },
          startedAt,
          headersMs,
          totalMs: performance.now() - started,
        }),
      );
    }
    judged += 1;
    options.onExchange?.(judged);
  };

  const listener = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    handle(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
      bus.emit({ type: "warning", message: `proxy: ${(error as Error).message}` });
    });
  };
  let scheme = "http";
  let server: ReturnType<typeof createServer>;
  if (options.httpsCertFile !== undefined) {
    const own = await proxyCertificate(host);
    try {
      writeFileSync(options.httpsCertFile, own.cert, { mode: 0o644 });
    } catch (error) {
      throw new ConfigError(
        `--https: ${options.httpsCertFile} cannot be written (${(error as NodeJS.ErrnoException).code ?? error})`,
      );
    }
    server = createHttpsServer({ cert: own.cert, key: own.key }, listener) as unknown as ReturnType<
      typeof createServer
    >;
    scheme = "https";
  } else server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  options.onListening?.(`${scheme}://${shown}:${address.port}`);
  const limited = runSignal(options.signal, config.maxTimeMs);
  // A snapshot is not taken while the previous one is still being written (a slow disk, a short period): that tick
  // is skipped, so the reports are never written over each other nor queued up behind a slow write.
  let writing = false;
  const snapshots =
    options.reportEveryMs === undefined
      ? undefined
      : setInterval(() => {
          if (writing) return;
          writing = true;
          session.snapshot();
          // A listener's failure is kept by the bus and thrown by the last flush; a snapshot's is told by its line.
          bus
            .flush()
            .catch(() => undefined)
            .finally(() => {
              writing = false;
            });
        }, options.reportEveryMs);
  try {
    await new Promise<void>((resolve) => {
      if (limited.signal.aborted) resolve();
      else limited.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  } finally {
    clearInterval(snapshots);
    limited.stop();
  }
  const reason: unknown = limited.signal.reason;
  if (reason instanceof RunTimedOut)
    bus.emit({
      type: "warning",
      message: `the proxy reached its time limit of ${reason.limitMs} ms (--max-time): it stops and writes the reports of what it judged`,
    });
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await agent.close();
  const finished = session.finish(limited.signal);
  await bus.flush();
  return finished;
}
