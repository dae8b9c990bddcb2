/**
 * `observed-stays-off`: an instance created with `booted: false` is not started until the traffic starts it
 * (cloud-api-v4.md: "A compute instance created with booted false is not started. The boot action then starts it";
 * the description's instance status: it "stays offline until booted"). Until a write at or under it (the boot, any
 * action, an update, a delete), a read of it shows no status of a started instance. Per-run state: the instances
 * created off and not written since (bounded).
 * @module
 */
import { failed, passed } from "../core/result.ts";
import { isAtOrUnder, isSuccess, isWrite, itemTouchOf, requestObject } from "./_internals/items.ts";
import { isObject, remember } from "./_internals/observed.ts";
import { requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

/** Statuses of an instance that was started (facts.md "Instance": status). */
const startedStates = new Set(["booting", "running", "rebooting"]);

/** The check's per-run state (exported: the registry's declared type names it). */
export interface CreatedOff {
  /** Item path → the create's request line (for messages); dropped at the first write at or under it. */
  readonly items: Map<string, string>;
}

export const observedStaysOff: CheckDefinition<CreatedOff> = {
  id: "observed-stays-off",
  title: "An instance created with booted false is not started until the traffic boots it",
  state: () => ({ items: new Map() }),
  check(context, exchange, state) {
    const touch = itemTouchOf(context, exchange);
    if (!touch?.item || touch.resource.singleton) return undefined;
    const { item, role } = touch;
    if (isWrite(exchange)) {
      for (const watched of state.items.keys()) if (isAtOrUnder(item, watched)) state.items.delete(watched);
      if (role === "create" && isSuccess(exchange) && requestObject(exchange)?.booted === false)
        remember(state.items, item, requestLine(exchange));
      return undefined;
    }
    const by = state.items.get(item);
    const { status, json } = exchange.response;
    if (role !== "read" || by === undefined || status !== 200 || !isObject(json)) return undefined;
    if (!startedStates.has(String(json.status))) return passed;
    return failed(
      `an instance made by ${by} with booted false reads ${String(json.status)} before any boot`,
      {
        expected: "not started (provisioning, then offline)",
        actual: json.status,
      },
    );
  },
};
