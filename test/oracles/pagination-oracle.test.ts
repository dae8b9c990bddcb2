import { describe, expect, it } from "vitest";
import {
  aboveLimit,
  expectPage,
  judgeRepeats,
  judgeWalk,
  lastPageBelowLimit,
  type PageQuery,
  pageCount,
  pageViolations,
} from "../../src/oracles/pagination-oracle.ts";
import type { PageSizeBounds } from "../../src/spec/conventions.ts";

describe("pagination oracle: expected pages", () => {
  const pages: [string, PageQuery, number, Record<string, unknown>][] = [
    ["defaults: page 1 of 100", {}, 230, { page: 1n, pageSize: 100, pages: 3, start: 0, end: 100 }],
    ["the last page is short", { page: "3" }, 230, { page: 3n, pages: 3, start: 200, end: 230 }],
    ["a page past the end is empty and echoed", { page: "4" }, 230, { page: 4n, start: 230, end: 230 }],
    [
      "page_size 25",
      { page: "2", page_size: "25" },
      60,
      { page: 2n, pageSize: 25, pages: 3, start: 25, end: 50 },
    ],
    ["page_size 500", { page_size: "500" }, 60, { pageSize: 500, pages: 1, start: 0, end: 60 }],
    ["zero results: one empty page", {}, 0, { page: 1n, pages: 1, results: 0, start: 0, end: 0 }],
    ["exactly full pages", { page: "2", page_size: "25" }, 50, { pages: 2, start: 25, end: 50 }],
    [
      "2^64 / 25 is not above the bound: echoed",
      { page: "737869762948382064", page_size: "25" },
      60,
      { page: 737869762948382064n, clamped: false, start: 60, end: 60 },
    ],
    [
      "one more is above it: the last page",
      { page: "737869762948382065", page_size: "25" },
      60,
      { page: 3n, clamped: true, start: 50, end: 60 },
    ],
    [
      "page_size 32 divides 2^64: page 2^59 is exactly the bound, not above it",
      { page: "576460752303423488", page_size: "32" },
      10,
      { page: 576460752303423488n, clamped: false },
    ],
    [
      "2^59 + 1 at page_size 32 is above it",
      { page: "576460752303423489", page_size: "32" },
      10,
      { page: 1n, clamped: true, start: 0, end: 10 },
    ],
    [
      "a huge page of an empty list answers page 1",
      { page: "99999999999999999999999" },
      0,
      { page: 1n, end: 0 },
    ],
  ];
  it.each(pages)("%s", (_name, query, results, expected) => {
    const answer = expectPage(query, results);
    expect(answer.status).toBe("page");
    expect(answer).toMatchObject(expected);
  });

  const refused: [string, PageQuery, string[]][] = [
    ["page 0", { page: "0" }, ["page"]],
    ["a negative page", { page: "-1" }, ["page"]],
    ["a fractional page", { page: "1.5" }, ["page"]],
    ["an empty page", { page: "" }, ["page"]],
    ["a word", { page: "last" }, ["page"]],
    ["page_size 24", { page_size: "24" }, ["page_size"]],
    ["page_size 501", { page_size: "501" }, ["page_size"]],
    ["a fractional page_size", { page_size: "25.5" }, ["page_size"]],
    ["a huge page_size", { page_size: "18446744073709551616" }, ["page_size"]],
    ["both at once", { page: "0", page_size: "501" }, ["page", "page_size"]],
  ];
  it.each(refused)("%s is refused naming the parameter", (_name, query, fields) => {
    expect(expectPage(query, 10)).toEqual({ status: "refused", fields });
  });

  it.each(["+5", "05", " 5", "1e2", "2.0"])("page=%j is left open", (page) => {
    expect(expectPage({ page }, 10).status).toBe("unspecified");
  });

  it("the 2^64 bound is exact (bigint), also where a double would round", () => {
    expect(lastPageBelowLimit(25)).toBe(737869762948382064n);
    expect(aboveLimit(737869762948382064n, 25)).toBe(false);
    expect(aboveLimit(737869762948382065n, 25)).toBe(true);
    expect(aboveLimit(lastPageBelowLimit(500), 500)).toBe(false);
    expect(aboveLimit(lastPageBelowLimit(500) + 1n, 500)).toBe(true);
    // As doubles both sides of the bound are the same number.
    expect(Number(lastPageBelowLimit(100))).toBe(Number(lastPageBelowLimit(100) + 1n));
  });

  it("pages = ceil(results / page_size), 1 when empty", () => {
    expect([0, 1, 25, 26, 100, 101].map((results) => pageCount(results, 25))).toEqual([1, 1, 1, 2, 4, 5]);
  });
});

