/**
 * `observed-filter-complete`: a filtered list seen beside the unfiltered one (the same list and caller, each whole
 * on one page, no write seen between them, in either order) leaves out no item the X-Filter oracle finds in the
 * unfiltered items. What `observed-filter` judges on the filtered answer alone (an item that does not match, the
 * order) is left to it; this is what only the unfiltered list can show. Per-run state: per list, the last whole
 * unfiltered answer and the last whole filtered ones (bounded), and the count of writes seen.
 * @module
 */
import { type CheckOutcome, failed, passed } from "../core/result.ts";
import { type CompiledFilter, checkFilterHeader, judgeFilteredList } from "../oracles/filter-oracle.ts";
import { isWrite } from "./_internals/items.ts";
import {
  filterTextOf,
  isListRead,
  isObject,
  keyOf,
  observedOperation,
  remember,
} from "./_internals/observed.ts";
import type { CheckDefinition } from "./types.ts";

type Item = Record<string, unknown>;

interface Sighting {
  readonly items: readonly Item[];
  readonly writes: number;
}

interface Filtered extends Sighting {
  readonly text: string;
  readonly filter: CompiledFilter;
}

/** The check's per-run state (exported: the registry's declared type names it). */
export interface Lists {
  readonly unfiltered: Map<string, Sighting>;
  /** List key → filter text → the last whole answer to it. */
  readonly filtered: Map<string, Map<string, Filtered>>;
  writes: number;
}

/** Filtered answers remembered per list. */
const filtersPerList = 16;

export const observedFilterComplete: CheckDefinition<Lists> = {
  id: "observed-filter-complete",
  title: "A filtered list leaves out no matching item of the unfiltered list seen beside it",
  state: () => ({ unfiltered: new Map(), filtered: new Map(), writes: 0 }),
  check(context, exchange, state) {
    if (exchange.operationId && context.operation && isWrite(exchange)) state.writes += 1;
    const operation = observedOperation(context, exchange);
    if (!operation || !isListRead(operation, exchange) || exchange.response.status !== 200) return undefined;
    const items = wholeList(exchange.response.json, new URL(exchange.request.url));
    if (!items) return undefined;
    const url = new URL(exchange.request.url);
    const list = [
      context.caller,
      operation.operationId,
      url.pathname,
      url.searchParams.get("page_size") ?? "",
    ].join("\u0000");
    const text = filterTextOf(context, exchange);
    if (text === undefined) {
      const unfiltered = remember(state.unfiltered, list, { items, writes: state.writes });
      const beside = [...(state.filtered.get(list)?.values() ?? [])].filter(
        (seen) => seen.writes === state.writes,
      );
      return judgeAll(beside, unfiltered, operation.filterableFields);
    }
    const verdict = checkFilterHeader(text, operation.filterableFields);
    if (verdict.status !== "valid") return undefined;
    const byText = state.filtered.get(list) ?? remember(state.filtered, list, new Map<string, Filtered>());
    const filtered = remember(byText, text, { items, writes: state.writes, text, filter: verdict.filter });
    if (byText.size > filtersPerList) byText.delete(byText.keys().next().value as string);
    const unfiltered = state.unfiltered.get(list);
    if (!unfiltered || unfiltered.writes !== state.writes) return undefined;
    return judgeAll([filtered], unfiltered, operation.filterableFields);
  },
};

/** The items of a list answer that is the whole list (one page of one), else undefined. */
function wholeList(body: unknown, url: URL): Item[] | undefined {
  if (!isObject(body) || body.pages !== 1 || !Array.isArray(body.data)) return undefined;
  if ((url.searchParams.get("page") ?? "1") !== "1" || !body.data.every(isObject)) return undefined;
  return body.data as Item[];
}

/** Each filtered answer against the unfiltered one: the first that left an item out fails. */
function judgeAll(
  filtered: readonly Filtered[],
  unfiltered: Sighting,
  fields: Parameters<typeof judgeFilteredList>[0]["fields"],
): CheckOutcome | undefined {
  if (filtered.length === 0) return undefined;
  for (const seen of filtered) {
    const judgement = judgeFilteredList({
      before: unfiltered.items,
      after: unfiltered.items,
      returned: seen.items,
      pages: 1,
      filter: seen.filter,
      key: keyOf,
      fields,
    });
    if (judgement.status === "failed" && judgement.missing.length > 0)
      return failed("a filtered list leaves out items of the unfiltered list that match the filter", {
        expected: { filter: seen.text, missing: judgement.missing.slice(0, 10) },
        actual: seen.items.map(keyOf).slice(0, 10),
      });
  }
  return passed;
}
