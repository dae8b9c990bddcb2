/**
 * Section 4: a fuzz campaign, `conform fuzz filters` against the embedded reference: cases/s, requests/s and peak
 * memory after 50,000 requests (memory must stay flat). Until the command lands this section says so, with no
 * figure: a number for something that does not exist would be a made-up number.
 * @module
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const fuzzCommand = fileURLToPath(new URL("../src/cli/commands/fuzz.ts", import.meta.url));

export type FuzzResult =
  | { readonly available: false; readonly reason: string }
  | {
      readonly available: true;
      readonly casesPerSecond: number;
      readonly requestsPerSecond: number;
      readonly requests: number;
      readonly peakRssBytes: number;
      readonly memoryFlat: boolean;
    };

export async function benchFuzz(): Promise<FuzzResult> {
  if (!existsSync(fuzzCommand)) {
    return {
      available: false,
      reason:
        "not yet available: `conform fuzz filters` has not landed (src/cli/commands/fuzz.ts is missing)",
    };
  }
  return {
    available: false,
    reason: "not yet available: `conform fuzz filters` exists but this bench section does not drive it yet",
  };
}
