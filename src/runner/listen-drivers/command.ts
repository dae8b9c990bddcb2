/**
 * The `command` listen driver, for real clouds: a command template such as
 * `ssh -tt root@{address} "python3 -m http.server {port}"` is run (through the shell) for as long as a node
 * must listen, and stopped (SIGTERM to its process group, SIGKILL after a grace period) when the step stops the
 * node or the case ends. `{address}` (the node's private IPv4), `{port}` and `{label}` are substituted; each value
 * is checked first (a dotted IPv4, a port number, a label of `[A-Za-z0-9._-]`), so an address from the target
 * can never inject shell text. Everything the command prints, and how it ended, is kept for the report.
 *
 * The command must keep running while the node listens (a foreground server, or `ssh -tt` so that stopping the
 * local process stops the remote one). Children are killed when the process exits, whatever the reason.
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { ListenDriver, Listener, ListenNode } from "./types.ts";

export interface CommandDriverOptions {
  readonly template: string | undefined;
  /** The port nodes listen on (default 80). */
  readonly port?: number;
  /** How long a stopped command gets to exit before SIGKILL (default 3000 ms). */
  readonly graceMs?: number;
  /** Lines of output kept per command (the last ones; default 200). */
  readonly maxLines?: number;
}

const ipv4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const safeLabel = /^[A-Za-z0-9._-]{1,64}$/;

/** Fills a template's placeholders after checking each value is safe to put in a shell command. */
export function fillTemplate(template: string, node: ListenNode): string {
  if (!ipv4.test(node.address))
    throw new Error(
      `refusing to put address ${JSON.stringify(node.address)} in a command: not a dotted IPv4`,
    );
  if (!Number.isInteger(node.port) || node.port < 1 || node.port > 65535)
    throw new Error(`refusing port ${node.port}: not 1..65535`);
  if (!safeLabel.test(node.label))
    throw new Error(
      `refusing label ${JSON.stringify(node.label)} in a command: only letters, digits, '.', '_' and '-'`,
    );
  return template
    .replaceAll("{address}", node.address)
    .replaceAll("{port}", String(node.port))
    .replaceAll("{label}", node.label);
}

/**
 * Signals the command's whole process group (the shell and whatever it started): the shell may be gone while a
 * process it started still holds the output pipes, so the group is signalled whatever the shell's own state.
 */
/** Whether any process of the child's group is still there (a zombie counts until it is reaped). */
function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

export class CommandListenDriver implements ListenDriver {
  readonly kind = "command" as const;
  readonly unavailable: string | undefined;
  readonly #template: string;
  readonly #port: number;
  readonly #graceMs: number;
  readonly #maxLines: number;
  readonly #open = new Set<Listener>();
  readonly #children = new Set<ChildProcess>();
  readonly #output: string[] = [];
  readonly #onExit = () => {
    for (const child of this.#children) killGroup(child, "SIGKILL");
  };

  constructor(options: CommandDriverOptions) {
    this.#template = options.template?.trim() ?? "";
    this.#port = options.port ?? 80;
    this.#graceMs = options.graceMs ?? 3_000;
    this.#maxLines = options.maxLines ?? 200;
    this.unavailable =
      this.#template === ""
        ? "the command listen driver needs a command template: --listen-command 'ssh -tt root@{address} ...'"
        : undefined;
  }

  async portFor(_address: string): Promise<number> {
    return this.#port;
  }

  listen(node: ListenNode): Promise<Listener> {
    if (this.unavailable) return Promise.reject(new Error(this.unavailable));
    let command: string;
    try {
      command = fillTemplate(this.#template, node);
    } catch (error) {
      return Promise.reject(error);
    }
    this.#output.push(`${node.label}: $ ${command}`);
    const child = spawn(command, { shell: true, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    if (this.#children.size === 0) process.on("exit", this.#onExit);
    this.#children.add(child);
    let lines = 0;
    const capture = (stream: "out" | "err") => {
      let partial = "";
      return (chunk: Buffer) => {
        const text = partial + chunk.toString("utf8");
        const parts = text.split(/\r?\n/);
        partial = parts.pop() ?? "";
        for (const line of parts) {
          lines += 1;
          if (lines <= this.#maxLines) this.#output.push(`${node.label} [${stream}] ${line}`);
          else if (lines === this.#maxLines + 1) this.#output.push(`${node.label}: further output dropped`);
        }
      };
    };
    child.stdout?.on("data", capture("out"));
    child.stderr?.on("data", capture("err"));
    const exited = new Promise<void>((resolve) => {
      child.once("close", (code, signal) => {
        this.#children.delete(child);
        if (this.#children.size === 0) process.off("exit", this.#onExit);
        this.#output.push(`${node.label}: command ended (${signal ? `signal ${signal}` : `exit ${code}`})`);
        resolve();
      });
    });
    return new Promise((resolve, reject) => {
      child.once("error", (error) => {
        this.#output.push(`${node.label}: command could not start: ${error.message}`);
        reject(error);
      });
      child.once("spawn", () => {
        let stopped: Promise<void> | undefined;
        const listener: Listener = {
          node,
          stop: () => {
            stopped ??= (async () => {
              const asked = performance.now();
              killGroup(child, "SIGTERM");
              const timer = setTimeout(() => killGroup(child, "SIGKILL"), this.#graceMs);
              await exited;
              clearTimeout(timer);
              // The command's shell may end on SIGTERM while what it started ignores it: the rest of the group
              // gets what is left of the grace period, then SIGKILL, and a short bounded wait to be gone.
              if (groupAlive(child)) {
                await pause(Math.max(0, this.#graceMs - (performance.now() - asked)));
                killGroup(child, "SIGKILL");
                for (let tries = 0; tries < 20 && groupAlive(child); tries += 1) await pause(25);
              }
              this.#open.delete(listener);
            })();
            return stopped;
          },
        };
        this.#open.add(listener);
        resolve(listener);
      });
    });
  }

  takeOutput(): string[] {
    return this.#output.splice(0);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#open].map((listener) => listener.stop()));
  }
}
