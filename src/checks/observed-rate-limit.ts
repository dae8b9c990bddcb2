/**
 * `observed-rate-limit`: per caller, operation and window (same `X-RateLimit-Limit` and `-Reset`), the lowest
 * `Remaining` seen is at most Limit minus the answers seen in it (other clients only lower it; order-free, so
 * concurrent answers recorded out of order are fine). When the caller is unknown (tokens redacted), only that two
 * answers in a window do not both say the whole limit is left: each answered request spends its own token's window.
 * A 401 or a 429 tells nothing of the window's count. Per-run state: the windows seen (bounded).
 * @module
 */
import { failed, passed } from "../core/result.ts";
import { observedOperation, remember } from "./_internals/observed.ts";
import type { CheckDefinition } from "./types.ts";

/** The check's per-run state (exported: the registry's declared type names it). */
export interface Window {
  seen: number;
  lowest: number;
}

export const observedRateLimit: CheckDefinition<Map<string, Window>> = {
  id: "observed-rate-limit",
  title: "X-RateLimit-Remaining goes down with the answers seen in one window",
  state: () => new Map(),
  check(context, exchange, windows) {
    const operation = observedOperation(context, exchange);
    const { response } = exchange;
    const limit = Number(response.headers["x-ratelimit-limit"]);
    const remaining = Number(response.headers["x-ratelimit-remaining"]);
    const reset = response.headers["x-ratelimit-reset"];
    if (!operation || !Number.isInteger(limit) || !Number.isInteger(remaining) || reset === undefined)
      return undefined;
    if (response.status === 401 || response.status === 429) return undefined;
    const { caller } = context;
    const key = [caller ?? "", operation.operationId, limit, reset].join("\u0000");
    const window = windows.get(key) ?? remember(windows, key, { seen: 0, lowest: limit });
    window.seen += 1;
    window.lowest = Math.min(window.lowest, remaining);
    // A known caller: every answer seen in the window was counted, whoever else spends it.
    if (caller !== undefined) {
      if (window.lowest <= limit - window.seen) return passed;
      return failed(
        `X-RateLimit-Remaining does not go down: ${window.seen} answers to one token in one window of ${limit}, the lowest says ${window.lowest} left`,
        { expected: `at most ${limit - window.seen}`, actual: window.lowest },
      );
    }
    if (window.seen < 2) return undefined;
    if (window.lowest < limit) return passed;
    return failed(
      `X-RateLimit-Remaining does not go down: ${window.seen} answers in one window of ${limit}, every one says ${limit} left`,
      { expected: `less than ${limit}`, actual: window.lowest },
    );
  },
};
