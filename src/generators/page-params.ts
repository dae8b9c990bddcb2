/**
 * `pageParams`: `page` / `page_size` query values at the edges of the description's pagination rules, each with
 * its provenance. Valid ones (`positive`): page 1, the last page, last + 1, a page at and above 2^64 / page_size
 * (computed exactly with bigints), page_size 25, 100, 500, a power of two (where 2^64 / page_size is exact) or
 * omitted. Invalid ones (`negative`, one mutation per parameter at fault, `field` = the parameter): page 0,
 * negative, non-integer, empty or a word; page_size 24, 501, 0, non-integer, empty.
 *
 * Values are the query text as sent (strings), since `2^64 / 25` is not a JavaScript number. The page size
 * bounds are the described ones (25..500, default 100) unless `bounds` says otherwise (another edition of the
 * description): every edge above moves with them.
 * @module
 * @public
 */
import fc from "fast-check";
import { describedPageSize, type PageSizeBounds } from "../spec/conventions.ts";
import { type Generated, type Mutation, negative, positive } from "./case-meta.ts";

export interface PageQueryValues {
  readonly page?: string;
  readonly page_size?: string;
}

export interface PageParamsConstraints {
  /** How many items the list holds (the last page depends on it). */
  readonly results: number;
  /** Only valid values (default false: valid and invalid mixed). */
  readonly validOnly?: boolean;
  /** Only invalid values (default false). */
  readonly invalidOnly?: boolean;
  /** `page_size` bounds and default (default: the described 25..500, 100). */
  readonly bounds?: PageSizeBounds;
}

interface Choice {
  readonly scenario: string;
  /** undefined: the parameter is omitted. */
  readonly text: string | undefined;
  readonly valid: boolean;
  readonly detail?: string;
}

const limit = 2n ** 64n;

/** The page size edges of `bounds`; a power of two is one where 2^64 / page_size is exact. */
function pageSizeChoices({ min, max, default: fallback }: PageSizeBounds): Choice[] {
  const powerOfTwo = 2 ** Math.ceil(Math.log2(Math.max(1, min)));
  return [
    { scenario: "page-size-omitted", text: undefined, valid: true },
    { scenario: "page-size-min", text: String(min), valid: true },
    { scenario: "page-size-default", text: String(fallback), valid: true },
    { scenario: "page-size-max", text: String(max), valid: true },
    ...(powerOfTwo <= max
      ? [{ scenario: "page-size-power-of-two", text: String(powerOfTwo), valid: true }]
      : []),
    {
      scenario: "page-size-below-min",
      text: String(min - 1),
      valid: false,
      detail: `${min - 1} is below ${min}`,
    },
    {
      scenario: "page-size-above-max",
      text: String(max + 1),
      valid: false,
      detail: `${max + 1} is above ${max}`,
    },
    ...(min > 0
      ? [{ scenario: "page-size-zero", text: "0", valid: false, detail: `0 is below ${min}` }]
      : []),
    { scenario: "page-size-non-integer", text: `${min}.5`, valid: false, detail: "not an integer" },
    { scenario: "page-size-empty", text: "", valid: false, detail: "an empty value" },
  ];
}

function pageChoices(results: number, pageSize: number): Choice[] {
  const pages = Math.max(1, Math.ceil(results / pageSize));
  const bound = limit / BigInt(pageSize);
  return [
    { scenario: "page-omitted", text: undefined, valid: true },
    { scenario: "page-first", text: "1", valid: true },
    { scenario: "page-last", text: String(pages), valid: true },
    { scenario: "page-last-plus-one", text: String(pages + 1), valid: true },
    { scenario: "page-at-limit", text: bound.toString(), valid: true },
    { scenario: "page-above-limit", text: (bound + 1n).toString(), valid: true },
    { scenario: "page-far-above-limit", text: (limit * 10n).toString(), valid: true },
    { scenario: "page-zero", text: "0", valid: false, detail: "0 is below 1" },
    { scenario: "page-negative", text: "-1", valid: false, detail: "-1 is below 1" },
    { scenario: "page-non-integer", text: "1.5", valid: false, detail: "not an integer" },
    { scenario: "page-empty", text: "", valid: false, detail: "an empty value" },
    { scenario: "page-word", text: "last", valid: false, detail: "not a number" },
  ];
}

/**
 * Page and page size query values at the edges, with provenance.
 * @public
 */
export function pageParams(constraints: PageParamsConstraints): fc.Arbitrary<Generated<PageQueryValues>> {
  const keep = (page: Choice, size: Choice) => {
    const valid = page.valid && size.valid;
    return (!constraints.validOnly || valid) && (!constraints.invalidOnly || !valid);
  };
  const bounds = constraints.bounds ?? describedPageSize;
  const sizes = pageSizeChoices(bounds).filter((choice) => !constraints.validOnly || choice.valid);
  return fc
    .constantFrom(...sizes)
    .chain((size) => {
      const effective = size.valid && size.text !== undefined ? Number(size.text) : bounds.default;
      // Never empty: every page size has valid and invalid pages to pair with.
      const pairs = pageChoices(constraints.results, effective)
        .filter((page) => keep(page, size))
        .map((page) => [page, size] as const);
      return fc.constantFrom(...pairs);
    })
    .map(([page, size]) => {
      const value: PageQueryValues = {
        ...(page.text !== undefined ? { page: page.text } : {}),
        ...(size.text !== undefined ? { page_size: size.text } : {}),
      };
      const scenario = `${page.scenario}+${size.scenario}`;
      const mutations: Mutation[] = [];
      if (!page.valid) {
        mutations.push({ operator: page.scenario, pointer: "/page", field: "page", detail: page.detail });
      }
      if (!size.valid) {
        mutations.push({
          operator: size.scenario,
          pointer: "/page_size",
          field: "page_size",
          detail: size.detail,
        });
      }
      return { value, meta: mutations.length > 0 ? negative(scenario, mutations) : positive(scenario) };
    });
}
