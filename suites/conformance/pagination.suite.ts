/**
 * Pagination, judged by the oracle (`src/oracles/pagination-oracle.ts`) on every paginated list of the spec:
 * generated `page` / `page_size` edges (`src/generators/page-params.ts`: first, last, last + 1, 0, negative,
 * non-integer, empty, around 2^64 / page_size computed exactly; page_size 24, 25, 100, 500, 501, non-integer)
 * must get the page the description says (or 400 naming each parameter at fault); every answer keeps the envelope's
 * invariants (`page` echoes the request, `pages` = ceil(`results` / `page_size`) with 1 for an empty list, at most
 * `page_size` items, exactly the items of that slice); walking all pages at any page size gives every item exactly
 * once; and the default page size is 100.
 *
 * Read-only. Lists under a parent (`/nodebalancers/{id}/configs`) are read under the first parent the target
 * lists, and skipped when it lists none. Collections that change during a check are read again before anything
 * is called wrong. Bounded: a few hundred requests in the default run; `conform fuzz pagination --runs N` runs
 * longer campaigns (`t.options.runs`).
 * @module
 */
import fc from "fast-check";
import type { Generated } from "../../src/generators/case-meta.ts";
import { type PageQueryValues, pageParams } from "../../src/generators/page-params.ts";
import { type CaseContext, defineSuite } from "../../src/index.ts";
import {
  expectPage,
  judgeWalk,
  type PageAnswer,
  pageSizeDefault,
  pageViolations,
} from "../../src/oracles/pagination-oracle.ts";
import { findLists, itemKey, type ListTarget, type PageRead, readPage, walk } from "./support/lists.ts";
import { PropertyRunner, type Verdict } from "./support/property-run.ts";

const listsKey = "pagination:lists";
/** Said of a list with more pages than one walk reads: not judged (logged), never a failure. */
const tooLarge = "more pages than one check reads";

async function paginatedLists(t: CaseContext): Promise<readonly ListTarget[]> {
  const cached = t.shared.get(listsKey) as ListTarget[] | undefined;
  if (cached) return cached;
  const found = await findLists(t);
  for (const entry of found.skipped) t.log(`${entry.operationId} not checked: ${entry.reason}`);
  if (found.lists.length === 0) t.skip("the spec has no paginated list that can be read here");
  t.shared.set(listsKey, found.lists);
  return found.lists;
}

/** Every item's key in the list's own order (pages of 500), or what went wrong. */
async function snapshot(t: CaseContext, list: ListTarget): Promise<readonly string[] | string> {
  const read = await walk(t, list, { pageSize: 500 });
  if (read.status === "refused") return `answered ${read.response.status} to a read at page_size 500`;
  if (!read.complete) return tooLarge;
  return read.items.map(itemKey);
}

