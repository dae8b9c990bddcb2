/**
 * `conform proxy --target URL`: listens on loopback and forwards every request to the target untouched (method,
 * path and query, headers but the hop-by-hop ones, the body byte for byte; redirects, HEAD and CORS preflights
 * passed through, the answer's status, headers and bytes handed back as they came), and judges each exchange as
 * it completes with the per-exchange checks and the observed judgements (`session.ts`), the token told apart by a
 * digest of it and redacted like a run's. Both ways are streamed, so neither an endless answer nor a big upload grows
 * it: what is judged is each body's first `maxResponseBytes` (`maxRequestBytes` for a request), marked cut beyond
 * (the client and the target still get every byte); an answer not over `requestDeadlineMs` after its headers is
 * cut for both (a `REQUEST_DEADLINE` transport failure), and a target slower than `timeoutMs` to answer fails the
 * same way a run's request does. Stopping abandons the exchanges in flight at once (unjudged). Plain HTTP, or HTTPS with a certificate of its own (`httpsCertFile`);
 * an HTTPS target is trusted through `--ca` (or `--insecure`). It ends when its signal aborts (SIGINT, SIGTERM) or
 * at its time limit (`--max-time`): the session's verdict is what it judged. Every `reportEveryMs` the session emits
 * a `run-snapshot` of what it judged so far, from which the reporters write their reports while it runs.
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Agent, type Dispatcher, request } from "undici";
import { callerOf } from "../core/caller.ts";
import { ConfigError, RunTimedOut } from "../core/errors.ts";
import type { RunFinished } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import { flatHeaders } from "../core/recorder.ts";
import type { RunConfig } from "../runner/config.ts";
import { EventBus } from "../runner/event-bus.ts";
import { type RunOptions, runSignal, selectChecks } from "../runner/run.ts";
import { loadSpec } from "../spec/load.ts";
import type { ApiSpec } from "../spec/types.ts";
import { Confirmer, confirmationsSource } from "./confirm.ts";
import { proxyCertificate } from "./proxy-certificate.ts";
import { ExchangeRecorder, type ObservedExchange, trafficMatcher } from "./record.ts";
import { TrafficSession, type TrafficSource } from "./session.ts";

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
  /** The most of a request body kept for judging (every byte is forwarded); default the answer's cap. */
  readonly maxRequestBytes?: number;
  /**
   * `--confirm`: the proxy may send its own read-only requests (at most `max`) to judge what it saw
   * (`confirm.ts`). Without it the proxy sends nothing of its own.
   */
  readonly confirm?: { readonly max: number };
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

/** The first `cap` bytes of a body as it streams by, and how many went by: what is judged of it. */
class KeptBytes {
  readonly #cap: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  total = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.#kept >= this.#cap) return;
    const part = chunk.length <= this.#cap - this.#kept ? chunk : chunk.subarray(0, this.#cap - this.#kept);
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  get cut(): boolean {
    return this.total > this.#kept;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
  }
}

/** A request's body, forwarded as it comes while its first part is kept; undefined when it has none. */
function forwardedBody(incoming: IncomingMessage, kept: KeptBytes): Readable | undefined {
  const length = incoming.headers["content-length"];
  if ((length === undefined || length === "0") && incoming.headers["transfer-encoding"] === undefined)
    return undefined;
  return Readable.from(
    (async function* () {
      for await (const chunk of incoming) {
        kept.add(chunk as Buffer);
        yield chunk as Buffer;
      }
    })(),
    { objectMode: false },
  );
}

/** A bound of the proxy ended an exchange: its code and words, as a run's client says them. */
class ProxyBoundHit extends Error {
  readonly code = "REQUEST_DEADLINE";
}

/**
 * Hands the answer to the client as it comes (its status, headers and bytes), keeping its first part to judge.
 * Ended by the deadline after its headers (ProxyBoundHit, the client's answer cut too); a client that goes away
 * stops the read (what came is judged, marked cut).
 */
async function relayAnswer(
  answer: Dispatcher.ResponseData,
  outgoing: ServerResponse,
  config: Pick<RunConfig, "maxResponseBytes" | "requestDeadlineMs">,
) {
  const responseHeaders: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    // The length is the target's: the bytes are handed back as they came (and a HEAD answer keeps it).
    if (value !== undefined && (name === "content-length" || !hopByHop.has(name)))
      responseHeaders[name] = value;
  }
  outgoing.writeHead(answer.statusCode, responseHeaders);
  const kept = new KeptBytes(config.maxResponseBytes);
  let late: ProxyBoundHit | undefined;
  const deadline = setTimeout(() => {
    late = new ProxyBoundHit(
      `the answer did not end within ${config.requestDeadlineMs} ms of its headers (--request-deadline); the proxy cut it`,
    );
    answer.body.destroy(late);
  }, config.requestDeadlineMs);
  let clientGone = false;
  try {
    await pipeline(
      answer.body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          kept.add(chunk);
          yield chunk;
        }
      },
      outgoing,
    );
  } catch (error) {
    if (late) throw late;
    if (!outgoing.destroyed || outgoing.writableFinished) throw error;
    clientGone = true;
  } finally {
    clearTimeout(deadline);
  }
  const status = answer.statusCode;
  const body = kept.text();
  const headers = flatHeaders(answer.headers);
  return kept.cut || clientGone ? { status, headers, body, bytes: kept.total } : { status, headers, body };
}

