/**
 * Picks the listen driver of a run from `suiteOptions.listen` (set by `--listen-driver` and `--listen-command`,
 * or a config file) and the target. See `types.ts` for the three drivers.
 * @module
 */
import { CommandListenDriver } from "./command.ts";
import { NoListenDriver } from "./none.ts";
import { ReferenceListenDriver } from "./reference.ts";
import {
  isLoopbackTarget,
  type ListenDriver,
  type ListenDriverKind,
  type ListenOptions,
  type ListenTarget,
  listenDriverKinds,
} from "./types.ts";

export { CommandListenDriver, fillTemplate } from "./command.ts";
export { NoListenDriver, noDriverReason } from "./none.ts";
export { loopbackStandIn, ReferenceListenDriver } from "./reference.ts";
export * from "./types.ts";

/** Reads `suiteOptions.listen`; a malformed value is a problem to report, not a crash. */
export function readListenOptions(suiteOptions: Readonly<Record<string, unknown>>): {
  readonly options: ListenOptions;
  readonly problem?: string;
} {
  const raw = suiteOptions.listen;
  if (raw === undefined) return { options: {} };
  if (typeof raw !== "object" || raw === null)
    return { options: {}, problem: "suiteOptions.listen must be an object" };
  const { driver, command, port } = raw as Record<string, unknown>;
  if (driver !== undefined && !listenDriverKinds.includes(driver as ListenDriverKind)) {
    return {
      options: {},
      problem: `listen driver ${String(driver)} is unknown: use ${listenDriverKinds.join(", ")}`,
    };
  }
  if (command !== undefined && typeof command !== "string") {
    return { options: {}, problem: "listen.command must be a string" };
  }
  if (port !== undefined && !(Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535)) {
    return { options: {}, problem: `listen.port must be a port number, not ${String(port)}` };
  }
  return {
    options: {
      ...(driver === undefined ? {} : { driver: driver as ListenDriverKind }),
      ...(command === undefined ? {} : { command: command as string }),
      ...(port === undefined ? {} : { port: port as number }),
    },
  };
}

/** The driver the options name; without one: reference on a loopback target, command when a template is given, else none. */
export function createListenDriver(options: ListenOptions, target: ListenTarget): ListenDriver {
  const kind: ListenDriverKind =
    options.driver ?? (isLoopbackTarget(target) ? "reference" : options.command ? "command" : "none");
  switch (kind) {
    case "reference":
      return new ReferenceListenDriver(target);
    case "command":
      return new CommandListenDriver({ template: options.command, port: options.port });
    default:
      return new NoListenDriver({ port: options.port });
  }
}

/** What is wrong with `--listen-driver`/`--listen-command` for this target, or undefined. */
export function listenFlagsProblem(
  driver: string | undefined,
  command: string | undefined,
  baseUrl: string | undefined,
): string | undefined {
  if (driver !== undefined && !listenDriverKinds.includes(driver as ListenDriverKind)) {
    return `--listen-driver ${driver} is unknown: use ${listenDriverKinds.join(", ")}`;
  }
  if (driver === "command" && !command?.trim()) {
    return "--listen-driver command needs --listen-command 'TEMPLATE' ({address}, {port}, {label})";
  }
  if (command !== undefined && driver !== undefined && driver !== "command") {
    return `--listen-command is only used by --listen-driver command, not ${driver}`;
  }
  if (driver === "reference" && baseUrl !== undefined && !isLoopbackTarget({ baseUrl, embedded: false })) {
    return `--listen-driver reference works only against the embedded or a loopback reference server, not ${baseUrl}`;
  }
  return undefined;
}

/** `suiteOptions` with the listen flags laid over its `listen` (flags win over a config file). */
export function withListenFlags(
  suiteOptions: Readonly<Record<string, unknown>>,
  driver: string | undefined,
  command: string | undefined,
): Record<string, unknown> {
  if (driver === undefined && command === undefined) return { ...suiteOptions };
  const listen =
    typeof suiteOptions.listen === "object" && suiteOptions.listen !== null ? suiteOptions.listen : {};
  return {
    ...suiteOptions,
    listen: {
      ...listen,
      ...(driver === undefined ? {} : { driver }),
      ...(command === undefined ? {} : { command }),
    },
  };
}
