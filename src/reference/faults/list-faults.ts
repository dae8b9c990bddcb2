/** Faults of the lists and bodies (X-Filter, pagination, request validation and error bodies) area: one file each, listed here. */
import type { Fault } from "./types.ts";

export const listFaults: readonly Fault[] = [];
