/**
 * Pagination, judged by the oracle on every paginated list of the description: generated `page` / `page_size`
 * edges (`pageParams`: first, last, last + 1, 0, negative, non-integer, empty, around 2^64 / page_size computed
 * exactly; page_size min - 1, min, default, max, max + 1, non-integer, with the description's bounds) must get the
 * page the description says (or 400 naming each parameter at fault); every answer keeps the envelope's invariants
 * (`page` echoes the request, `pages` = ceil(`results` / `page_size`) with 1 for an empty list, at most
 * `page_size` items, exactly the items of that slice); walking all pages at any page size gives every item exactly
 * once; and a page without `page_size` holds the default number of items.
 *
 * Read-only but for `seed-data` (tag `writes`), which on the embedded reference server (it starts empty) makes a
 * load balancer with several profiles and nodes (`support/pagination-seeds.ts`), so nested lists hold items to compare. Lists under
 * a parent (`/nodebalancers/{id}/configs`) are read under a parent of the first page that holds some, and skipped
 * when it lists none. Collections that change during a check are read again before anything
 * is called wrong. A list with more pages than one walk reads is judged on the pages read (their envelopes, page
 * edges, no item twice), its property names saying "pages read"; whether every item shows is not judged there. Bounded: a few hundred requests in the default run; `conform fuzz pagination --runs N` runs
 * longer campaigns.
 * @module
 */
import fc from "fast-check";
import {
  answerFalsified,
  breaksOf,
  type CaseContext,
  conventionsOf,
  defineSuite,
  describeViolations,
  eachList,
  errorFields,
  expectPage,
  fewKeys,
  type Generated,
  isNoAnswer,
  itemKey,
  judgeStably,
  judgeWalk,
  type ListAnswer,
  type ListSelection,
  type ListTarget,
  type PageQueryValues,
  PropertyRunner,
  pageParams,
  readAll,
  readableLists,
  readPage,
  type Snapshots,
  snapshot,
  type Verdict,
  withoutShifts,
} from "../../src/index.ts";
import { seedNestedLists } from "./support/pagination-seeds.ts";

const paginated: ListSelection = {
  key: "pagination:lists",
  none: "the description has no paginated list that can be read here",
};

const describeQuery = (query: PageQueryValues) =>
  Object.entries(query)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(" ") || "no page parameters";

/** A few values covering every page scenario and every page size scenario at least once (the run's edges). */
function edgeExamples(t: CaseContext, results: number): Generated<PageQueryValues>[] {
  const pages = new Set<string>();
  const sizes = new Set<string>();
  const examples: Generated<PageQueryValues>[] = [];
  const bounds = conventionsOf(t.spec).pageSize;
  for (const generated of fc.sample(pageParams({ results, bounds }), { seed: 0, numRuns: 600 })) {
    const [page = "", size = ""] = generated.meta.scenario.split("+");
    if (pages.has(page) && sizes.has(size)) continue;
    pages.add(page);
    sizes.add(size);
    examples.push(generated);
  }
  return examples;
}

