/**
 * The public catalogue (regions and instance types): every page of both lists is well formed and consistent,
 * and every listed item can be read on its own. Read-only; works on any target, no token needed.
 */
import { type CaseContext, defineSuite } from "../../src/index.ts";

interface Page {
  data: { id: string }[];
  page: number;
  pages: number;
  results: number;
}

/** Reads every page of a list at the given page size, asserting the envelope holds together. */
async function readAllPages(t: CaseContext, path: string, pageSize: number): Promise<{ id: string }[]> {
  const items: { id: string }[] = [];
  let pages = 1;
  for (let page = 1; page <= pages && page <= 100; page += 1) {
    const response = await t.api.get(path, { query: { page, page_size: pageSize }, token: null });
    if (
      !t.expect(`${path} page ${page} answers 200`, response.status === 200, {
        expected: 200,
        actual: response.status,
      })
    )
      break;
    const body = response.json as Page;
    pages = body.pages;
    t.expect(`${path} page ${page} says it is page ${page}`, body.page === page, {
      expected: page,
      actual: body.page,
    });
    t.expect(
      `${path} pages = ceil(results / page_size)`,
      body.pages === Math.max(1, Math.ceil(body.results / pageSize)),
      {
        expected: Math.max(1, Math.ceil(body.results / pageSize)),
        actual: body.pages,
      },
    );
    const expectedLength = page < body.pages ? pageSize : body.results - pageSize * (body.pages - 1);
    t.expect(`${path} page ${page} holds ${expectedLength} items`, body.data.length === expectedLength, {
      expected: expectedLength,
      actual: body.data.length,
    });
    items.push(...body.data);
  }
  const ids = items.map((item) => item.id);
  t.expect(`${path}: no item appears on two pages`, new Set(ids).size === ids.length, {
    actual: ids.length - new Set(ids).size,
  });
  return items;
}

function singles(list: string) {
  return async (t: CaseContext) => {
    const items = await readAllPages(t, list, 500);
    if (items.length === 0) t.skip(`${list} is empty on this target: nothing to read one by one`);
    for (const item of items) {
      const response = await t.api.get(`${list}/${encodeURIComponent(item.id)}`, { token: null });
      t.expect(`${list}/${item.id} answers 200`, response.status === 200, {
        expected: 200,
        actual: response.status,
      });
      const body = response.json as { id?: string } | undefined;
      t.expect(`${list}/${item.id} is that item`, body?.id === item.id, {
        expected: item.id,
        actual: body?.id,
      });
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
      title: "GET /regions pages hold together at page_size 25",
      run: async (t) => {
        const items = await readAllPages(t, "/regions", 25);
        t.expect("regions are listed", items.length > 0, { actual: items.length });
      },
    },
    {
      id: "types-pages",
      title: "GET /compute/types pages hold together at page_size 25",
      run: async (t) => {
        const items = await readAllPages(t, "/compute/types", 25);
        t.expect("instance types are listed", items.length > 0, { actual: items.length });
      },
    },
    { id: "region-singles", title: "Every listed region can be read on its own", run: singles("/regions") },
    {
      id: "type-singles",
      title: "Every listed instance type can be read on its own",
      run: singles("/compute/types"),
    },
    {
      id: "unknown-region",
      title: "An unknown region answers 404 Not found",
      run: async (t) => {
        const response = await t.api.get("/regions/no-such-region-0", { token: null });
        t.expect("answers 404", response.status === 404, { expected: 404, actual: response.status });
      },
    },
  ],
});