export async function runProxy(config: RunConfig, options: ProxyOptions): Promise<RunFinished> {
  const { host, targetBase } = proxyPlace(options);
  const checks = selectChecks(config.checks, config.excludeChecks);
  const spec = await loadSpec(config.specPath);
  const bus = new EventBus();
  for (const listener of options.listeners) bus.subscribe(listener);
  const recorder = new ExchangeRecorder(spec);
  const sources: TrafficSource[] = [
    { id: proxySourceId, title: `traffic through the proxy to ${targetBase}` },
    ...(options.confirm ? [confirmationsSource] : []),
  ];
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
    sources,
  );
  const confirmer = options.confirm && confirmerOf(options.confirm.max, config, spec, recorder, session, bus);
  const forwarder = new Forwarder(config, options, targetBase, recorder, session, bus, confirmer);
  const server = await listen(options, host, forwarder.listener);
  const limited = runSignal(options.signal, config.maxTimeMs);
  const stopSnapshots = snapshotsEvery(options.reportEveryMs, session, bus);
  try {
    await abortOf(limited.signal);
  } finally {
    stopSnapshots();
    limited.stop();
  }
  const reason: unknown = limited.signal.reason;
  if (reason instanceof RunTimedOut)
    bus.emit({
      type: "warning",
      message: `the proxy reached its time limit of ${reason.limitMs} ms (--max-time): it stops and writes the reports of what it judged`,
    });
  // Within its bound: the exchanges in flight are abandoned (a target stalling or streaming without end must not
  // hold it), then the server closes.
  server.closeAllConnections();
  // The confirmations first: a client's write held for them goes on at once.
  await confirmer?.stop();
  await forwarder.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const finished = session.finish(limited.signal);
  await bus.flush();
  return finished;
}

/** `--confirm`'s sender: what it sends is judged in the session as `confirmations`, under the recorder's ids. */
function confirmerOf(
  max: number,
  config: RunConfig,
  spec: ApiSpec,
  recorder: ExchangeRecorder,
  session: TrafficSession,
  bus: EventBus,
): Confirmer {
  return new Confirmer({
    spec,
    config,
    max,
    secrets: recorder.secrets,
    matchOperation: trafficMatcher(spec),
    judge: (exchange, caller) => session.add(confirmationsSource.id, recorder.adopt(exchange), caller),
    emit: (event) => bus.emit(event),
    note: (line) => session.note(confirmationsSource.id, line),
  });
}

/** Where the proxy listens (loopback only) and the target's base it forwards to; a usage error otherwise. */
function proxyPlace(options: ProxyOptions): { host: string; targetBase: string } {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host)) throw new ConfigError(`--host ${host}: the proxy listens on loopback only`);
  let target: URL;
  try {
    target = new URL(options.target);
  } catch {
    throw new ConfigError(`--target ${options.target}: not a URL`);
  }
  return { host, targetBase: target.href.replace(/\/$/, "") };
}

/** Resolves when `signal` aborts (at once if it has). */
function abortOf(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * Every `everyMs`, a `run-snapshot` of what was judged so far; answers how to stop them. A snapshot is not taken
 * while the previous one is still being written (a slow disk, a short period): that tick is skipped, so the reports
 * are never written over each other nor queued up behind a slow write.
 */
function snapshotsEvery(everyMs: number | undefined, session: TrafficSession, bus: EventBus): () => void {
  if (everyMs === undefined) return () => {};
  let writing = false;
  const timer = setInterval(() => {
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
  }, everyMs);
  return () => clearInterval(timer);
}

type HttpServer = ReturnType<typeof createServer>;

/** The proxy's server, listening: plain HTTP, or HTTPS with a certificate of its own written for the clients. */
async function listen(
  options: ProxyOptions,
  host: string,
  listener: (incoming: IncomingMessage, outgoing: ServerResponse) => void,
): Promise<HttpServer> {
  let scheme = "http";
  let server: HttpServer;
  if (options.httpsCertFile !== undefined) {
    const own = await proxyCertificate(host);
    try {
      writeFileSync(options.httpsCertFile, own.cert, { mode: 0o644 });
    } catch (error) {
      throw new ConfigError(
        `--https: ${options.httpsCertFile} cannot be written (${(error as NodeJS.ErrnoException).code ?? error})`,
      );
    }
    server = createHttpsServer({ cert: own.cert, key: own.key }, listener) as unknown as HttpServer;
    scheme = "https";
  } else server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    // A port taken or refused is the user's to change: one line, no stack.
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new ConfigError(
          `--port ${options.port ?? 0} on ${host}: cannot listen (${error.code ?? error.message})`,
        ),
      ),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  options.onListening?.(`${scheme}://${shown}:${address.port}`);
  return server;
}

