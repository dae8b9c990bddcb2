/** Faults of the workflows (load balancers, profiles, nodes, instances, HTTPS) area: one file each, listed here. */
import type { Fault } from "./types.ts";

export const workflowFaults: readonly Fault[] = [];
