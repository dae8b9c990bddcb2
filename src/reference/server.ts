/**
 * Starts the embedded reference implementation on loopback: HTTPS with a certificate made at start (or plain
 * HTTP), the API under `/v4` and the OAuth login server at the root of the same origin. Used by `conform serve`,
 * by the runner when no base URL is given, and by tests; `close()` stops timers, probes and sockets.
 * @module
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { ConfigError } from "../core/errors.ts";
import { bundledSpecPath } from "../spec/bundled.ts";
import { loadSpec } from "../spec/load.ts";
import type { ApiSpec } from "../spec/types.ts";
import { ReferenceApp, type ReplyRewrite } from "./app.ts";
import { defaultBehaviour, type ReferenceBehaviour } from "./behaviour.ts";
import { computeTypes, regions } from "./catalogue.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { HandlerMap } from "./context.ts";
import { DataPlane } from "./data-plane.ts";
import { isoSeconds, ReferenceEvents } from "./events.ts";
import { type Fault, resolveFaults } from "./faults/index.ts";
import { handlers as cleanHandlers } from "./handlers/index.ts";
import { NodeHealth } from "./health.ts";
import { describedRateLimits, type RateLimitConfig, RateLimiter } from "./rate-limit.ts";
import { ReferenceState, type User } from "./state.ts";
import { createServerCertificate } from "./tls.ts";

export interface ReferenceServerOptions {
  /** The description to serve; the bundled `specs/cloud-api-v4.yaml` when omitted. */
  readonly spec?: ApiSpec;
  /** Serve plain HTTP instead of HTTPS. */
  readonly http?: boolean;
  /** A loopback address (127.0.0.0/8 or ::1); default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** The ready personal access token (scope `*`); 64 random hex characters when omitted. */
  readonly token?: string;
  /** Multiplies the server's own delays (boot, health-check interval); default 1 (real time). */
  readonly timeScale?: number;
  readonly clock?: Clock;
  /** Override some rate-limit rules, for every caller (tests shrink the windows). */
  readonly rateLimits?: Partial<RateLimitConfig>;
  /** Rules for callers known by client address (public endpoints), over `rateLimits`. */
  readonly addressRateLimits?: Partial<RateLimitConfig>;
  /**
   * Rules for the server's own ready token, over `rateLimits`: the runner makes them never bind, so its bootstrap
   * token does not pace a full run while tokens that suites mint keep the description's limits.
   */
  readonly ownTokenRateLimits?: Partial<RateLimitConfig>;
  /** Request bodies above this are refused with 413; default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** The seeded user of the login server. */
  readonly user?: { readonly username: string; readonly password: string };
  /** Named faults to enable (see faults/): each breaks one behaviour on purpose. */
  readonly faults?: readonly (string | Fault)[];
  /** Called with any unexpected exception (a defect: the client got a 500); default prints to stderr. */
  readonly onDefect?: (error: unknown, request: IncomingMessage) => void;
}

export interface ReferenceServer {
  /** `https://127.0.0.1:PORT/v4` */
  readonly baseUrl: string;
  /** `https://127.0.0.1:PORT` (the login server's `/oauth/authorize` and `/oauth/token` live here) */
  readonly authUrl: string;
  /** A personal access token with scope `*`. */
  readonly token: string;
  readonly user: User;
  /** The PEM certificate to trust (undefined over plain HTTP). */
  readonly certificatePem: string | undefined;
  readonly state: ReferenceState;
  /** Ids of the faults enabled (empty on a clean server). */
  readonly faults: readonly string[];
  close(): Promise<void>;
}

export const defaultUser = Object.freeze({ username: "conform-demo", password: "reference-Pa55word!" });

function isLoopback(host: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "::1" || host === "localhost";
}

