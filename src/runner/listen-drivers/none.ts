/**
 * The `none` listen driver: nodes cannot be made to listen on this target, so the steps that need a listening
 * node are reported as skipped with the reason (never as passed). Nodes are still registered on a port
 * (`listen.port`, default 80), so the steps that need nothing listening still run.
 * @module
 */
import type { ListenDriver, Listener } from "./types.ts";

export const noDriverReason =
  "no listen driver: nothing can make a node listen on this target; pass --listen-driver command " +
  "--listen-command 'ssh -tt root@{address} ...' for a real cloud (reference works only against a loopback reference server)";

export class NoListenDriver implements ListenDriver {
  readonly kind = "none" as const;
  readonly unavailable: string;
  readonly #port: number;

  constructor(options: { readonly port?: number; readonly reason?: string } = {}) {
    this.#port = options.port ?? 80;
    this.unavailable = options.reason ?? noDriverReason;
  }

  async portFor(_address: string): Promise<number> {
    return this.#port;
  }

  listen(): Promise<Listener> {
    return Promise.reject(new Error(this.unavailable));
  }

  takeOutput(): string[] {
    return [];
  }

  async close(): Promise<void> {}
}
