/**
 * Listen drivers: how a workflow suite makes a back-end node "listen" on its port, so that the target's health
 * checks see it come up (workflow 5 of the description). Three drivers:
 * - `reference`: real TCP listeners on the loopback stand-in 127.168.X.Y of a node's 192.168.X.Y private address
 *   (ARCHITECTURE.md's sandbox network); only for the embedded or a loopback reference server;
 * - `command`: a command template (`{address}`, `{port}`, `{label}`) run for as long as a node must listen, for
 *   real clouds (e.g. `ssh root@{address} ...`); its output is kept for the report;
 * - `none`: nodes cannot be made to listen; the listening steps are skipped with the driver's reason.
 * @module
 */

export type ListenDriverKind = "reference" | "command" | "none";

export const listenDriverKinds: readonly ListenDriverKind[] = ["reference", "command", "none"];

/** `suiteOptions.listen`: what `--listen-driver` and `--listen-command` (or a config file) set. */
export interface ListenOptions {
  /** Default: `reference` when the target is the embedded or a loopback server, else `command` when a command is given, else `none`. */
  readonly driver?: ListenDriverKind;
  /** The command template of the `command` driver. */
  readonly command?: string;
  /** The port nodes listen on with the `command` and `none` drivers (default 80); `reference` picks free ports. */
  readonly port?: number;
}

/** A back-end node to make listen. */
export interface ListenNode {
  /** The node's private IPv4 address (no port). */
  readonly address: string;
  readonly port: number;
  /** The node's label. */
  readonly label: string;
}

/** One node listening; `stop()` ends it (and is safe to call twice). */
export interface Listener {
  readonly node: ListenNode;
  stop(): Promise<void>;
}

export interface ListenDriver {
  readonly kind: ListenDriverKind;
  /** Why this driver cannot make nodes listen (listening steps are skipped with it), or undefined when it can. */
  readonly unavailable: string | undefined;
  /** The port a node on this private address will listen on (it goes into the node's address at registration). */
  portFor(address: string): Promise<number>;
  /** Makes a node listen; resolves once it listens (reference) or once its command has started (command). */
  listen(node: ListenNode): Promise<Listener>;
  /** Lines the driver has to report since the last call (commands run, their output, exits); clears them. */
  takeOutput(): string[];
  /** Stops every listener still open. */
  close(): Promise<void>;
}

/** Where the driver's target is: the embedded server, or a base URL. */
export interface ListenTarget {
  readonly baseUrl: string;
  readonly embedded: boolean;
}

/** True for 127.0.0.0/8, ::1 and localhost: the only hosts a reference server binds. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return /^127(?:\.\d{1,3}){3}$/.test(bare) || bare === "::1" || bare === "localhost";
}

/** True when the target is the embedded server or a server on a loopback address. */
export function isLoopbackTarget(target: ListenTarget): boolean {
  if (target.embedded) return true;
  try {
    return isLoopbackHost(new URL(target.baseUrl).hostname);
  } catch {
    return false;
  }
}