export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host))
    throw new ConfigError(`the reference server binds loopback only; ${host} is not a loopback address`);
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new ConfigError(`--time-scale must be a positive number, got ${timeScale}`);
  const spec = options.spec ?? (await loadSpec(bundledSpecPath));
  const clock = options.clock ?? systemClock;
  const { state, user, token, ownTokenId } = seededState(options, clock);
  const behaviour = defaultBehaviour();
  const faults = (options.faults ?? []).map((fault) =>
    typeof fault === "string" ? resolveFaults([fault])[0]! : fault,
  );
  const { handlers, replyRewrites } = appliedFaults(faults, state, behaviour);
  const health = new NodeHealth(state, timeScale, behaviour);
  const dataPlane = new DataPlane(state, behaviour);
  const certificate = options.http ? undefined : await createServerCertificate(host);
  const urls = { baseUrl: "", authUrl: "" };
  const app = new ReferenceApp({
    spec,
    handlers,
    state,
    clock,
    timeScale,
    events: new ReferenceEvents(state, clock, behaviour),
    health,
    dataPlane,
    limiter: rateLimiter(options, `token:${ownTokenId}`, clock, behaviour),
    urls,
    basePath: "/v4",
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    behaviour,
    replyRewrites,
    onDefect: options.onDefect ?? printDefect,
  });
  const server: Server = certificate
    ? createHttpsServer({ cert: certificate.certificatePem, key: certificate.privateKeyPem }, app.listener)
    : createHttpServer(app.listener);
  const origin = await listen(server, host, options.port ?? 0, certificate !== undefined);
  urls.authUrl = origin;
  urls.baseUrl = `${origin}/v4`;
  return {
    baseUrl: urls.baseUrl,
    authUrl: urls.authUrl,
    token,
    user,
    certificatePem: certificate?.certificatePem,
    state,
    faults: faults.map((fault) => fault.id),
    close: async () => {
      health.close();
      await dataPlane.close();
      for (const instance of state.instances.values()) clearTimeout(instance.timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The state the server starts with: its login user and its own ready personal access token (scope `*`). */
function seededState(options: ReferenceServerOptions, clock: Clock) {
  const login = options.user ?? defaultUser;
  const user: User = { ...login, email: `${login.username}@example.com`, uuid: randomUUID() };
  const state = new ReferenceState({ regions, types: computeTypes }, user);
  const token = options.token ?? randomBytes(32).toString("hex");
  const ownTokenId = state.nextId("token");
  state.tokens.set(token, {
    id: ownTokenId,
    label: "conform-reference",
    scopes: "*",
    token,
    created: isoSeconds(clock.now()),
    expiresAt: null,
    kind: "personal",
  });
  return { state, user, token, ownTokenId };
}

/** The handlers and reply rewrites once every fault has wrapped what it breaks. */
function appliedFaults(faults: readonly Fault[], state: ReferenceState, behaviour: ReferenceBehaviour) {
  const handlers: Record<string, HandlerMap[string]> = { ...cleanHandlers };
  const replyRewrites: ReplyRewrite[] = [];
  for (const fault of faults) {
    fault.apply({
      state,
      behaviour,
      wrapHandler: (operationId, wrap) => {
        const original = handlers[operationId];
        if (!original) throw new ConfigError(`fault ${fault.id} wraps ${operationId}, which has no handler`);
        handlers[operationId] = wrap(original);
      },
      rewriteReplies: (rewrite) => replyRewrites.push(rewrite),
    });
  }
  return { handlers, replyRewrites };
}

/** The description's rate limits, with the options' overrides for every caller, by address and for the own token. */
function rateLimiter(
  options: ReferenceServerOptions,
  ownKey: string,
  clock: Clock,
  behaviour: ReferenceBehaviour,
): RateLimiter {
  const every = { ...describedRateLimits, ...options.rateLimits };
  return new RateLimiter(
    {
      token: every,
      address: { ...every, ...options.addressRateLimits },
      own: { ...every, ...options.ownTokenRateLimits },
      ownKey,
    },
    clock,
    () => behaviour.withinRateLimit,
  );
}

function printDefect(error: unknown, request: IncomingMessage): void {
  process.stderr.write(
    `reference server defect on ${request.method} ${request.url}: ${String((error as Error)?.stack ?? error)}\n`,
  );
}

/** Listens on `host:port` (0: any free port) and gives the origin it serves. */
async function listen(server: Server, host: string, port: number, https: boolean): Promise<string> {
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return `${https ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}
