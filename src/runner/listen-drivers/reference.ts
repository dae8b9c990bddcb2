/**
 * The `reference` listen driver: real TCP listeners on the loopback stand-in of a node's private address. In the
 * reference server's sandbox network (ARCHITECTURE.md) a private IPv4 192.168.X.Y stands for the loopback address
 * 127.168.X.Y, and health checks connect there; so listening on 127.168.X.Y:port is what "a process on the
 * instance starts listening" means against a reference server. Written from ARCHITECTURE.md, not imported from
 * `src/reference/`: the runner does not reach into the server it judges.
 *
 * It refuses any target that is not the embedded or a loopback server (the stand-in means nothing elsewhere),
 * and never binds anything but a 127.168.0.0/16 address. A listener answers any request with a small HTTP 200
 * naming the node (`X-Conform-Node: <label>`, so a request sent through a load balancer shows which back-end
 * served it) and closes, so `connection`, `http` and `http_body` (body `ok`) checks all see it up. Servers are unref'd:
 * a run that stops early is never kept alive by them.
 * @module
 */
import { createServer, type Server, type Socket } from "node:net";
import {
  isLoopbackTarget,
  type ListenDriver,
  type Listener,
  type ListenNode,
  type ListenTarget,
} from "./types.ts";

/** The loopback stand-in of a sandbox private address, or undefined when the address has none. */
export function loopbackStandIn(address: string): string | undefined {
  const match = /^192\.168\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!match || Number(match[1]) > 255 || Number(match[2]) > 255) return undefined;
  return `127.168.${match[1]}.${match[2]}`;
}

/** The answer of a listening node: `ok`, naming the node in `X-Conform-Node` (which back-end a balancer chose). */
const replyOf = (label: string) =>
  `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Conform-Node: ${label}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`;

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

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

export class ReferenceListenDriver implements ListenDriver {
  readonly kind = "reference" as const;
  readonly unavailable: string | undefined;
  readonly #open = new Set<Listener>();
  readonly #output: string[] = [];

  constructor(target: ListenTarget) {
    this.unavailable = isLoopbackTarget(target)
      ? undefined
      : `the reference listen driver works only against the embedded or a loopback reference server ` +
        `(it listens on 127.168.X.Y, the sandbox stand-in of 192.168.X.Y), and ${target.baseUrl} is neither: ` +
        `use --listen-driver command --listen-command '...' for a real target`;
  }

  #standIn(address: string): string {
    if (this.unavailable) throw new Error(this.unavailable);
    const host = loopbackStandIn(address);
    if (!host) {
      throw new Error(
        `the reference listen driver needs a 192.168.X.Y private address (the sandbox network), not ${address}`,
      );
    }
    return host;
  }

  /** A port free on the node's stand-in address at this moment (the kernel's choice for port 0). */
  async portFor(address: string): Promise<number> {
    const host = this.#standIn(address);
    const probe = createServer();
    await listenOn(probe, host, 0);
    const { port } = probe.address() as { port: number };
    await closeServer(probe, new Set());
    return port;
  }

  async listen(node: ListenNode): Promise<Listener> {
    const host = this.#standIn(node.address);
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
      // Answer the first bytes of a request (an HTTP check); a bare connection check just closes.
      socket.once("data", () => socket.end(replyOf(node.label)));
      socket.setTimeout(5_000, () => socket.destroy());
    });
    await listenOn(server, host, node.port);
    server.unref();
    this.#output.push(`${node.label}: listening on ${host}:${node.port} (stand-in of ${node.address})`);
    let stopped: Promise<void> | undefined;
    const listener: Listener = {
      node,
      stop: () => {
        stopped ??= closeServer(server, sockets).then(() => {
          this.#open.delete(listener);
          this.#output.push(`${node.label}: stopped listening on ${host}:${node.port}`);
        });
        return stopped;
      },
    };
    this.#open.add(listener);
    return listener;
  }

  takeOutput(): string[] {
    return this.#output.splice(0);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#open].map((listener) => listener.stop()));
  }
}
