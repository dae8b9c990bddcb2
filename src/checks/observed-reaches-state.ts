/**
 * `observed-reaches-state`: an item the traffic boots (a `boot` or `reboot` action answered 2xx, or a create
 * answered `provisioning` or `booting` and not asked `booted: false`) and then polls (reads it again and again)
 * reaches `running` within the bound. The description states no bound: it is the run's own wait for a remote target
 * (5 minutes). Judged when a read says `running` (passed), else at the end of the traffic for an item read at least
 * twice (one read is a read back, not polling): polled past the bound without it is a failure; polling that stopped
 * before the bound is skipped with the reason. Any other write at or under the item (a shutdown, a delete) ends the
 * watch unjudged. Per-run state: the watches (bounded).
 * @module
 */
import type { Exchange } from "../core/exchange.ts";
import { failed, passed, skipped } from "../core/result.ts";
import { isAtOrUnder, isSuccess, isWrite, itemTouchOf, requestObject } from "./_internals/items.ts";
import { isObject, remember } from "./_internals/observed.ts";
import { requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition, EndFinding } from "./types.ts";

/** How long a boot may take: the run's own wait for a remote target (`src/toolkit/waits.ts`). */
export const reachBoundMs = 300_000;
const target = "running";
const startingActions = /\/(boot|reboot)$/;
/** A create's answer on the way to `running` (an instance's; a node's `DOWN`, a client's `active` are not). */
const startingStates = new Set(["provisioning", "booting"]);

interface Watch {
  readonly by: string;
  readonly since: number;
  /** The last poll (a read of the item) and when its answer came. */
  last?: { readonly exchange: Exchange; readonly at: number; readonly status: unknown };
  /** Reads of the item since: one is a read back, two or more are polling. */
  polls: number;
}

/** The check's per-run state (exported: the registry's declared type names it). */
export interface Watches {
  readonly watches: Map<string, Watch>;
}

export const observedReachesState: CheckDefinition<Watches> = {
  id: "observed-reaches-state",
  title: "A booted or created instance the traffic polls reaches running within the bound",
  state: () => ({ watches: new Map() }),
  check(context, exchange, state) {
    const touch = itemTouchOf(context, exchange);
    if (!touch?.item || touch.resource.singleton) return undefined;
    const { item, role } = touch;
    if (isWrite(exchange)) {
      for (const watched of state.watches.keys())
        if (isAtOrUnder(item, watched)) state.watches.delete(watched);
      if (isSuccess(exchange) && starts(role, exchange, context.operation?.pathTemplate))
        remember(state.watches, item, { by: requestLine(exchange), since: context.sentAt, polls: 0 });
      return undefined;
    }
    const watch = state.watches.get(item);
    if (role !== "read" || !watch || exchange.response.status !== 200) return undefined;
    const status = isObject(exchange.response.json) ? exchange.response.json.status : undefined;
    watch.last = { exchange, at: context.receivedAt, status };
    watch.polls += 1;
    if (status !== target) return undefined;
    state.watches.delete(item);
    return passed;
  },
  end: (state) => [...state.watches.values()].flatMap((watch) => verdictAtEnd(watch)),
};

/** Does this write start the item towards `running`? */
function starts(role: string, exchange: Parameters<typeof requestObject>[0], template = ""): boolean {
  if (role === "action") return startingActions.test(template);
  if (role !== "create") return false;
  const answer = exchange.response.json;
  return (
    isObject(answer) && startingStates.has(String(answer.status)) && requestObject(exchange)?.booted !== false
  );
}

/**
 * A watch still open when the traffic ended: polled past the bound fails; polled less is not judged; read once
 * (a create read back, as a run's body cases do) is no polling: nothing to say.
 */
function verdictAtEnd(watch: Watch): EndFinding[] {
  const { last } = watch;
  if (!last || watch.polls < 2) return [];
  const seconds = Math.round((last.at - watch.since) / 1000);
  if (last.at - watch.since > reachBoundMs)
    return [
      {
        outcome: failed(
          `after ${watch.by} the item was still not ${target} when last read, ${seconds} s later`,
          {
            expected: `${target} within ${reachBoundMs / 1000} s`,
            actual: last.status,
          },
        ),
        exchange: last.exchange,
      },
    ];
  return [
    {
      outcome: skipped(
        `after ${watch.by} the traffic stopped reading the item ${seconds} s later (last: ${String(last.status)}), before the bound of ${reachBoundMs / 1000} s`,
      ),
      exchange: last.exchange,
    },
  ];
}
