/**
 * Back-end node health by real probes, as a load balancer does it: each profile with an active check probes its
 * nodes every `check_interval` seconds (times the server's time scale). The sandbox network (docs/contracts.md): a
 * private address 192.168.X.Y stands for the loopback address 127.168.X.Y, so a test makes a node "listen" by
 * opening a real listener there. Nothing here ever connects to a non-loopback address.
 *
 * Rules (beyond the description, documented): a node is UP when its instance is running and the probe succeeds,
 * DOWN otherwise; a new node is `Unknown` until its first probe (counted as down); an UP node goes DOWN after
 * `check_attempts` failed probes in a row, a DOWN node comes UP on one success. With `check: none` no probe is
 * made and a node's status follows its instance (UP while running), as passive checking trusts it.
 * @module
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import type { ReferenceBehaviour } from "./behaviour.ts";
import type { ConfigRecord, NodeRecord, ReferenceState } from "./state.ts";

const minIntervalMs = 20;
const minTimeoutMs = 100;

/** The loopback stand-in of a sandbox private address, or undefined when the address has none. */
export function loopbackStandIn(ipv4: string): string | undefined {
  const match = /^192\.168\.(\d{1,3})\.(\d{1,3})$/.exec(ipv4);
  return match ? `127.168.${match[1]}.${match[2]}` : undefined;
}

function splitAddress(address: string): { ip: string; port: number } | undefined {
  const match = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(address);
  return match ? { ip: match[1]!, port: Number(match[2]) } : undefined;
}

function probeTcp(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once("connect", () => done(true));
    socket.once("timeout", () => done(false));
    socket.once("error", () => done(false));
  });
}

function probeHttp(host: string, port: number, config: ConfigRecord, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = httpRequest(
      { host, port, path: config.check_path || "/", timeout: timeoutMs },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= 65_536) chunks.push(chunk);
        });
        response.on("end", () => {
          const status = response.statusCode ?? 500;
          const bodyOk =
            config.check !== "http_body" ||
            Buffer.concat(chunks).toString("utf8").includes(config.check_body);
          resolve(status < 400 && bodyOk);
        });
        response.on("error", () => resolve(false));
      },
    );
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(false));
    request.end();
  });
}

export class NodeHealth {
  readonly #timers = new Map<number, NodeJS.Timeout>();
  readonly #inFlight = new Set<number>();
  #closed = false;

  private readonly state: ReferenceState;
  private readonly timeScale: number;
  private readonly behaviour: Pick<ReferenceBehaviour, "probeOutcome">;

  constructor(state: ReferenceState, timeScale: number, behaviour: Pick<ReferenceBehaviour, "probeOutcome">) {
    this.state = state;
    this.timeScale = timeScale;
    this.behaviour = behaviour;
  }

  /** (Re)starts the probe loop of a profile after it is created or changed; probes at once. */
  watch(config: ConfigRecord): void {
    this.unwatch(config.id);
    if (this.#closed) return;
    const interval = Math.max(minIntervalMs, config.check_interval * 1000 * this.timeScale);
    const timer = setInterval(() => void this.probeConfig(config.id), interval);
    timer.unref();
    this.#timers.set(config.id, timer);
    void this.probeConfig(config.id);
  }

  unwatch(configId: number): void {
    clearInterval(this.#timers.get(configId));
    this.#timers.delete(configId);
  }

  /** Probes every node of a profile once (skipped while a previous round is still running). */
  async probeConfig(configId: number): Promise<void> {
    const config = this.state.configs.get(configId);
    if (!config || this.#inFlight.has(configId)) return;
    this.#inFlight.add(configId);
    try {
      const nodes = [...this.state.nodes.values()].filter((node) => node.config_id === configId);
      await Promise.all(nodes.map((node) => this.probeNode(config, node)));
    } finally {
      this.#inFlight.delete(configId);
    }
  }

  /** Re-probes every profile that has a node on this instance (its state changed). */
  instanceChanged(instanceId: number): void {
    const instance = this.state.instances.get(instanceId);
    const ips = new Set(instance?.ipv4 ?? []);
    const configIds = new Set<number>();
    for (const node of this.state.nodes.values()) {
      const address = splitAddress(node.address);
      if (address && ips.has(address.ip)) configIds.add(node.config_id);
    }
    for (const configId of configIds) void this.probeConfig(configId);
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearInterval(timer);
    this.#timers.clear();
  }

  private instanceRunning(ip: string): boolean {
    for (const instance of this.state.instances.values()) {
      if (instance.ipv4.includes(ip)) return instance.status === "running";
    }
    return false;
  }

  private async probeNode(config: ConfigRecord, node: NodeRecord): Promise<void> {
    const address = splitAddress(node.address);
    const host = address ? loopbackStandIn(address.ip) : undefined;
    const running = address !== undefined && this.instanceRunning(address.ip);
    let up = running;
    if (running && config.check !== "none") {
      const timeout = Math.max(minTimeoutMs, config.check_timeout * 1000 * this.timeScale);
      up =
        host !== undefined &&
        (config.check === "connection"
          ? await probeTcp(host, address.port, timeout)
          : await probeHttp(host, address.port, config, timeout));
    }
    up = this.behaviour.probeOutcome(up);
    // The node may have been deleted while the probe ran.
    if (!this.state.nodes.has(node.id) || this.#closed) return;
    if (up) {
      node.status = "UP";
      node.failures = 0;
      return;
    }
    node.failures += 1;
    if (node.status !== "UP" || node.failures >= config.check_attempts || config.check === "none")
      node.status = "DOWN";
  }
}
