/** Faults of the protocol (auth, scopes, OAuth, rate limits, headers, versioning) area: one file each, listed here. */
import type { Fault } from "./types.ts";

export const protocolFaults: readonly Fault[] = [];
