/**
 * The pagination oracle: what a paginated list must answer for given `page` / `page_size` query values and a
 * collection of `results` items, with exact bigint arithmetic for the description's 2^64 rule.
 *
 * Written from `cloud-api-v4.md` ("Collections: pagination", "Limits") and `facts.md` only:
 * - `page` is an integer starting at 1; `page_size` an integer, default 100, allowed 25..500;
 * - a `page` above 2^64 / `page_size` returns the last possible page (exactly: `page * page_size > 2^64`,
 *   computed on bigints, so no rounding decides it);
 * - the envelope is `{data, page, pages, results}`: `pages` = ceil(`results` / `page_size`), `page` is the
 *   page answered;
 * - a bad `page` or `page_size` is not documented: facts.md calls a 400 naming the parameter the natural fit,
 *   and this oracle expects it for values that are not decimal integers or are out of range.
 *
 * Choices where the description is silent (the reference server documents the same ones):
 * - zero results: `pages` is 1 and page 1 answers an empty `data` (a list always has a first page);
 * - a page past the last one but not above 2^64 / `page_size` answers an empty `data` and echoes the page asked;
 * - an empty value (`page=`) is a bad value, not an omitted one.
 * Values a lenient parser might read either way (`+5`, `05`, ` 5`, `1e2`) are `unspecified`.
 *
 * Another edition of the description may bound `page_size` otherwise: every judgement takes the bounds as an
 * optional argument (suites pass what the loaded description says), defaulting to the described ones
 * (`describedPageSize` of the conventions: 25..500, default 100).
 * @module
 */
import { describedPageSize, type PageSizeBounds } from "../spec/conventions.ts";

/** 2^64: a page above `pageLimit / page_size` answers the last page. */
export const pageLimit = 2n ** 64n;

/** The query values of a list request, as sent (text), or undefined when not sent. */
export interface PageQuery {
  readonly page?: string;
  readonly page_size?: string;
}

export type PageParameter = "page" | "page_size";

export type PageExpectation =
  | {
      readonly status: "page";
      /** The page the answer must carry (the page asked, or the last page above the 2^64 bound). */
      readonly page: bigint;
      readonly pageSize: number;
      readonly pages: number;
      readonly results: number;
      /** The answer's items are the collection's items [start, end). */
      readonly start: number;
      readonly end: number;
      /** True when the page asked was above 2^64 / page_size and the last page stands in for it. */
      readonly clamped: boolean;
    }
  | {
      readonly status: "refused";
      /** Every parameter at fault (each must be named by an error's `field`). */
      readonly fields: readonly PageParameter[];
    }
  | { readonly status: "unspecified"; readonly reason: string };

type ParsedValue =
  | { readonly kind: "omitted" }
  | { readonly kind: "integer"; readonly value: bigint }
  | { readonly kind: "bad" }
  | { readonly kind: "unclear"; readonly text: string };

