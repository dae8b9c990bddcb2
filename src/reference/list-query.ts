/**
 * `page`, `page_size` and `X-Filter` of a paginated list, parsed and checked before the handler runs, and the
 * list envelope built from a whole collection.
 *
 * Documented choices beyond the API description:
 * - `page` and `page_size` must be decimal integers; anything else (or out of range) is a 400 naming the field;
 * - `page` is parsed exactly as a bigint: a page above 2^64 / page_size answers the last page (as the
 *   description says); a page past the end below that bound answers an empty `data` with the page asked for;
 * - an empty collection has `pages: 1` and `results: 0`.
 * @module
 */
import type { OperationInfo } from "../spec/types.ts";
import { applyFilter, type ParsedFilter, parseFilter } from "./filter.ts";
import { type ApiErrorItem, fieldError } from "./http/reply.ts";

export const pageSizeBounds = Object.freeze({ min: 25, max: 500, default: 100 });
const twoTo64 = 2n ** 64n;

export interface ListQuery {
  /** Exact, as asked (bigint: it may exceed 2^53). */
  readonly page: bigint;
  readonly pageSize: number;
  readonly filter: ParsedFilter | undefined;
}

export type ListQueryParse =
  | { readonly ok: true; readonly list: ListQuery }
  | { readonly ok: false; readonly errors: ApiErrorItem[] };

const decimal = /^[0-9]{1,400}$/;

/** Reads the list parameters of a request; every problem is reported, each naming its field. */
export function parseListQuery(
  operation: OperationInfo,
  query: URLSearchParams,
  filterHeader: string | undefined,
): ListQueryParse {
  const errors: ApiErrorItem[] = [];
  let page = 1n;
  const rawPage = query.get("page");
  if (rawPage !== null) {
    if (!decimal.test(rawPage) || BigInt(rawPage) < 1n)
      errors.push(fieldError("page", "page must be an integer of at least 1"));
    else page = BigInt(rawPage);
  }
  let pageSize: number = pageSizeBounds.default;
  const rawSize = query.get("page_size");
  if (rawSize !== null) {
    const size = decimal.test(rawSize) ? Number(rawSize) : Number.NaN;
    if (!(size >= pageSizeBounds.min && size <= pageSizeBounds.max)) {
      errors.push(
        fieldError(
          "page_size",
          `page_size must be an integer from ${pageSizeBounds.min} to ${pageSizeBounds.max}`,
        ),
      );
    } else pageSize = size;
  }
  let filter: ParsedFilter | undefined;
  if (filterHeader !== undefined) {
    const parsed = parseFilter(filterHeader, operation.filterableFields);
    if (parsed.ok) filter = parsed.filter;
    else errors.push(...parsed.errors);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, list: { page, pageSize, filter } };
}

export interface ListPage<T> {
  readonly data: T[];
  /** A number when it fits exactly, else a bigint (written as a JSON integer). */
  readonly page: number | bigint;
  readonly pages: number;
  readonly results: number;
}

const exact = (value: bigint): number | bigint =>
  value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;

/** Filters, orders and slices a whole collection into the list envelope. */
export function paginate<T extends object>(
  items: readonly T[],
  list: ListQuery | undefined,
  filterWith: typeof applyFilter = applyFilter,
): ListPage<T> {
  const query = list ?? { page: 1n, pageSize: pageSizeBounds.default, filter: undefined };
  const selected = query.filter ? filterWith(items, query.filter) : [...items];
  const results = selected.length;
  const pages = Math.max(1, Math.ceil(results / query.pageSize));
  const page = query.page > twoTo64 / BigInt(query.pageSize) ? BigInt(pages) : query.page;
  const start = (page - 1n) * BigInt(query.pageSize);
  const data = start < BigInt(results) ? selected.slice(Number(start), Number(start) + query.pageSize) : [];
  return { data, page: exact(page), pages, results };
}