function errorsOf(read: PageRead): { field?: unknown; reason?: unknown }[] {
  const errors = (read.response.json as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? errors : [];
}

const describeQuery = (query: PageQueryValues) =>
  Object.entries(query)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(" ") || "no page parameters";

/** A few values covering every page scenario and every page size scenario at least once (the run's edges). */
function edgeExamples(results: number): Generated<PageQueryValues>[] {
  const pages = new Set<string>();
  const sizes = new Set<string>();
  const examples: Generated<PageQueryValues>[] = [];
  for (const generated of fc.sample(pageParams({ results }), { seed: 0, numRuns: 600 })) {
    const [page = "", size = ""] = generated.meta.scenario.split("+");
    if (pages.has(page) && sizes.has(size)) continue;
    pages.add(page);
    sizes.add(size);
    examples.push(generated);
  }
  return examples;
}

/** Judges one page read against the oracle; `keys` is the collection's order (re-read when it seems stale). */
async function judgeEdge(
  t: CaseContext,
  list: ListTarget,
  state: { keys: readonly string[] },
  generated: Generated<PageQueryValues>,
): Promise<Verdict> {
  const query = generated.value;
  const read = await readPage(t, list, query as Record<string, string>);
  const status = read.response.status;
  const asked = describeQuery(query);
  if (status === 400) {
    const expected = expectPage(query, state.keys.length);
    if (expected.status === "page") return `${asked} answered 400, but it is a valid query`;
    if (expected.status === "refused") {
      const named = errorsOf(read).map((error) => error.field);
      const missing = expected.fields.filter((field) => !named.includes(field));
      if (missing.length > 0) return `${asked} answered 400 without an error naming ${missing.join(" and ")}`;
    }
    return true;
  }
  if (status !== 200 || !read.body)
    return `${asked} answered ${status}${status === 200 ? " without a list envelope" : ""}`;
  const body = read.body;
  const expected = expectPage(query, typeof body.results === "number" ? body.results : state.keys.length);
  if (expected.status === "refused") {
    return `${asked} answered 200; it must be refused with 400 naming ${expected.fields.join(" and ")}`;
  }
  const broken = envelopeViolations(query, body);
  if (broken) return `${asked}: ${broken}`;
  if (expected.status !== "page") return true;
  // The items must be that slice of the collection; another client may have changed it: re-read once before judging.
  const slice = (keys: readonly string[]) => {
    const at = expectPage(query, keys.length);
    return at.status === "page" ? keys.slice(at.start, at.end) : [];
  };
  const got = body.data.map(itemKey);
  const same = (keys: readonly string[]) => JSON.stringify(slice(keys)) === JSON.stringify(got);
  if (same(state.keys)) return true;
  const fresh = await snapshot(t, list);
  if (fresh === tooLarge) return true;
  if (typeof fresh === "string") return fresh;
  state.keys = fresh;
  if (same(fresh) || fresh.length !== body.results) return true;
  return `${asked}: answered items ${got.slice(0, 5).join(", ")}${got.length > 5 ? ", ..." : ""}; that page of the list holds ${slice(fresh).slice(0, 5).join(", ")}${slice(fresh).length > 5 ? ", ..." : ""}`;
}

/** What breaks the pagination invariants in an answered page, said in one line; undefined when nothing does. */
function envelopeViolations(
  query: Parameters<typeof pageViolations>[0],
  body: Omit<PageAnswer, "dataLength"> & { readonly data: readonly unknown[] },
): string | undefined {
  const broken = pageViolations(query, {
    page: body.page,
    pages: body.pages,
    results: body.results,
    dataLength: body.data.length,
  });
  if (broken.length === 0) return undefined;
  return broken
    .map(
      (violation) =>
        `${violation.message} (expected ${String(violation.expected)}, got ${String(violation.actual)})`,
    )
    .join("; ");
}

/** Walks all pages at `pageSize` and compares with the list read at 500 before and after. */
async function judgeWalkAt(
  t: CaseContext,
  list: ListTarget,
  state: { keys: readonly string[] },
  pageSize: number,
): Promise<Verdict> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const before = state.keys;
    const read = await walk(t, list, { pageSize });
    if (read.status === "refused")
      return `page ${read.page} at page_size ${pageSize} answered ${read.response.status}`;
    for (const { query, read: page } of read.answers) {
      const body = page.body!;
      const broken = envelopeViolations(query, body);
      if (broken) return `page ${query.page} at page_size ${pageSize}: ${broken}`;
    }
    if (!read.complete) return true;
    const keys = read.items.map(itemKey);
    const after = await snapshot(t, list);
    if (after === tooLarge) return true;
    if (typeof after === "string") return after;
    state.keys = after;
    const judged = judgeWalk(keys, after);
    const changed = JSON.stringify(before) !== JSON.stringify(after);
    if (judged.duplicated.length > 0 && !changed) {
      return `at page_size ${pageSize}, ${judged.duplicated.length} item(s) show on two pages: ${judged.duplicated.slice(0, 5).join(", ")}`;
    }
    if (judged.missing.length + judged.extra.length + judged.duplicated.length === 0) {
      const declared = read.answers.at(-1)?.read.body?.results;
      if (declared !== undefined && declared !== keys.length && !changed) {
        return `walking ${read.pages} page(s) at page_size ${pageSize} gives ${keys.length} items; results says ${declared}`;
      }
      return true;
    }
    if (!changed) {
      const parts = [
        judged.missing.length > 0
          ? `${judged.missing.length} item(s) never shown (${judged.missing.slice(0, 5).join(", ")})`
          : "",
        judged.extra.length > 0 ? `${judged.extra.length} item(s) not in the list at page_size 500` : "",
        judged.duplicated.length > 0 ? `${judged.duplicated.length} item(s) on two pages` : "",
      ].filter(Boolean);
      return `walking all pages at page_size ${pageSize}: ${parts.join("; ")}`;
    }
  }
  t.log(`${list.path}: the list kept changing during the walk; not judged`);
  return true;
}

