/**
 * Reaching a load balancer itself (its data plane), for the cases tagged `data-plane`: does a profile's port
 * accept connections, which back-end answers a request sent through it, which certificate its TLS handshake
 * presents.
 *
 * Where to connect: on the embedded server, and on a loopback target run with `--data-plane`, a balancer's
 * public 198.18.X.Y stands for the loopback 127.18.X.Y (the reference server's sandbox network, docs/contracts.md;
 * written from there, not imported from `src/reference/`); on any other target run with `--data-plane`, the
 * address the target reports. A stand-in serves a port below 1024 20000 higher ({@link endpointOf}). Without `--data-plane` a base-URL target is never connected to, and the cases skip
 * with the reason. Every connection is bounded in time and in bytes read.
 * @module
 */
import { X509Certificate } from "node:crypto";
import { isIP, type Socket, connect as tcpConnect } from "node:net";
import { type TLSSocket, connect as tlsConnect } from "node:tls";
import { isLoopbackTarget } from "../runner/listen-drivers/index.ts";
import type { CaseContext } from "../runner/suite-api.ts";

/** The header a back-end of the `reference` listen driver names itself with (its node label). */
export const backendHeader = "x-conform-node";

const maxAnswerBytes = 64 * 1024;
const defaultTimeoutMs = 5_000;

export interface DataPlane {
  /** Why the balancer cannot be reached in this run (the case skips with it), or undefined. */
  readonly unavailable: string | undefined;
  /** The host to connect to for a balancer address as the target reports it. */
  hostFor(ipv4: string): string | undefined;
}

/** The sandbox rule: 198.18.X.Y -> 127.18.X.Y. */
export function balancerStandIn(ipv4: string): string | undefined {
  const match = /^198\.18\.(\d{1,3})\.(\d{1,3})$/.exec(ipv4);
  if (!match || Number(match[1]) > 255 || Number(match[2]) > 255) return undefined;
  return `127.18.${match[1]}.${match[2]}`;
}

/**
 * Where a port of a balancer is reached: on a loopback stand-in (127.18.X.Y) a port below 1024 is served 20000
 * higher (80 at 20080: binding it needs privileges), elsewhere the port itself.
 */
export function endpointOf(host: string, port: number): { readonly host: string; readonly port: number } {
  return { host, port: host.startsWith("127.18.") && port < 1024 ? port + 20000 : port };
}

/** How this run reaches load balancers (`suiteOptions.dataPlane`, set by `--data-plane`). */
export function dataPlane(t: CaseContext): DataPlane {
  const optedIn = t.options.dataPlane === true;
  if (!t.target.embedded && !optedIn) {
    return {
      unavailable: `data-plane cases connect to the load balancer itself: pass --data-plane to run them against ${t.target.baseUrl}`,
      hostFor: () => undefined,
    };
  }
  const sandbox = isLoopbackTarget(t.target);
  return {
    unavailable: undefined,
    hostFor: (ipv4) => (sandbox ? balancerStandIn(ipv4) : isIP(ipv4) === 4 ? ipv4 : undefined),
  };
}

/** What one connection through a balancer got. */
export interface PlaneAnswer {
  /** The connection was accepted. */
  readonly connected: boolean;
  /** The HTTP status the back-end answered, when an answer came. */
  readonly status: number | undefined;
  /** The back-end that answered (its `X-Conform-Node` header), when it says. */
  readonly backend: string | undefined;
  /** What happened, for the log and failure messages. */
  readonly summary: string;
}

function settle<T extends Socket>(socket: T, timeoutMs: number, onConnect: (socket: T) => void) {
  return new Promise<{ connected: boolean; text: string; error?: string }>((resolve) => {
    let connected = false;
    let text = "";
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ connected, text, ...(error ? { error } : {}) });
    };
    socket.setTimeout(timeoutMs, () => finish(`no answer within ${timeoutMs} ms`));
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (text.length > maxAnswerBytes) finish();
    });
    socket.once("error", (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    socket.once("close", () => finish());
    const ready = () => {
      connected = true;
      onConnect(socket);
    };
    if ("encrypted" in socket) socket.once("secureConnect", ready);
    else socket.once("connect", ready);
  });
}

/** Sends one `GET /` through a balancer's port (TLS for an https profile) and reads what comes back. */
export async function requestThrough(
  host: string,
  port: number,
  options: { readonly tls?: boolean; readonly timeoutMs?: number } = {},
): Promise<PlaneAnswer> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const at = endpointOf(host, port);
  const socket = options.tls ? tlsConnect({ ...at, rejectUnauthorized: false }) : tcpConnect(at);
  const request = `GET / HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: close\r\n\r\n`;
  const { connected, text, error } = await settle(socket as Socket, timeoutMs, (open) => open.write(request));
  const head = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n/.exec(text);
  const status = head ? Number(head[1]) : undefined;
  const backend = head
    ? new RegExp(`^${backendHeader}:[ \\t]*([^\\r\\n]*)$`, "im").exec(head[2]!)?.[1]?.trim()
    : undefined;
  const summary = !connected
    ? `connection not accepted (${error ?? "closed"})`
    : status !== undefined
      ? `HTTP ${status}${backend ? ` from ${backend}` : ""}`
      : `connected, then no answer (${error ?? "closed"})`;
  return { connected, status, backend, summary };
}

/** Does the port accept a TCP connection? */
export async function portAccepts(
  host: string,
  port: number,
  timeoutMs = defaultTimeoutMs,
): Promise<{ accepted: boolean; summary: string }> {
  const socket = tcpConnect(endpointOf(host, port));
  const { connected, error } = await settle(socket, timeoutMs, (open) => open.destroy());
  return {
    accepted: connected,
    summary: connected ? "connection accepted" : `connection not accepted (${error ?? "closed"})`,
  };
}

/** The SHA-256 fingerprint (`AB:CD:...`) of the certificate a TLS handshake on the port presents. */
export async function presentedFingerprint(
  host: string,
  port: number,
  timeoutMs = defaultTimeoutMs,
): Promise<{ fingerprint: string | undefined; summary: string }> {
  const socket: TLSSocket = tlsConnect({ ...endpointOf(host, port), rejectUnauthorized: false });
  let fingerprint: string | undefined;
  const { connected, error } = await settle(socket as unknown as Socket, timeoutMs, () => {
    fingerprint = socket.getPeerCertificate()?.fingerprint256 || undefined;
    socket.destroy();
  });
  return {
    fingerprint,
    summary:
      fingerprint ?? (connected ? "no certificate presented" : `no TLS handshake (${error ?? "closed"})`),
  };
}

/** The SHA-256 fingerprint of a PEM certificate, as `presentedFingerprint` writes it. */
export function fingerprintOf(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}
