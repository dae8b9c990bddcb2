/**
 * `observed-pages`: a list's envelope and page math for the `page`/`page_size` asked (the pagination oracle),
 * values the description refuses not answered 2xx, and no item twice over the pages of one walk: the same list,
 * caller, filter and page size, read page after page with no write seen between them. An item pushed on to a later
 * page while `results` grew by as much (others adding items ahead of it) is the list changing: skipped with the
 * reason, not failed. Per-run state: the walks (bounded) and the count of writes seen.
 * @module
 */
import { type CheckOutcome, failed, passed, skipped } from "../core/result.ts";
import { expectPage, pageViolations, type Sighting, shiftBetween } from "../oracles/pagination-oracle.ts";
import { conventionsOf } from "../spec/conventions.ts";
import {
  exactPage,
  filterTextOf,
  isListRead,
  isObject,
  keyOf,
  observedOperation,
  pageQueryOf,
  remember,
} from "./_internals/observed.ts";
import type { CheckDefinition } from "./types.ts";

interface Walk {
  /** Where each item was first seen: its page in the walk, its place in the list, `results` that page said. */
  readonly seen: Map<string, Sighting>;
  nextPage: bigint;
  /** Pages read so far, and items on them (the place of the next page's first item). */
  pages: number;
  offset: number;
  readonly writesAt: number;
}

/** The check's per-run state (exported: the registry's declared type names it). */
export interface Walks {
  readonly walks: Map<string, Walk>;
  /** Writes (answered requests other than GET, HEAD, OPTIONS) seen so far: one between two pages ends the walk. */
  writes: number;
}

export const observedPages: CheckDefinition<Walks> = {
  id: "observed-pages",
  title: "A list's page math holds, and no item shows twice over the pages of one walk",
  state: () => ({ walks: new Map(), writes: 0 }),
  check(context, exchange, state) {
    if (exchange.operationId && context.operation && !/^(GET|HEAD|OPTIONS)$/i.test(exchange.request.method))
      state.writes += 1;
    const operation = observedOperation(context, exchange);
    if (!operation || !isListRead(operation, exchange)) return undefined;
    const { response } = exchange;
    const url = new URL(exchange.request.url);
    const bounds = conventionsOf(context.spec).pageSize;
    const query = pageQueryOf(url);
    const refused = expectPage(query, 0, bounds);
    if (refused.status === "refused") {
      if (response.status < 200 || response.status >= 300) return undefined;
      return failed(
        `${refused.fields.join(" and ")} out of the description's bounds was answered ${response.status}`,
        { expected: 400, actual: response.status },
      );
    }
    if (response.status !== 200) return undefined;
    if (response.truncated) return skipped("the body was cut: the envelope cannot be judged");
    const body = isObject(response.json) ? response.json : undefined;
    if (!body) return failed("a list answer is not a JSON object", { actual: response.text.slice(0, 200) });
    const data = Array.isArray(body.data) ? body.data : undefined;
    const violations = pageViolations(
      query,
      { page: exactPage(response), pages: body.pages, results: body.results, dataLength: data?.length },
      bounds,
    );
    const [violation] = violations;
    if (violation)
      return failed(violation.message, { expected: violation.expected, actual: violation.actual });
    const walkKey = [
      context.caller,
      operation.operationId,
      url.pathname,
      filterTextOf(context, exchange) ?? "",
      query.page_size ?? "",
    ].join("\u0000");
    return walkOn(state, walkKey, BigInt(query.page ?? "1"), data ?? [], body.results);
  },
};

/** One more page of a walk: an item seen on an earlier page fails, unless the list grew under it. */
function walkOn(
  state: Walks,
  walkKey: string,
  page: bigint,
  data: unknown[],
  results: unknown,
): CheckOutcome {
  let walk = state.walks.get(walkKey);
  if (!walk || page === 1n || page !== walk.nextPage || walk.writesAt !== state.writes) {
    const fresh = { seen: new Map(), nextPage: page, pages: 0, offset: 0, writesAt: state.writes };
    walk = remember(state.walks, walkKey, fresh);
  }
  walk.nextPage = page + 1n;
  const shifted: string[] = [];
  for (const [index, item] of data.entries()) {
    const key = keyOf(item);
    const sighting = { page: walk.pages, position: walk.offset + index, results };
    const first = walk.seen.get(key);
    if (first && shiftBetween(first, sighting)) {
      // Pushed on by items others added ahead of it while the walk went on: the list changed, no repeat.
      shifted.push(key);
    } else if (first) {
      state.walks.delete(walkKey);
      return failed(`item ${key} is on two pages of one walk (page ${page})`, {
        expected: "each item once",
        actual: key,
      });
    } else walk.seen.set(key, sighting);
  }
  walk.pages += 1;
  walk.offset += data.length;
  if (shifted.length === 0) return passed;
  return skipped(
    `item(s) ${shifted.slice(0, 5).join(", ")}${shifted.length > 5 ? ", ..." : ""} showed again on page ${page} of one walk while the list grew (results ${String(results)}): the list changed under the walk, not judged as a repeat`,
  );
}
