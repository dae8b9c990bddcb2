/**
 * The registry of named faults, one file each (file name = id). `conform serve --fault NAME[,NAME]` and the
 * runner enable them; a clean server applies none and pays nothing for them.
 * @module
 */
import { ConfigError } from "../../core/errors.ts";
import type { Fault } from "./types.ts";

export type { Fault, FaultTarget } from "./types.ts";

const all: readonly Fault[] = [];

export const faultRegistry: ReadonlyMap<string, Fault> = new Map(all.map((fault) => [fault.id, fault]));

/** The faults named, in order; an unknown name is a ConfigError listing the known ones. */
export function resolveFaults(names: readonly string[]): Fault[] {
  return names.map((name) => {
    const fault = faultRegistry.get(name);
    if (!fault) {
      throw new ConfigError(
        `unknown fault ${name}; known faults: ${[...faultRegistry.keys()].sort().join(", ") || "(none)"}`,
      );
    }
    return fault;
  });
}