/**
 * Forwards each request to the target and hands its answer back as it streams, then records the exchange and
 * judges it in the session. Stopping abandons what is in flight: an exchange cut by the proxy itself is not judged.
 */
class Forwarder {
  readonly #config: RunConfig;
  readonly #options: ProxyOptions;
  readonly #targetBase: string;
  readonly #recorder: ExchangeRecorder;
  readonly #session: TrafficSession;
  readonly #bus: EventBus;
  readonly #confirmer: Confirmer | undefined;
  readonly #agent: Agent;
  readonly #maxRequestBytes: number;
  readonly #inFlight = new Set<Promise<void>>();
  #judged = 0;
  /** Set once it stops: an exchange it abandons then is its own doing, not the target's, and is not judged. */
  #stopping = false;

  constructor(
    config: RunConfig,
    options: ProxyOptions,
    targetBase: string,
    recorder: ExchangeRecorder,
    session: TrafficSession,
    bus: EventBus,
    confirmer: Confirmer | undefined,
  ) {
    this.#config = config;
    this.#confirmer = confirmer;
    this.#options = options;
    this.#targetBase = targetBase;
    this.#recorder = recorder;
    this.#session = session;
    this.#bus = bus;
    this.#maxRequestBytes = options.maxRequestBytes ?? config.maxResponseBytes;
    this.#agent = new Agent({
      connectTimeout: config.timeoutMs,
      headersTimeout: config.timeoutMs,
      bodyTimeout: config.timeoutMs,
      connect: {
        ...(config.caFile ? { ca: readFileSync(config.caFile, "utf8") } : {}),
        ...(config.insecure ? { rejectUnauthorized: false } : {}),
      },
    });
  }

  readonly listener = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const handled = this.#handle(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
      this.#bus.emit({ type: "warning", message: `proxy: ${(error as Error).message}` });
    });
    this.#inFlight.add(handled);
    void handled.finally(() => this.#inFlight.delete(handled));
  };

  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#agent.destroy();
    await Promise.allSettled([...this.#inFlight]);
  }

  async #handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const startedAt = Date.now();
    const started = performance.now();
    const method = incoming.method ?? "GET";
    const url = `${this.#targetBase}${incoming.url ?? "/"}`;
    const headers = forwardedHeaders(incoming);
    const requestHeaders = flatHeaders(headers);
    // Every credential the client sent, the hop-by-hop Proxy-Authorization too (not forwarded, not recorded).
    this.#recorder.learnHeaders(flatHeaders(incoming.headers));
    const sentKept = new KeptBytes(this.#maxRequestBytes);
    const body = forwardedBody(incoming, sentKept);
    // A streamed body keeps the length the client declared (undici would otherwise send it chunked).
    const length = incoming.headers["content-length"];
    if (body && length !== undefined) headers["content-length"] = length;
    let headersMs = 0;
    const observed = (rest: Pick<ObservedExchange, "response" | "error">): ObservedExchange => ({
      method,
      url,
      requestHeaders,
      requestBody: sentKept.total > 0 ? sentKept.text() : undefined,
      ...rest,
      startedAt,
      headersMs,
      totalMs: performance.now() - started,
    });
    // A client's write waits for the confirmations in flight and none starts while it is (ended once, either way).
    await this.#confirmer?.clientStarting(method);
    let open = true;
    const ended = () => {
      if (open) this.#confirmer?.clientEnded(method);
      open = false;
    };
    try {
      const answer = await request(url, { method: method as "GET", headers, body, dispatcher: this.#agent });
      headersMs = performance.now() - started;
      const response = await relayAnswer(answer, outgoing, this.#config);
      ended();
      if (this.#stopping) return;
      const exchange = this.#judge(observed({ response }), callerOf(requestHeaders));
      this.#confirmer?.afterClient(exchange, requestHeaders);
    } catch (error) {
      ended();
      if (this.#stopping) return;
      const code = (error as { code?: string }).code ?? "TRANSPORT";
      if (!outgoing.headersSent) {
        outgoing.writeHead(502, { "content-type": "text/plain" });
        outgoing.end(`conform proxy: the target did not answer (${code})\n`);
      } else outgoing.destroy();
      const message = (error as Error).message;
      this.#judge(observed({ response: undefined, error: { code, message } }), undefined);
    }
  }

  #judge(observed: ObservedExchange, caller: string | undefined): Exchange {
    const exchange = this.#recorder.record(observed);
    this.#session.add(proxySourceId, exchange, caller);
    this.#judged += 1;
    this.#options.onExchange?.(this.#judged);
    return exchange;
  }
}