describe("pagination oracle: other page size bounds", () => {
  const small: PageSizeBounds = { min: 10, max: 50, default: 20 };
  const wide: PageSizeBounds = { min: 1, max: 1000, default: 500 };
  const cases: [string, PageSizeBounds, PageQuery, number, Record<string, unknown>][] = [
    [
      "the default is the bounds' default",
      small,
      {},
      45,
      { status: "page", pageSize: 20, pages: 3, end: 20 },
    ],
    ["min is allowed", small, { page_size: "10" }, 45, { status: "page", pageSize: 10, pages: 5 }],
    ["max is allowed", small, { page_size: "50" }, 45, { status: "page", pageSize: 50, pages: 1 }],
    ["below min is refused", small, { page_size: "9" }, 45, { status: "refused", fields: ["page_size"] }],
    ["above max is refused", small, { page_size: "51" }, 45, { status: "refused", fields: ["page_size"] }],
    ["25 is below this min", small, { page_size: "25" }, 45, { status: "page", pageSize: 25 }],
    ["501 is within wide bounds", wide, { page_size: "501" }, 45, { status: "page", pageSize: 501 }],
    ["1 is within wide bounds", wide, { page_size: "1" }, 3, { status: "page", pages: 3, end: 1 }],
    ["wide: the default 500", wide, {}, 1200, { status: "page", pageSize: 500, pages: 3 }],
    [
      "1001 is above wide bounds",
      wide,
      { page_size: "1001" },
      3,
      { status: "refused", fields: ["page_size"] },
    ],
  ];
  it.each(cases)("%s", (_name, bounds, query, results, expected) => {
    expect(expectPage(query, results, bounds)).toMatchObject(expected);
  });

  it("the described bounds are the default: 24 and 501 refused, 100 a page", () => {
    expect(expectPage({ page_size: "24" }, 5).status).toBe("refused");
    expect(expectPage({ page_size: "501" }, 5).status).toBe("refused");
    expect(expectPage({}, 500)).toMatchObject({ pageSize: 100, pages: 5 });
  });

  it("invariants use the bounds: a default page of 20 is right under them, wrong under the described ones", () => {
    const answer = { page: 1, pages: 3, results: 45, dataLength: 20 };
    expect(pageViolations({}, answer, small)).toEqual([]);
    expect(pageViolations({}, answer).map((violation) => violation.invariant)).toEqual([
      "pages-is-ceil",
      "page-length",
    ]);
  });
});

describe("pagination oracle: invariants of one answer", () => {
  it("a correct answer keeps them all", () => {
    expect(
      pageViolations({ page: "2", page_size: "25" }, { page: 2, pages: 3, results: 60, dataLength: 25 }),
    ).toEqual([]);
    expect(
      pageViolations(
        { page: "737869762948382065", page_size: "25" },
        { page: 3n, pages: 3, results: 60, dataLength: 10 },
      ),
    ).toEqual([]);
  });

  const broken: [string, PageQuery, Parameters<typeof pageViolations>[1], string][] = [
    [
      "pages off by one",
      { page_size: "25" },
      { page: 1, pages: 4, results: 60, dataLength: 25 },
      "pages-is-ceil",
    ],
    ["zero results, zero pages", {}, { page: 1, pages: 0, results: 0, dataLength: 0 }, "pages-is-ceil"],
    [
      "page not echoed",
      { page: "2", page_size: "25" },
      { page: 1, pages: 3, results: 60, dataLength: 25 },
      "page-echo",
    ],
    [
      "a huge page echoed instead of the last",
      { page: "737869762948382065", page_size: "25" },
      { page: 737869762948382065n, pages: 3, results: 60, dataLength: 0 },
      "page-echo",
    ],
    [
      "page_size ignored",
      { page_size: "25" },
      { page: 1, pages: 3, results: 60, dataLength: 60 },
      "page-size-bound",
    ],
    ["a short page", { page_size: "25" }, { page: 1, pages: 3, results: 60, dataLength: 24 }, "page-length"],
    ["results missing", {}, { page: 1, pages: 1, results: undefined, dataLength: 0 }, "results-integer"],
  ];
  it.each(broken)("%s", (_name, query, answer, invariant) => {
    expect(pageViolations(query, answer).map((violation) => violation.invariant)).toContain(invariant);
  });
});

describe("pagination oracle: walks", () => {
  it("each item once, none missing, none extra", () => {
    expect(judgeWalk(["a", "b", "c"], ["c", "b", "a"])).toEqual({ duplicated: [], missing: [], extra: [] });
    expect(judgeWalk(["a", "b", "b", "d"], ["a", "b", "c"])).toEqual({
      duplicated: ["b"],
      missing: ["c"],
      extra: ["d"],
    });
  });
});

describe("pagination oracle: repeats of a list read page by page", () => {
  const page = (keys: string, results: unknown) => ({ keys: keys.split(""), results });
  it.each<[string, ReturnType<typeof page>[], string[], string[]]>([
    ["no repeat", [page("abc", 6), page("def", 6)], [], []],
    [
      "the last item of a page again at the start of the next while results grew by one: a shift",
      [page("abc", 6), page("cde", 7)],
      [],
      ["c"],
    ],
    [
      "two pushed on while results grew by two: shifts",
      [page("abc", 6), page("bcd", 8), page("efg", 8)],
      [],
      ["b", "c"],
    ],
    ["twice on one page while results grew: the target's", [page("abb", 6), page("cde", 9)], ["b"], []],
    [
      "again on the next page with results unchanged: the target's",
      [page("abc", 6), page("cde", 6)],
      ["c"],
      [],
    ],
    ["further on than results grew: the target's", [page("abc", 6), page("dea", 7)], ["a"], []],
    ["results shrinking: the target's", [page("abc", 6), page("cde", 5)], ["c"], []],
    ["results not a number: the target's", [page("abc", "6"), page("cde", "7")], ["c"], []],
  ])("%s", (_name, pages, twice, shifted) => {
    const judged = judgeRepeats(pages);
    expect(judged.twice).toEqual(twice);
    expect(judged.shifts.map((shift) => shift.key)).toEqual(shifted);
  });

  it("says where a shift showed first and again, how far it moved and how much the list grew", () => {
    expect(judgeRepeats([page("abc", 6), page("bcd", 8)]).shifts[0]).toEqual({
      key: "b",
      first: { page: 0, item: 1 },
      again: { page: 1, item: 0 },
      moved: 2,
      grew: 2,
    });
  });
});
