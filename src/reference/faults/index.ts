/**
 * The registry of named faults, one file each (file name = id), gathered by area. `conform serve --fault
 * NAME[,NAME]` and the runner enable them; a clean server applies none and pays nothing for them.
 * @module
 */
import { ConfigError } from "../../core/errors.ts";
import { eventFaults } from "./event-faults.ts";
import { lifecycleFaults } from "./lifecycle-faults.ts";
import { listFaults } from "./list-faults.ts";
import { protocolFaults } from "./protocol-faults.ts";
import type { Fault } from "./types.ts";
import { workflowFaults } from "./workflow-faults.ts";

export type { Fault, FaultTarget } from "./types.ts";

const all: readonly Fault[] = [
  ...workflowFaults,
  ...eventFaults,
  ...listFaults,
  ...protocolFaults,
  ...lifecycleFaults,
];

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