/** Judges one page read against the oracle; `state.before` is the collection (re-read when it seems stale). */
async function judgeEdge(
  t: CaseContext,
  list: ListTarget,
  state: Snapshots & { readonly results: number },
  generated: Generated<PageQueryValues>,
): Promise<Verdict> {
  const query = generated.value;
  const bounds = conventionsOf(t.spec).pageSize;
  const read = await readPage(t, list, query as Record<string, string>, undefined, breaksOf(generated.meta));
  const status = read.response.status;
  const asked = describeQuery(query);
  if (status === 400) {
    const expected = expectPage(query, state.results, bounds);
    if (expected.status === "page") return `${asked} answered 400, but it is a valid query`;
    if (expected.status === "refused") {
      const named = errorFields(t, read.response);
      const missing = expected.fields.filter((field) => !named.includes(field));
      if (missing.length > 0) return `${asked} answered 400 without an error naming ${missing.join(" and ")}`;
    }
    return true;
  }
  if (status !== 200 || !read.body)
    return `${asked} answered ${status}${status === 200 ? " without a list envelope" : ""}`;
  const body = read.body;
  const results = typeof body.results === "number" ? body.results : state.results;
  const expected = expectPage(query, results, bounds);
  if (expected.status === "refused") {
    return `${asked} answered 200; it must be refused with 400 naming ${expected.fields.join(" and ")}`;
  }
  const broken = describeViolations(t, query, body);
  if (broken) return `${asked}: ${broken}`;
  if (expected.status !== "page") return true;
  // The items must be that slice of the collection; another client may have changed it: re-read once before judging.
  const slice = (keys: readonly string[]) => {
    const at = expectPage(query, keys.length, bounds);
    return at.status === "page" ? keys.slice(at.start, at.end) : [];
  };
  // On a list read only in part, the items are compared where the slice lies within the pages read.
  if (state.complete === false && expected.end > state.before.length) return true;
  const got = body.data.map(itemKey);
  const same = (keys: readonly string[]) => JSON.stringify(slice(keys)) === JSON.stringify(got);
  if (same(state.before.map(itemKey))) return true;
  const fresh = await snapshot(t, list);
  if (isNoAnswer(fresh)) return fresh;
  state.before = fresh.items;
  state.complete = fresh.complete;
  const keys = fresh.items.map(itemKey);
  if (same(keys)) return true;
  if (!fresh.complete) {
    if (expected.end > keys.length || fresh.results !== body.results) return true;
  } else if (keys.length !== body.results) return true;
  // The page read is what answered wrongly (not the snapshot read after it).
  return {
    message: `${asked}: answered items ${fewKeys(got)}; that page of the list holds ${fewKeys(slice(keys))}`,
    response: read.response,
    expected: { ids: slice(keys) },
    actual: { ids: got },
  };
}

/** Walks all pages at `pageSize` and compares with the whole list read before and after. */
function judgeWalkAt(t: CaseContext, list: ListTarget, state: Snapshots, pageSize: number): Promise<Verdict> {
  return judgeStably(
    t,
    list,
    state,
    () => readAll(t, list, pageSize),
    (walked, before, after) => {
      const keys = walked.items.map(itemKey);
      const afterKeys = after.map(itemKey);
      const judged = judgeWalk(keys, afterKeys);
      const changed = JSON.stringify(before.map(itemKey)) !== JSON.stringify(afterKeys);
      // Each verdict points at a page of the walk (the one holding the first item wrong), not the snapshot after it.
      if (judged.duplicated.length > 0 && !changed) {
        return answerFalsified(
          `at page_size ${pageSize}, ${judged.duplicated.length} item(s) show on two pages: ${fewKeys(judged.duplicated)}`,
          walked,
          { expected: afterKeys, missing: [], extra: [], duplicated: judged.duplicated },
        );
      }
      if (judged.missing.length + judged.extra.length + judged.duplicated.length === 0) {
        if (walked.results !== undefined && walked.results !== keys.length && !changed) {
          return {
            message: `walking ${walked.pages} page(s) at page_size ${pageSize} gives ${keys.length} items; results says ${walked.results}`,
            ...(walked.reads[0] ? { response: walked.reads[0].response } : {}),
            expected: { results: keys.length },
            actual: { results: walked.results },
          };
        }
        return true;
      }
      if (changed) return undefined;
      const parts = [
        judged.missing.length > 0
          ? `${judged.missing.length} item(s) never shown (${fewKeys(judged.missing)})`
          : "",
        judged.extra.length > 0 ? `${judged.extra.length} item(s) not in the whole list` : "",
        judged.duplicated.length > 0 ? `${judged.duplicated.length} item(s) on two pages` : "",
      ].filter(Boolean);
      return answerFalsified(`walking all pages at page_size ${pageSize}: ${parts.join("; ")}`, walked, {
        expected: afterKeys,
        missing: judged.missing,
        extra: judged.extra,
        duplicated: judged.duplicated,
      });
    },
    (walked) => {
      // An item pushed on to the next page by items added meanwhile is the list changing, not a repeat.
      const { twice } = withoutShifts(t, list, walked);
      if (twice.length === 0) return true;
      return answerFalsified(
        `on the ${walked.pages} pages read at page_size ${pageSize}, ${twice.length} item(s) show on two pages: ${fewKeys(twice)}`,
        walked,
        {
          missing: [],
          extra: [],
          duplicated: twice,
          expectation: "no item twice (on the pages read; completeness not judged)",
        },
      );
    },
  );
}