const decimal = /^-?(?:0|[1-9][0-9]*)$/;
/** Text a lenient integer parser may still read as a number. */
const lenient = /^\s*[+-]?(?:[0-9]+(?:\.0*)?|[0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*$/i;

function parseValue(text: string | undefined): ParsedValue {
  if (text === undefined) return { kind: "omitted" };
  if (decimal.test(text)) return { kind: "integer", value: BigInt(text) };
  if (lenient.test(text) && !/^\s*-?[0-9]*\.[0-9]*[1-9]/.test(text)) return { kind: "unclear", text };
  return { kind: "bad" };
}

/** pages = ceil(results / pageSize), and 1 for an empty collection. */
export function pageCount(results: number, pageSize: number): number {
  return Math.max(1, Math.ceil(results / pageSize));
}

/** Is `page` above 2^64 / `pageSize` (exactly)? */
export function aboveLimit(page: bigint, pageSize: number): boolean {
  return page * BigInt(pageSize) > pageLimit;
}

/** The largest page that is not above 2^64 / `pageSize`. */
export function lastPageBelowLimit(pageSize: number): bigint {
  return pageLimit / BigInt(pageSize);
}

/**
 * What a list of `results` items must answer for the query values given, `page_size` bounded by `bounds`.
 * @public
 */
export function expectPage(
  query: PageQuery,
  results: number,
  bounds: PageSizeBounds = describedPageSize,
): PageExpectation {
  const page = parseValue(query.page);
  const size = parseValue(query.page_size);
  const fields: PageParameter[] = [];
  if (page.kind === "bad" || (page.kind === "integer" && page.value < 1n)) fields.push("page");
  if (
    size.kind === "bad" ||
    (size.kind === "integer" && (size.value < BigInt(bounds.min) || size.value > BigInt(bounds.max)))
  ) {
    fields.push("page_size");
  }
  if (fields.length > 0) return { status: "refused", fields };
  if (page.kind === "unclear") return { status: "unspecified", reason: `page=${JSON.stringify(page.text)}` };
  if (size.kind === "unclear") {
    return { status: "unspecified", reason: `page_size=${JSON.stringify(size.text)}` };
  }
  const pageSize = size.kind === "integer" ? Number(size.value) : bounds.default;
  const asked = page.kind === "integer" ? page.value : 1n;
  const pages = pageCount(results, pageSize);
  const clamped = aboveLimit(asked, pageSize);
  const answered = clamped ? BigInt(pages) : asked;
  const start = answered > BigInt(pages) ? results : Number(answered - 1n) * pageSize;
  const end = Math.min(results, start + pageSize);
  return { status: "page", page: answered, pageSize, pages, results, start, end, clamped };
}

/** The envelope of one answer, with `page` read exactly (it may exceed 2^53). */
export interface PageAnswer {
  readonly page: bigint | number | undefined;
  readonly pages: unknown;
  readonly results: unknown;
  readonly dataLength: number | undefined;
}

/** One broken invariant of a page answer. */
export interface PageViolation {
  readonly invariant:
    | "page-echo"
    | "pages-is-ceil"
    | "page-size-bound"
    | "page-length"
    | "results-integer"
    | "data-array";
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
}

/**
 * The invariants one 200 answer must keep for the query it answered, from its own `results` (so another client
 * adding items meanwhile cannot break them): `page` echoes the request (or is the last page above 2^64 /
 * page_size), `pages` = ceil(`results` / page_size) (1 when empty), `data` holds exactly the items of that slice.
 * @public
 */
export function pageViolations(
  query: PageQuery,
  answer: PageAnswer,
  bounds: PageSizeBounds = describedPageSize,
): PageViolation[] {
  const violations: PageViolation[] = [];
  if (answer.dataLength === undefined) {
    violations.push({
      invariant: "data-array",
      expected: "an array",
      actual: undefined,
      message: "data is not an array",
    });
  }
  if (typeof answer.results !== "number" || !Number.isInteger(answer.results) || answer.results < 0) {
    violations.push({
      invariant: "results-integer",
      expected: "a non-negative integer",
      actual: answer.results,
      message: "results is not a non-negative integer",
    });
    return violations;
  }
  const expected = expectPage(query, answer.results, bounds);
  if (expected.status !== "page") return violations;
  const actualPage = answer.page === undefined ? undefined : BigInt(answer.page);
  if (actualPage !== expected.page) {
    violations.push({
      invariant: "page-echo",
      expected: expected.page.toString(),
      actual: actualPage?.toString(),
      message: expected.clamped
        ? `a page above 2^64 / ${expected.pageSize} answers the last page (${expected.pages})`
        : "page echoes the page asked",
    });
  }
  if (answer.pages !== expected.pages) {
    violations.push({
      invariant: "pages-is-ceil",
      expected: expected.pages,
      actual: answer.pages,
      message: `pages = max(1, ceil(results ${answer.results} / page_size ${expected.pageSize}))`,
    });
  }
  if (answer.dataLength !== undefined && answer.dataLength > expected.pageSize) {
    violations.push({
      invariant: "page-size-bound",
      expected: `at most ${expected.pageSize}`,
      actual: answer.dataLength,
      message: "a page holds at most page_size items",
    });
  } else if (answer.dataLength !== undefined && answer.dataLength !== expected.end - expected.start) {
    violations.push({
      invariant: "page-length",
      expected: expected.end - expected.start,
      actual: answer.dataLength,
      message: `page ${expected.page} of ${answer.results} items at page_size ${expected.pageSize} must hold ${expected.end - expected.start}`,
    });
  }
  return violations;
}

/** The outcome of reading every page of a list, judged: each item exactly once, none missing. */
export interface WalkJudgement {
  readonly duplicated: readonly string[];
  /** Keys of a reference read (another page size, or one page of 500) missing from this walk. */
  readonly missing: readonly string[];
  /** Keys this walk returned that the reference read did not. */
  readonly extra: readonly string[];
}

/** Compares a walk over all pages with another read of the same collection (same set, each item once). */
export function judgeWalk(walk: readonly string[], reference: readonly string[]): WalkJudgement {
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  for (const key of walk) {
    if (seen.has(key)) duplicated.add(key);
    seen.add(key);
  }
  const referenceSet = new Set(reference);
  return {
    duplicated: [...duplicated],
    missing: [...referenceSet].filter((key) => !seen.has(key)),
    extra: [...seen].filter((key) => !referenceSet.has(key)),
  };
}

/** One page of a read, in order: its items' keys and the `results` its envelope said when it was read. */
export interface PageKeys {
  readonly keys: readonly string[];
  readonly results: unknown;
}

/** An item shown again on a later page because items were added ahead of it while the pages were read. */
export interface Shift {
  readonly key: string;
  /** Where it showed first and again: indices into the pages and into their items. */
  readonly first: { readonly page: number; readonly item: number };
  readonly again: { readonly page: number; readonly item: number };
  /** How many places on it showed again, and how much `results` grew between the two reads. */
  readonly moved: number;
  readonly grew: number;
}

/** The repeats of a read page by page: the target's, and the shifts of a list that grew meanwhile. */
export interface RepeatJudgement {
  /** Keys shown more than once that no growth explains: on one page, or further on than `results` grew. */
  readonly twice: readonly string[];
  readonly shifts: readonly Shift[];
}

/**
 * Tells the repeats of a list read page by page (pages 1, 2, ... at one size) apart. A list that gains items ahead
 * of the pages still to read (a newest-first feed while others write) pushes its items on: the last items of a
 * page show again at the start of the next. An item shown again on a later page no more places on than
 * `results` grew between the two reads is such a shift: the list changed under the walk, as a full walk's
 * snapshots would say. Any other repeat (twice on one page, or with `results` unchanged) is the target's.
 * An item removed ahead of the pages still to read pulls the rest back instead: an item skipped, never one twice.
 */
export function judgeRepeats(pages: readonly PageKeys[]): RepeatJudgement {
  const firstSeen = new Map<string, Sighting & { readonly item: number }>();
  const twice = new Set<string>();
  const shifts: Shift[] = [];
  let offset = 0;
  for (const [page, { keys, results }] of pages.entries()) {
    for (const [item, key] of keys.entries()) {
      const again = { page, position: offset + item, results };
      const first = firstSeen.get(key);
      if (!first) {
        firstSeen.set(key, { ...again, item });
        continue;
      }
      const shift = shiftBetween(first, again);
      if (shift)
        shifts.push({ key, first: { page: first.page, item: first.item }, again: { page, item }, ...shift });
      else twice.add(key);
    }
    offset += keys.length;
  }
  return { twice: [...twice], shifts };
}

/** Where a read saw an item: the page (in reading order), its place in the list, and `results` that page said. */
export interface Sighting {
  readonly page: number;
  readonly position: number;
  readonly results: unknown;
}

/**
 * How an item seen at `first` and again at `again` was pushed on by items added ahead of it in between: on a later
 * page, no more places on than `results` grew between the two reads. Undefined when that is not what happened (the
 * same page, `results` unchanged or not a number, or further on than the list grew): a repeat of the target's.
 */
export function shiftBetween(
  first: Sighting,
  again: Sighting,
): { readonly moved: number; readonly grew: number } | undefined {
  if (again.page <= first.page) return undefined;
  if (typeof first.results !== "number" || typeof again.results !== "number") return undefined;
  const grew = again.results - first.results;
  const moved = again.position - first.position;
  return moved > 0 && moved <= grew ? { moved, grew } : undefined;
}
