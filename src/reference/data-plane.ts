/**
 * The load balancers' data plane: each configuration profile really listens on its port and forwards
 * connections to its back-end nodes, on the sandbox network (docs/contracts.md).
 *
 * Rules (beyond the description, documented):
 * - a load balancer's public IPv4 198.18.X.Y stands for the loopback address 127.18.X.Y, as a node's private
 *   192.168.X.Y stands for 127.168.X.Y: a profile on port P listens on 127.18.X.Y:P from the moment it is
 *   created, moves when its port or protocol changes, and stops when it (or its load balancer) is deleted;
 * - each connection goes to the next node that is `UP` (round robin over the profile's nodes in creation
 *   order); with none up the connection is closed at once, before anything is read;
 * - `https` terminates TLS with the profile's own certificate and key (the client sees exactly the uploaded
 *   certificate) and forwards plain traffic to the node; `http` and `tcp` forward bytes as they come;
 * - a port another process holds already is not served (the profile keeps its port in the API; `problems`
 *   says why). Nothing here binds or connects anywhere but 127.18.0.0/16 and 127.168.0.0/16.
 * @module
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import type { ReferenceBehaviour } from "./behaviour.ts";
import { loopbackStandIn } from "./health.ts";
import type { ConfigRecord, ReferenceState } from "./state.ts";

/** The loopback stand-in of a load balancer's public address: 198.18.X.Y -> 127.18.X.Y. */
export function balancerStandIn(ipv4: string): string | undefined {
  const match = /^198\.18\.(\d{1,3})\.(\d{1,3})$/.exec(ipv4);
  if (!match || Number(match[1]) > 255 || Number(match[2]) > 255) return undefined;
  return `127.18.${match[1]}.${match[2]}`;
}

/**
 * The loopback port a profile's port listens on: the same, but for a port below 1024, served 20000 higher (80 at
 * 20080, 443 at 20443), since binding those needs privileges a test machine rarely gives.
 */
export function standInPort(port: number): number {
  return port < 1024 ? port + 20000 : port;
}

/** The TLS material a listener serves. */
export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
}

type DataPlaneBehaviour = Pick<
  ReferenceBehaviour,
  "balancerListens" | "listenedPort" | "forwardsTo" | "tlsServed"
>;

interface Listening {
  readonly server: Server;
  readonly sockets: Set<Socket>;
  /** What the listener was opened for: a change of any of these reopens it. */
  readonly key: string;
}

function listenOn(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once("error", failed);
    server.listen({ host, port, exclusive: true }, () => {
      server.off("error", failed);
      resolve();
    });
  });
}

export class DataPlane {
  readonly #listening = new Map<number, Listening>();
  /** Round-robin position per profile. */
  readonly #cursor = new Map<number, number>();
  /** The port each profile listens on now, by profile id (the previous one when its port changes). */
  readonly #ports = new Map<number, number>();
  /** The TLS material last served on each `host:port` (what the fault `https-keeps-old-certificate` reuses). */
  readonly #served = new Map<string, TlsMaterial>();
  /** Why a profile is not served (its port is taken), by profile id. */
  readonly problems = new Map<number, string>();
  #closed = false;

  private readonly state: ReferenceState;
  private readonly behaviour: DataPlaneBehaviour;

  constructor(state: ReferenceState, behaviour: DataPlaneBehaviour) {
    this.state = state;
    this.behaviour = behaviour;
  }

  /** Opens, moves or keeps the listener of a profile after it is created or changed; resolves once it listens. */
  async sync(config: ConfigRecord): Promise<void> {
    const balancer = this.state.nodeBalancers.get(config.nodebalancer_id);
    const host = balancer ? balancerStandIn(balancer.ipv4) : undefined;
    if (this.#closed || !host || !this.behaviour.balancerListens()) return this.stop(config.id);
    const port = this.behaviour.listenedPort(this.#ports.get(config.id), config.port);
    const where = `${host}:${standInPort(port)}`;
    let tls: TlsMaterial | undefined;
    if (config.protocol === "https" && config.ssl_cert && config.ssl_key) {
      tls = this.behaviour.tlsServed(this.#served.get(where), { cert: config.ssl_cert, key: config.ssl_key });
    }
    const key = `${where} ${config.protocol} ${tls?.cert ?? ""}`;
    if (this.#listening.get(config.id)?.key === key) return;
    await this.stop(config.id);
    const sockets = new Set<Socket>();
    const track = (socket: Socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    };
    const forward = (socket: Socket) => {
      track(socket);
      this.forward(config.id, socket, track);
    };
    let server: Server;
    if (tls) {
      server = createTlsServer({ cert: tls.cert, key: tls.key }, forward);
      // A client that fails the handshake is not a defect of the server.
      server.on("tlsClientError", () => {});
      server.on("connection", track);
    } else server = createServer(forward);
    try {
      await listenOn(server, host, standInPort(port));
    } catch (error) {
      this.problems.set(config.id, `${where}: ${(error as Error).message}`);
      return;
    }
    server.unref();
    if (tls) this.#served.set(where, tls);
    this.problems.delete(config.id);
    this.#ports.set(config.id, port);
    this.#listening.set(config.id, { server, sockets, key });
  }

  /** Stops serving a profile (deleted, or about to move). */
  async stop(configId: number): Promise<void> {
    const listening = this.#listening.get(configId);
    this.#listening.delete(configId);
    this.#cursor.delete(configId);
    this.#ports.delete(configId);
    if (!listening) return;
    for (const socket of listening.sockets) socket.destroy();
    await new Promise<void>((resolve) => listening.server.close(() => resolve()));
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#listening.keys()].map((id) => this.stop(id)));
  }

  private forward(configId: number, socket: Socket, track: (socket: Socket) => void): void {
    const nodes = [...this.state.nodes.values()].filter((node) => node.config_id === configId);
    const candidates = this.behaviour.forwardsTo(nodes);
    if (candidates.length === 0) return void socket.destroy();
    const position = this.#cursor.get(configId) ?? 0;
    this.#cursor.set(configId, position + 1);
    const node = candidates[position % candidates.length]!;
    const match = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(node.address);
    const host = match ? loopbackStandIn(match[1]!) : undefined;
    if (!match || !host) return void socket.destroy();
    const upstream = tcpConnect({ host, port: Number(match[2]) });
    track(upstream);
    // A node that ends its answer ends the client's side through the pipe; a failure cuts both at once.
    upstream.on("error", () => socket.destroy());
    socket.on("close", () => upstream.destroy());
    socket.pipe(upstream);
    upstream.pipe(socket);
  }
}
