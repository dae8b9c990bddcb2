/**
 * The public catalogue (regions and instance types, found by operationId): every page of both lists is well formed
 * and consistent, and every listed item can be read on its own. Read-only; works on any target, no token needed.
 * @module
 */
import {
  type CaseContext,
  call,
  conventionsOf,
  defineSuite,
  expectBody,
  expectPage,
  pathOf,
  requireOperation,
  shape,
} from "../../src/index.ts";

/** A page of the catalogue's lists, as read (what is wrong with an answer fails its read, named). */
const pageShape = shape.object({
  data: shape.array(shape.object({ id: shape.string })),
  page: shape.integer,
  pages: shape.integer,
  results: shape.integer,
});

/** Reads every page of a list at the given page size, asserting the envelope holds together. */
async function readAllPages(
  t: CaseContext,
  operationId: string,
  pageSize: number,
): Promise<{ id: string }[]> {
  const path = pathOf(requireOperation(t, operationId));
  const items: { id: string }[] = [];
  let pages = 1;
  for (let page = 1; page <= pages && page <= 100; page += 1) {
    const response = await call(t, operationId, { query: { page, page_size: pageSize }, token: null });
    const answered = `${path} page ${page} answers 200`;
    if (!t.expect(answered, response.status === 200, { expected: 200, actual: response.status })) break;
    const body = expectBody(t, `${path} page ${page} is a page of the list`, response, pageShape);
    if (!body) break;
    pages = body.pages;
    t.expect(`${path} page ${page} says it is page ${page}`, body.page === page, {
      expected: page,
      actual: body.page,
    });
    const expectedPages = Math.max(1, Math.ceil(body.results / pageSize));
    t.expect(`${path} pages = ceil(results / page_size)`, body.pages === expectedPages, {
      expected: expectedPages,
      actual: body.pages,
    });
    // The page's length follows from `results` alone (the pagination oracle), never from the answer's own
    // `pages`: a wrong `pages` once made this say "page 3 holds -16 items".
    const slice = expectPage(
      { page: String(page), page_size: String(pageSize) },
      body.results,
      conventionsOf(t.spec).pageSize,
    );
    if (slice.status !== "page" || !Number.isInteger(body.results) || body.results < 0) {
      t.expect(`${path} page ${page} says how many results the list has`, false, {
        expected: "results: a non-negative integer",
        actual: body.results,
      });
    } else {
      const expectedLength = slice.end - slice.start;
      t.expect(`${path} page ${page} holds the items of its slice`, body.data.length === expectedLength, {
        message: `${path} page ${page} of ${body.results} results at page_size ${pageSize} holds ${body.data.length} items, not ${expectedLength}`,
        expected: expectedLength,
        actual: body.data.length,
      });
    }
    items.push(...body.data);
  }
  const ids = items.map((item) => item.id);
  t.expect(`${path}: no item appears on two pages`, new Set(ids).size === ids.length, {
    actual: ids.length - new Set(ids).size,
  });
  return items;
}

/** A case reading every item of list `listId` through `singleId`, one by one. */
function singles(listId: string, singleId: string) {
  return async (t: CaseContext) => {
    const single = requireOperation(t, singleId);
    const items = await readAllPages(t, listId, conventionsOf(t.spec).pageSize.max);
    if (items.length === 0) {
      t.skip(`${pathOf(requireOperation(t, listId))} is empty on this target: nothing to read one by one`);
    }
    for (const item of items) {
      const path = pathOf(single, item.id);
      const response = await call(t, singleId, { params: [item.id], token: null });
      t.expect(`${path} answers 200`, response.status === 200, { expected: 200, actual: response.status });
      const body = expectBody(t, `${path} is that item`, response, shape.object({ id: shape.present }));
      if (body) t.expect(`${path} is that item`, body.id === item.id, { expected: item.id, actual: body.id });
    }
  };
}

export default defineSuite({
  id: "catalogue",
  title: "Public catalogue: regions and instance types",
  tags: ["read-only"],
  cases: [
    {
      id: "regions-pages",
      title: "The regions' pages hold together at the smallest page size",
      run: async (t) => {
        const items = await readAllPages(t, "getRegions", conventionsOf(t.spec).pageSize.min);
        t.expect("regions are listed", items.length > 0, { actual: items.length });
      },
    },
    {
      id: "types-pages",
      title: "The instance types' pages hold together at the smallest page size",
      run: async (t) => {
        const items = await readAllPages(t, "getComputeTypes", conventionsOf(t.spec).pageSize.min);
        t.expect("instance types are listed", items.length > 0, { actual: items.length });
      },
    },
    {
      id: "region-singles",
      title: "Every listed region can be read on its own",
      run: singles("getRegions", "getRegion"),
    },
    {
      id: "type-singles",
      title: "Every listed instance type can be read on its own",
      run: singles("getComputeTypes", "getComputeType"),
    },
    {
      id: "unknown-region",
      title: "An unknown region answers 404 Not found",
      run: async (t) => {
        const response = await call(t, "getRegion", { params: ["no-such-region-0"], token: null });
        t.expect("answers 404", response.status === 404, { expected: 404, actual: response.status });
      },
    },
  ],
});
