/**
 * What the `observed-*` checks share: which exchanges they judge (an answered request of an operation, OPTIONS
 * aside), the list request's filter and page parameters, an item's key, and a bounded map for per-run state (a
 * proxy session may last for days).
 * Not a check: `src/checks/_internals/` holds no registered ids.
 * @module
 * @internal
 */
import type { RecordedResponse } from "../../core/exchange.ts";
import type { PageQuery } from "../../oracles/pagination-oracle.ts";
import { conventionsOf } from "../../spec/conventions.ts";
import type { OperationInfo } from "../../spec/types.ts";
import type { AnsweredExchange, CheckContext } from "../types.ts";

/** Windows, walks and callers remembered at most by one check. */
export const rememberedMax = 4096;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The operation an observed judgement applies to: a matched request other than OPTIONS; else undefined. */
export function observedOperation(
  context: CheckContext,
  exchange: AnsweredExchange,
): OperationInfo | undefined {
  if (!exchange.operationId || exchange.request.method.toUpperCase() === "OPTIONS") return undefined;
  return context.operation;
}

/** A paginated list read (GET of a paginated operation): what the filter and page judgements are about. */
export function isListRead(operation: OperationInfo, exchange: AnsweredExchange): boolean {
  return operation.paginated && exchange.request.method.toUpperCase() === "GET";
}

/** The request's filter header (the description's name for it), if it sent one. */
export function filterTextOf(context: CheckContext, exchange: AnsweredExchange): string | undefined {
  return exchange.request.headers[conventionsOf(context.spec).filterHeader.toLowerCase()];
}

/** The `page` and `page_size` a list request asked, as sent. */
export function pageQueryOf(url: URL): PageQuery {
  const page = url.searchParams.get("page");
  const pageSize = url.searchParams.get("page_size");
  return { ...(page !== null ? { page } : {}), ...(pageSize !== null ? { page_size: pageSize } : {}) };
}

/** An item's identity in a list: its `id`, else the whole item. */
export function keyOf(item: unknown): string {
  return isObject(item) && item.id !== undefined ? JSON.stringify(item.id) : JSON.stringify(item);
}

/** `page` of a list answer read exactly from its text (a JSON number above 2^53 loses digits when parsed). */
export function exactPage(response: RecordedResponse): bigint | number | undefined {
  const match = /"page"\s*:\s*(-?\d+)\s*[,}]/.exec(response.text);
  if (match?.[1]) return BigInt(match[1]);
  const page = isObject(response.json) ? response.json.page : undefined;
  return typeof page === "number" ? page : undefined;
}

/** Sets `key`, forgetting the oldest entry when the map is full. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= rememberedMax && !map.has(key)) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
  return value;
}