async function eachList(
  t: CaseContext,
  run: (list: ListTarget, keys: readonly string[]) => Promise<void>,
): Promise<void> {
  for (const list of await paginatedLists(t)) {
    const keys = await snapshot(t, list);
    if (keys === tooLarge) {
      t.log(`${list.path}: ${tooLarge}; not checked`);
      continue;
    }
    if (!t.expect(`${list.operation.operationId} can be read`, typeof keys !== "string", { actual: keys }))
      continue;
    await run(list, keys as readonly string[]);
  }
}

export default defineSuite({
  id: "pagination",
  title: "Pagination: page and page_size edges, envelope invariants, walks over every page, the default size",
  tags: ["read-only"],
  cases: [
    {
      id: "edges",
      title: "page and page_size at the edges get the page the description says, or 400 naming the parameter",
      run: async (t) => {
        const properties = new PropertyRunner(t, "pagination");
        await eachList(t, async (list, keys) => {
          const state = { keys };
          await properties.check({
            name: `${list.operation.operationId} answers page and page_size edges as described`,
            arbitrary: pageParams({ results: keys.length }),
            examples: edgeExamples(keys.length),
            defaultRuns: 3,
            predicate: (generated) => judgeEdge(t, list, state, generated),
          });
        });
      },
    },
    {
      id: "walks",
      title: "Walking all pages at any page size gives every item exactly once",
      run: async (t) => {
        const properties = new PropertyRunner(t, "pagination");
        await eachList(t, async (list, keys) => {
          const state = { keys };
          await properties.check({
            name: `${list.operation.operationId} gives every item once at any page size`,
            arbitrary: fc.oneof(fc.constantFrom(25, 100), fc.integer({ min: 25, max: 500 })),
            examples: [25],
            defaultRuns: 2,
            predicate: (pageSize) => judgeWalkAt(t, list, state, pageSize),
          });
        });
      },
    },
    {
      id: "default-page-size",
      title: "Without page_size a page holds up to 100 items",
      run: async (t) => {
        for (const list of await paginatedLists(t)) {
          const read = await readPage(t, list, {});
          const body = read.body;
          if (
            !t.expect(`${list.operation.operationId} answers a page`, body !== undefined, {
              actual: read.response.status,
            })
          ) {
            continue;
          }
          const results = typeof body!.results === "number" ? body!.results : 0;
          const expected = Math.min(pageSizeDefault, results);
          t.expect(
            `${list.operation.operationId}: the default page size is ${pageSizeDefault}`,
            body!.data.length === expected &&
              body!.pages === Math.max(1, Math.ceil(results / pageSizeDefault)),
            {
              expected: { items: expected, pages: Math.max(1, Math.ceil(results / pageSizeDefault)) },
              actual: { items: body!.data.length, pages: body!.pages, results },
              response: read.response,
            },
          );
        }
      },
    },
  ],
});