/** A property's name on a list read only in part: what it judged there. */
function onPagesRead(whole: string, snap: ListAnswer, partly: string): string {
  return snap.complete ? whole : `${partly} on the ${snap.pages} pages read (completeness not judged)`;
}

export default defineSuite({
  id: "pagination",
  title: "Pagination: page and page_size edges, envelope invariants, walks over every page, the default size",
  tags: ["read-only"],
  fuzz: {
    campaign: "pagination",
    describe: "page and page_size edges, envelope invariants, walks over every page",
  },
  cases: [
    {
      id: "seed-data",
      title: "Nested lists on the embedded reference get several items to page through",
      // It makes an instance (the body fixtures' node needs one).
      tags: ["writes", "costly"],
      run: seedNestedLists,
    },
    {
      id: "edges",
      title: "page and page_size at the edges get the page the description says, or 400 naming the parameter",
      run: async (t) => {
        const properties = new PropertyRunner(t, "pagination");
        await eachList(t, await readableLists(t, paginated), "can be read", async (list, before, snap) => {
          const results = snap.complete || typeof snap.results !== "number" ? before.length : snap.results;
          const state = { before, complete: snap.complete, results };
          const id = list.operation.operationId;
          await properties.check({
            name: onPagesRead(
              `${id} answers page and page_size edges as described`,
              snap,
              `${id} answers page and page_size edges as described, items compared`,
            ),
            arbitrary: pageParams({ results, bounds: conventionsOf(t.spec).pageSize }),
            examples: edgeExamples(t, results),
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
        const { min, max, default: fallback } = conventionsOf(t.spec).pageSize;
        await eachList(t, await readableLists(t, paginated), "can be read", async (list, before, snap) => {
          const state = { before, complete: snap.complete };
          const id = list.operation.operationId;
          await properties.check({
            name: onPagesRead(
              `${id} gives every item once at any page size`,
              snap,
              `${id} gives no item twice at any page size`,
            ),
            arbitrary: fc.oneof(fc.constantFrom(min, fallback), fc.integer({ min, max })),
            examples: [min],
            defaultRuns: 2,
            predicate: (pageSize) => judgeWalkAt(t, list, state, pageSize),
          });
        });
      },
    },
    {
      id: "default-page-size",
      title: "Without page_size a page holds up to the default number of items (100 as described)",
      run: async (t) => {
        const size = conventionsOf(t.spec).pageSize.default;
        for (const list of await readableLists(t, paginated)) {
          const read = await readPage(t, list, {});
          const body = read.body;
          const name = list.operation.operationId;
          if (!t.expect(`${name} answers a page`, body !== undefined, { actual: read.response.status }))
            continue;
          const results = typeof body!.results === "number" ? body!.results : 0;
          const expected = { items: Math.min(size, results), pages: Math.max(1, Math.ceil(results / size)) };
          t.expect(
            `${name}: the default page size is ${size}`,
            body!.data.length === expected.items && body!.pages === expected.pages,
            {
              expected,
              actual: { items: body!.data.length, pages: body!.pages, results },
              response: read.response,
            },
          );
        }
      },
    },
  ],
});
