import { describe, expect, it } from "vitest";
import { paginate, parseListQuery } from "../../src/reference/list-query.ts";
import type { OperationInfo } from "../../src/spec/types.ts";

const operation = { operationId: "getThings", filterableFields: [] } as unknown as OperationInfo;
const items = Array.from({ length: 60 }, (_, index) => ({ id: index + 1 }));

function parse(query: string) {
  return parseListQuery(operation, new URLSearchParams(query), undefined);
}

describe("reference pagination", () => {
  it.each([
    ["page=abc", "page"],
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=1.5", "page"],
    ["page=", "page"],
    ["page_size=24", "page_size"],
    ["page_size=501", "page_size"],
    ["page_size=25.0", "page_size"],
    ["page_size=1e2", "page_size"],
  ])("%s is refused naming %s", (query, field) => {
    const parsed = parse(query);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.map((error) => error.field)).toEqual([field]);
  });

  it("reports both bad parameters at once", () => {
    const parsed = parse("page=0&page_size=9");
    expect(parsed.ok ? [] : parsed.errors.map((error) => error.field)).toEqual(["page", "page_size"]);
  });

  it.each([
    ["", 1, 1, 60, 1, 60],
    ["page_size=25", 1, 3, 60, 1, 25],
    ["page=3&page_size=25", 3, 3, 60, 51, 10],
    ["page=4&page_size=25", 4, 3, 60, undefined, 0],
    ["page=737869762948382065&page_size=25", 3, 3, 60, 51, 10],
    ["page=737869762948382064&page_size=500", 1, 1, 60, 1, 60],
  ])("%s gives page %i of %i", (query, page, pages, results, firstId, count) => {
    const parsed = parse(query);
    if (!parsed.ok) throw new Error("refused");
    const body = paginate(items, parsed.list);
    expect({ page: body.page, pages: body.pages, results: body.results }).toEqual({ page, pages, results });
    expect(body.data[0]?.id).toBe(firstId);
    expect(body.data).toHaveLength(count);
  });

  it("keeps a page number past 2^53 exact while it is not above 2^64 / page_size", () => {
    const parsed = parse("page=737869762948382064&page_size=25");
    if (!parsed.ok) throw new Error("refused");
    expect(paginate(items, parsed.list).page).toBe(737869762948382064n);
  });

  it("answers an empty collection with one empty page", () => {
    expect(paginate([], undefined)).toEqual({ data: [], page: 1, pages: 1, results: 0 });
  });
});
