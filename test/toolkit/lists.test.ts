/**
 * The lists toolkit (lists.ts, snapshots.ts and filter-answers.ts, which share this paging target) against an
 * in-memory target that pages like the description says (or, with a fault, does
 * not), under a description whose page sizes are 10..50 (default 20) and whose filter header is `X-Item-Filter`: what
 * the toolkit reads comes from the description, not from constants.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharedKey } from "../../src/runner/suite-api.ts";
import type { ApiSpec, FilterableField, OperationInfo } from "../../src/spec/types.ts";
import { describeFilterJudgement, judgeReversed, refusesFilterOn } from "../../src/toolkit/filter-answers.ts";
import { judgeFilterRelation } from "../../src/toolkit/filter-relations.ts";
import {
  describeViolations,
  fewKeys,
  findLists,
  type Item,
  isNoAnswer,
  itemKey,
  type ListAnswer,
  type ListTarget,
  maxWalkPages,
  type NoAnswer,
  parseExact,
  readAll,
  readAnswers,
  readableLists,
  readPage,
  walk,
  withoutShifts,
} from "../../src/toolkit/lists.ts";
import type { Verdict } from "../../src/toolkit/property.ts";
import { eachList, judgeStably, sameSet, snapshot, stableKeys } from "../../src/toolkit/snapshots.ts";
import { type FakeCase, fakeCase, liveResponse, type SentRequest, Skipped } from "../helpers/fake-case.ts";

const bounds = { minimum: 10, maximum: 50, default: 20 };

function operation(operationId: string, pathTemplate: string, isPublic = false): OperationInfo {
  return {
    operationId,
    method: "get",
    pathTemplate,
    serverUrl: undefined,
    tags: [],
    summary: "",
    deprecated: false,
    security: { public: isPublic, scopes: [], schemes: [] },
    parameters: [
      {
        name: "page_size",
        in: "query",
        required: false,
        schema: { type: "integer", ...bounds },
        deprecated: false,
      },
      { name: "X-Item-Filter", in: "header", required: false, schema: { type: "string" }, deprecated: false },
    ],
    paginated: true,
    filterableFields: [],
    requestBody: undefined,
    responses: [],
  };
}

const operations = [
  operation("getThings", "/things"),
  operation("getThingParts", "/things/{thingId}/parts"),
  operation("getPlaces", "/places", true),
];

const spec = {
  document: {},
  operations: {
    all: () => operations,
    byId: (id: string) => operations.find((entry) => entry.operationId === id),
    match: () => undefined,
  },
} as unknown as ApiSpec;

/**
 * A case against a target holding `collections` by path, paging them as described; `pagesOff` adds one to `pages`
 * (a fault), `repeatOn` makes that page start with the previous page's last item (a fault), `onRead` runs before
 * each answer (another client writing). The toolkit only reads.
 */
function fake(
  collections: Record<string, Item[]>,
  options: {
    pagesOff?: number;
    repeatOn?: number;
    onRead?: (sent: SentRequest) => void;
    /** Whether an item is in the answer to a filter header's text (none: filters are ignored). */
    matches?: (item: Item, filter: string) => boolean;
  } = {},
): FakeCase {
  return fakeCase(spec, (sent) => {
    if (sent.method !== "GET") throw new Error(`${sent.method} ${sent.path}: not used here`);
    options.onRead?.(sent);
    const all = collections[sent.path];
    if (!all) return { status: 404, json: { errors: [{ reason: "Not found" }] } };
    const { matches } = options;
    const filter = Object.entries(sent.options.headers ?? {}).find(([name]) => name.endsWith("filter"))?.[1];
    const items = matches && filter !== undefined ? all.filter((item) => matches(item, filter)) : all;
    const query = sent.options.query ?? {};
    const size = Number(query.page_size ?? bounds.default);
    if (!(size >= bounds.minimum && size <= bounds.maximum)) {
      return { status: 400, json: { errors: [{ reason: "Must be 10-50", field: "page_size" }] } };
    }
    const page = Number(query.page ?? 1);
    const pages = Math.max(1, Math.ceil(items.length / size)) + (options.pagesOff ?? 0);
    const start = (page - 1) * size - (page === options.repeatOn ? 1 : 0);
    const data = items.slice(start, page * size);
    return { status: 200, json: { data, page, pages, results: items.length } };
  });
}

const things = (count: number, from = 1): Item[] =>
  Array.from({ length: count }, (_, index) => ({ id: from + index, label: `thing-${from + index}` }));
const list = (path = "/things"): ListTarget => ({ operation: operations[0]!, path, token: undefined });

describe("itemKey and parseExact", () => {
  it.each([
    [{ id: 7, label: "x" }, "7"],
    [{ id: "us-east" }, "us-east"],
    [{ address: "192.0.2.1", id: null }, "192.0.2.1"],
    [{ label: "no id" }, '{"label":"no id"}'],
  ])("the key of %j is %s", (item, key) => {
    expect(itemKey(item)).toBe(key);
  });

  it.each([
    ['{"page":18446744073709551616}', 18446744073709551616n],
    ['{"page":737869762948382065}', 737869762948382065n],
    ['{"page":3}', 3],
    ['{"page":1.5e300}', 1.5e300],
  ])("%s reads page exactly", (text, page) => {
    expect((parseExact(text) as { page: unknown }).page).toBe(page);
  });
});

describe("reading pages", () => {
  it("sends the filter in the description's header, and a text filter verbatim", async () => {
    const { t, sent } = fake({ "/things": things(3) });
    await readPage(t, list(), { page: "1" }, { label: "thing-1" });
    await readPage(t, list(), { page: "1" }, "{not json");
    expect(sent.map((entry) => entry.options.headers)).toEqual([
      { "x-item-filter": '{"label":"thing-1"}' },
      { "x-item-filter": "{not json" },
    ]);
  });

  it("has no envelope for a refusal", async () => {
    const { t } = fake({ "/things": things(3) });
    const read = await readPage(t, list(), { page_size: "9" });
    expect([read.response.status, read.body]).toEqual([400, undefined]);
  });

  it("walks every page, and stops at the most pages one walk reads", async () => {
    const { t } = fake({ "/things": things(45), "/many": things(10 * (maxWalkPages + 1)) });
    const small = await walk(t, list(), { pageSize: 10 });
    expect(small).toMatchObject({ status: "read", pages: 5, complete: true });
    expect(small.status === "read" && small.items.map(itemKey)).toEqual(things(45).map(itemKey));
    expect(await walk(t, list("/many"), { pageSize: 10 })).toMatchObject({
      complete: false,
      pages: maxWalkPages,
    });
    expect(await walk(t, list("/none"))).toMatchObject({ status: "refused", page: 1 });
  });

  it("snapshots at the description's largest page size", async () => {
    const { t, sent } = fake({ "/things": things(60) });
    expect(await snapshot(t, list())).toMatchObject({ complete: true, pages: 2, results: 60 });
    expect(sent.map((entry) => entry.options.query?.page_size)).toEqual(["50", "50"]);
    const refused = await snapshot(t, list("/none"));
    expect(refused).toMatchObject({
      message: "answered 404 to an unfiltered read",
      response: { status: 404 },
    });
  });

  it("snapshots a list too large to read whole on its first pages, each page's envelope judged", async () => {
    const many = things(50 * maxWalkPages + 1);
    expect(await snapshot(fake({ "/things": many }).t, list())).toMatchObject({
      complete: false,
      pages: maxWalkPages,
      listPages: maxWalkPages + 1,
      results: many.length,
    });
    // The page that breaks the envelope is what a failure points at.
    expect(await snapshot(fake({ "/things": many }, { pagesOff: 1 }).t, list())).toMatchObject({
      message: expect.stringMatching(
        /^page 1 at page_size 50: pages = max\(1, ceil\(results 2001 \/ page_size 50\)\)/,
      ),
      response: { status: 200 },
    });
  });
});

describe("readAll: an answer, each page's envelope judged, whole or its first pages", () => {
  it.each<[string, Record<string, Item[]>, { pagesOff?: number }, string, string | number]>([
    ["a good list", { "/things": things(25) }, {}, "/things", 25],
    ["more pages than one walk reads: the first pages", { "/things": things(500) }, {}, "/things", 400],
    [
      "more pages than one walk reads, pages off by one",
      { "/things": things(500) },
      { pagesOff: 1 },
      "/things",
      "page 1 at page_size 10: pages =",
    ],
    [
      "pages off by one",
      { "/things": things(25) },
      { pagesOff: 1 },
      "/things",
      "page 1 at page_size 10: pages =",
    ],
    ["a refused page", {}, {}, "/things", "page 1 at page_size 10 answered 404: "],
  ])("%s", async (_name, collections, options, path, expected) => {
    const { t } = fake(collections, options);
    const read = await readAll(t, list(path), 10);
    if (typeof expected === "number") {
      expect(!isNoAnswer(read) && read.items).toHaveLength(expected);
      expect(!isNoAnswer(read) && read.complete).toBe(expected < maxWalkPages * 10);
    } else
      expect(read).toMatchObject({ message: expect.stringContaining(expected), response: expect.anything() });
  });

  it("a page breaking the envelope is what the read's failure points at, not the last page read", async () => {
    const { t, sent } = fake({ "/things": things(30) }, { repeatOn: 2 });
    const read = await readAll(t, list(), 10);
    expect(sent).toHaveLength(3);
    expect(read).toMatchObject({
      message: expect.stringMatching(
        /^page 2 at page_size 10: a page holds at most page_size items \(expected at most 10, got 11\)/,
      ),
      response: { json: { page: 2 } },
    });
  });

  it("reads several answers in turn, and says which filter failed", async () => {
    const { t } = fake({ "/things": things(12) });
    const answers = await readAnswers(t, list(), [
      { filter: { a: 1 }, pageSize: 10 },
      { filter: { a: 2 }, pageSize: 50 },
    ]);
    expect(!isNoAnswer(answers) && answers.map((entry) => entry.pages)).toEqual([2, 1]);
    expect(await readAnswers(t, list(), [{ filter: { a: 3 }, pageSize: 5 }])).toMatchObject({
      message: expect.stringMatching(/^\{"a":3\} page 1/),
    });
  });

  it.each([
    ["a correct page", { page: 2, pages: 3, results: 45, data: things(20) }, undefined],
    [
      "a page of the described default size",
      { page: 1, pages: 1, results: 45, data: things(45) },
      "at most 20",
    ],
  ])("describeViolations: %s", (_name, body, expected) => {
    const { t } = fake({});
    const said = describeViolations(t, body.page === 2 ? { page: "2" } : {}, body);
    if (expected === undefined) expect(said).toBeUndefined();
    else expect(said).toContain(expected);
  });
});

describe("judgeStably", () => {
  /** An answer of `count` items, read whole or (complete false) only in part. */
  const answer = (count: number, complete = true): ListAnswer => ({
    items: things(count),
    pages: 1,
    results: count,
    complete,
    listPages: complete ? 1 : 99,
    reads: [],
  });
  const judgeCount = (said: ListAnswer, before: readonly Item[], after: readonly Item[]) =>
    before.length !== after.length
      ? undefined
      : said.items.length === after.length || `counted ${said.items.length}`;
  const partial = (said: ListAnswer) => said.items.length < 5 || `too many: ${said.items.length}`;

  it("judges against the snapshots before and after, and keeps the latest", async () => {
    const { t } = fake({ "/things": things(12) });
    const state = { before: things(12) };
    expect(await judgeStably(t, list(), state, async () => answer(12), judgeCount)).toBe(true);
    expect(await judgeStably(t, list(), state, async () => answer(11), judgeCount)).toBe("counted 11");
  });

  it("an answer that agrees with the snapshot before it passes without reading the collection again", async () => {
    const { t, sent } = fake({ "/things": things(12) });
    const state = { before: things(12) };
    expect(await judgeStably(t, list(), state, async () => answer(12), judgeCount)).toBe(true);
    expect(sent).toEqual([]);
  });

  it("an answer that disagrees with the snapshot before it is judged against a fresh one", async () => {
    // The collection grew since the last snapshot: the answer is right for it now.
    const { t, sent } = fake({ "/things": things(13) });
    const state = { before: things(12) };
    expect(await judgeStably(t, list(), state, async () => answer(13), judgeCount)).toBe(true);
    expect(sent.length).toBeGreaterThan(0);
    expect(state.before).toHaveLength(13);
  });

  it("tries again while the collection changes, then skips the value (never a pass) with a log line", async () => {
    const collection = things(12);
    const { t, logs } = fake({ "/things": collection }, { onRead: () => collection.push(...things(1, 100)) });
    const state = { before: things(12) };
    let reads = 0;
    const judged = judgeStably(t, list(), state, async () => answer(++reads), judgeCount);
    await expect(judged).rejects.toSatisfy((error: unknown) => fc.PreconditionFailure.isFailure(error));
    expect([reads, logs]).toEqual([
      3,
      ["/things: the collection kept changing during the check; this value is not judged"],
    ]);
  });

  it("a collection that settles is judged on the next try", async () => {
    const collection = things(12);
    let writes = 1;
    const { t } = fake(
      { "/things": collection },
      { onRead: () => writes-- > 0 && collection.push(...things(1, 100)) },
    );
    // The answer disagrees with the snapshot before it, so the collection is read again (and changes once).
    const state = { before: things(11) };
    expect(await judgeStably(t, list(), state, async () => answer(12), judgeCount)).toBe("counted 12");
  });

  const failedRead: NoAnswer = { message: "page 1 answered 500", response: liveResponse({ status: 500 }) };
  it.each<[string, ListAnswer | NoAnswer, boolean | undefined, Verdict, string[]]>([
    ["a failed read is the verdict", failedRead, true, failedRead, []],
    [
      "an answer read in part: the partial judge passes it, saying completeness was not judged",
      answer(3, false),
      true,
      true,
      [
        "/things: an answer of 99 pages, more pages than one walk reads (40): judged on the 1 pages read; completeness not judged",
      ],
    ],
    [
      "an answer read in part: the partial judge fails it",
      answer(7, false),
      true,
      "too many: 7",
      [
        "/things: an answer of 99 pages, more pages than one walk reads (40): judged on the 1 pages read; completeness not judged",
      ],
    ],
    [
      "a whole answer of a list read in part: judged on its own",
      answer(7),
      false,
      "too many: 7",
      [
        "/things: the unfiltered list has more pages than one walk reads (40): answers judged on their own; completeness not judged",
      ],
    ],
  ])("%s", async (_name, said, complete, verdict, logged) => {
    const { t, logs, sent } = fake({ "/things": things(3) });
    const state = { before: [], ...(complete === false ? { complete } : {}) };
    expect(await judgeStably(t, list(), state, async () => said, judgeCount, partial)).toBe(verdict);
    expect(logs).toEqual(logged);
    expect(sent).toEqual([]);
  });

  it("skips the case when an answer is read in part and there is no partial judge", async () => {
    const { t } = fake({ "/things": things(3) });
    await expect(
      judgeStably(
        t,
        list(),
        { before: [] },
        async () => [answer(1), answer(2, false)],
        () => true,
      ),
    ).rejects.toThrow(
      new Skipped("/things: more pages than one walk reads (40), and this judgement needs the whole list"),
    );
  });
});

describe("finding lists", () => {
  it("finds a nested list under its only parent, and reads public lists without a token", async () => {
    const { t, sent } = fake({ "/things": things(1), "/things/1/parts": [], "/places": [] });
    const found = await findLists(t);
    expect(found.lists.map((entry) => [entry.path, entry.token])).toEqual([
      ["/things", undefined],
      ["/places", null],
      ["/things/1/parts", undefined],
    ]);
    expect(sent.map((entry) => entry.options.query?.page_size)).toEqual(["10"]);
  });

  it.each([
    ["the first parent holding two items", [1, 2, 5], "/things/2/parts", 3],
    ["else the one holding most", [0, 1, 0], "/things/2/parts", 4],
    ["the first on a tie", [1, 1, 1], "/things/1/parts", 4],
  ])("reads a nested list under %s of the parent's first page", async (_name, held, path, reads) => {
    const parts = Object.fromEntries(
      held.map((count, index) => [`/things/${index + 1}/parts`, things(count)]),
    );
    const { t, sent } = fake({ "/things": things(3), ...parts, "/places": [] });
    expect((await findLists(t)).lists.map((entry) => entry.path)).toContain(path);
    expect(sent).toHaveLength(reads);
  });

  it("leaves out a nested list whose parent is empty, saying why", async () => {
    const { t } = fake({ "/things": [], "/places": [] });
    expect((await findLists(t)).skipped).toEqual([
      { operationId: "getThingParts", reason: "/things has no item to read /things/{thingId}/parts under" },
    ]);
  });

  it("keeps the selection for later cases, and skips without any", async () => {
    const { t, logs } = fake({ "/things": [], "/places": [] });
    const selection = {
      key: "k",
      keep: (entry: OperationInfo) => entry.operationId !== "getPlaces",
      none: "none",
    };
    expect((await readableLists(t, selection)).map((entry) => entry.path)).toEqual(["/things"]);
    expect(t.shared.get(sharedKey("k"))).toHaveLength(1);
    expect(logs).toEqual([
      "getThingParts not checked: /things has no item to read /things/{thingId}/parts under",
    ]);
    await expect(readableLists(t, { ...selection, key: "other", keep: () => false })).rejects.toThrow(
      new Skipped("none"),
    );
  });

  it("eachList runs on readable lists, fails an unreadable one and runs on the first pages of one too large", async () => {
    const { t, expectations, logs } = fake({
      "/things": things(2),
      "/places": things(50 * maxWalkPages + 1),
    });
    const ran: string[] = [];
    const targets = [list(), list("/none"), list("/places")];
    await eachList(
      t,
      targets,
      "can be read",
      async (target, before, whole) => void ran.push(`${target.path}:${before.length}:${whole.complete}`),
    );
    expect(ran).toEqual(["/things:2:true", `/places:${50 * maxWalkPages}:false`]);
    expect(expectations.map(({ name, ok }) => ({ name, ok }))).toEqual([
      { name: "getThings can be read", ok: true },
      { name: "getThings can be read", ok: false },
      { name: "getThings can be read", ok: true },
    ]);
    expect(logs).toEqual([
      "/places: 41 pages at page_size 50, more than one walk reads (40): judged on the 40 pages read; completeness not judged",
    ]);
  });
});

describe("withoutShifts: repeats of a list that grew under the walk told apart from the target's", () => {
  /** A newest-first list of 30 walked at page size 10, gaining `grow` items at its head before every page after the first. */
  async function walked(grow: number) {
    const feed = things(30).reverse();
    let newest = 30;
    const { t, logs } = fake(
      { "/feed": feed },
      {
        onRead: (sent) => {
          if (sent.options.query?.page === "1") return;
          feed.unshift(...things(grow, newest + 1).reverse());
          newest += grow;
        },
      },
    );
    const answer = await readAll(t, list("/feed"), 10);
    if (isNoAnswer(answer)) throw new Error(answer.message);
    return { t, logs, answer };
  }

  it("an item pushed on to the next page while results grew is judged once, and the shift is logged", async () => {
    const { t, logs, answer } = await walked(1);
    const { items, twice } = withoutShifts(t, list("/feed"), answer);
    expect(twice).toEqual([]);
    const keys = items.map(itemKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(answer.items.length - 3);
    expect(logs).toEqual([
      "/feed: 3 item(s) showed again on a later page while the list grew (results 30 on page 1, 33 on page 4): 21, 12, 3; the list changed under the walk, each judged once",
    ]);
  });

  it("a list read whole and still: nothing set aside, nothing logged", async () => {
    const { t, logs, answer } = await walked(0);
    expect(withoutShifts(t, list("/feed"), answer)).toEqual({ items: answer.items, twice: [] });
    expect(logs).toEqual([]);
  });

  /** An answer of pages holding these ids, each page's envelope saying `results`. */
  const pagesOf = (...pages: [ids: number[], results: number][]): ListAnswer => ({
    items: pages.flatMap(([ids]) => ids.map((id) => ({ id }))),
    pages: pages.length,
    results: pages.at(-1)?.[1],
    complete: false,
    listPages: 99,
    reads: pages.map(([ids, results], index) => ({
      response: liveResponse({ status: 200 }),
      body: { data: ids.map((id) => ({ id })), page: index + 1, pages: 99, results },
    })),
  });
  it.each([
    ["twice on one page", pagesOf([[9, 8, 8], 30], [[7, 6, 5], 32]), ["8"]],
    ["again on the next page with results unchanged", pagesOf([[9, 8, 7], 30], [[7, 6, 5], 30]), ["7"]],
    ["again further on than results grew", pagesOf([[9, 8, 7], 30], [[6, 5, 9], 31]), ["9"]],
  ])("a repeat %s is the target's", (_name, answer, twice) => {
    const { t, logs } = fake({});
    expect(withoutShifts(t, list("/feed"), answer).twice).toEqual(twice);
    expect(logs).toEqual([]);
  });
});

describe("judgeReversed: desc answers the reverse of asc, up to ties", () => {
  /** One page holding items with these ids, `rank` their order value. */
  const answerOf = (...ids: number[]): ListAnswer => ({
    items: ids.map((id) => ({ id, rank: Math.ceil(id / 2) })),
    pages: 1,
    results: ids.length,
    complete: true,
    listPages: 1,
    reads: [
      {
        response: liveResponse({ status: 200 }),
        body: {
          data: ids.map((id) => ({ id, rank: Math.ceil(id / 2) })),
          page: 1,
          pages: 1,
          results: ids.length,
        },
      },
    ],
  });
  const all = new Set(["1", "2", "3", "4", "5"]);
  const rank = (item: Item) => item.rank;
  it.each<[string, ListAnswer, ListAnswer, Verdict | RegExp]>([
    ["the reverse, ties in any order", answerOf(1, 2, 3, 4), answerOf(3, 4, 2, 1), true],
    [
      "not the same set",
      answerOf(1, 2, 3),
      answerOf(3, 2),
      /^asc answered 3 item\(s\), desc 2: not the same set$/,
    ],
    [
      "out of order",
      answerOf(1, 3, 5),
      answerOf(3, 5, 1),
      /^position 1 of asc holds rank=2, reversed desc 3$/,
    ],
    [
      "an item twice in one answer (a list that grew under the walk): a verdict, not a crash",
      answerOf(1, 2, 3, 3, 4),
      answerOf(4, 3, 2, 1),
      /^asc answered 5 item\(s\), desc 4: an item twice$/,
    ],
  ])("%s", (_name, asc, desc, verdict) => {
    const said = judgeReversed(asc, desc, all, "rank", rank);
    if (verdict === true) expect(said).toBe(true);
    else expect((said as { message: string }).message).toMatch(verdict as RegExp);
  });
});

describe("comparing snapshots and describing filter answers", () => {
  it.each<[string, Item[], Item[], string[], boolean]>([
    ["unchanged", things(2), things(2), ["1", "2"], false],
    ["one added", things(2), things(3), ["1", "2"], true],
    ["one relabelled", things(2), [{ id: 1, label: "other" }, ...things(1, 2)], ["2"], true],
    ["a change outside the fields", things(1), [{ id: 1, label: "thing-1", status: "new" }], ["1"], false],
  ])("stableKeys: %s", (_name, before, after, keys, changed) => {
    const stable = stableKeys(before, after, [{ name: "label" }]);
    expect([[...stable.keys], stable.changed]).toEqual([keys, changed]);
  });

  it.each([
    [["a", "b"], ["b", "a", "a"], true],
    [["a", "b"], ["a"], false],
  ])("sameSet(%j, %j) is %s", (a, b, same) => {
    expect(sameSet(a, b)).toBe(same);
  });

  it("fewKeys shows five and says there are more", () => {
    expect([fewKeys(["1", "2"]), fewKeys(["1", "2", "3", "4", "5", "6"])]).toEqual([
      "1, 2",
      "1, 2, 3, 4, 5, ...",
    ]);
  });

  it("describes a failed filter judgement in one line", () => {
    const line = describeFilterJudgement({
      status: "failed",
      missing: ["1"],
      unexpected: ["2", "3"],
      duplicated: [],
      misordered: { index: 0, expected: "a", actual: "b", key: "4" },
      judged: 4,
    });
    expect(line).toBe(
      'left out 1 matching item(s): 1; returned 2 item(s) that do not match: 2, 3; out of order at position 0: expected a value "a", got "b" (item 4)',
    );
  });

  it.each([
    ["the described refusal", [{ reason: "Cannot filter on status", field: "X-Item-Filter" }], true],
    ["another header named", [{ reason: "Cannot filter on status", field: "X-Filter" }], false],
    ["another reason", [{ reason: "Bad filter", field: "X-Item-Filter" }], false],
  ])("refusesFilterOn: %s", (_name, errors, refuses) => {
    const { t } = fake({});
    expect(refusesFilterOn(t, liveResponse({ status: 400, json: { errors } }), "status")).toBe(refuses);
  });
});

describe("judgeFilterRelation: a relation between filtered answers, judged on what both snapshots agree on", () => {
  const kind: FilterableField = { name: "kind", type: "string", nullable: false, extension: "x-filterable" };
  const kinded: ListTarget = {
    operation: { ...operations[0]!, filterableFields: [kind] },
    path: "/things",
    token: undefined,
  };
  /** `count` things of kind a and b in turn. */
  const mixed = (count: number): Item[] =>
    things(count).map((item, index) => ({ ...item, kind: index % 2 === 0 ? "a" : "b" }));
  /** Equality on kind; `ignoring` a kind answers everything to a filter on it (a fault). */
  const byKind =
    (ignoring?: string) =>
    (item: Item, filter: string): boolean => {
      const wanted = (JSON.parse(filter) as { kind?: string }).kind;
      return wanted === ignoring || wanted === undefined || item.kind === wanted;
    };
  const reads = [
    { filter: { kind: "a" }, pageSize: 50 },
    { filter: { kind: "b" }, pageSize: 10 },
  ] as const;

  it("hands the relation each read's answer, in the order of the reads, and the keys both snapshots agree on", async () => {
    const collection = mixed(4);
    const { t } = fake({ "/things": collection }, { matches: byKind() });
    const seen: unknown[] = [];
    const verdict = await judgeFilterRelation(t, kinded, { before: collection }, reads, ([a, b], judged) => {
      seen.push(a.items.map(itemKey), b.items.map(itemKey), [...judged]);
      return true;
    });
    expect([verdict, seen]).toEqual([
      true,
      [
        ["1", "3"],
        ["2", "4"],
        ["1", "2", "3", "4"],
      ],
    ]);
  });

  it("judges an item that changed between the snapshots no more: the relation no longer sees it", async () => {
    const collection = mixed(4);
    const { t } = fake({ "/things": collection }, { matches: byKind() });
    // Thing 3 was of kind b in the snapshot before: judged as it was, it would fail the relation.
    const before = collection.map((item) => (item.id === 3 ? { ...item, kind: "b" } : item));
    const relation = (_: unknown, judged: ReadonlySet<string>) => !judged.has("3") || "judged thing 3";
    expect(await judgeFilterRelation(t, kinded, { before }, reads, relation)).toBe(true);
  });

  it("a relation that fails is the verdict, after a fresh snapshot", async () => {
    const collection = mixed(4);
    const { t, sent } = fake({ "/things": collection }, { matches: byKind() });
    const verdict = await judgeFilterRelation(t, kinded, { before: collection }, reads, () => "not related");
    expect(verdict).toBe("not related");
    expect(sent.filter((request) => request.options.filter === undefined).length).toBeGreaterThan(0);
  });

  it("answers over several pages of a collection that keeps changing are read again, never judged", async () => {
    const collection = mixed(30);
    const grow = () =>
      void collection.push(...mixed(1).map((item) => ({ ...item, id: collection.length + 1 })));
    const { t } = fake({ "/things": collection }, { matches: byKind(), onRead: grow });
    const judged: number[] = [];
    const relation = (_: unknown, keys: ReadonlySet<string>) => {
      judged.push(keys.size);
      return "judged a changing list";
    };
    const verdict = judgeFilterRelation(t, kinded, { before: mixed(30) }, reads, relation);
    await expect(verdict).rejects.toSatisfy((error: unknown) => fc.PreconditionFailure.isFailure(error));
    // Each of the 3 tries judges first against the latest snapshot alone, as if nothing changed (a pass would need
    // no other read), each one larger; against a snapshot taken after the answers, the relation is never asked.
    expect(judged).toHaveLength(3);
    expect(judged[0]).toBe(30);
    expect(judged).toEqual([...judged].sort((a, b) => a - b));
    expect(new Set(judged).size).toBe(3);
  });

  it("answers read in part are judged sound instead (matching items only), the defect named by the filter", async () => {
    const collection = mixed(2 * 10 * (maxWalkPages + 1));
    const { t } = fake({ "/things": collection }, { matches: byKind("b") });
    const relation = () => "the relation needs whole answers";
    const verdict = await judgeFilterRelation(t, kinded, { before: collection }, reads, relation);
    expect(verdict).toMatchObject({
      message: expect.stringMatching(
        /^\{"kind":"b"\} on the 40 pages read: returned 200 item\(s\) that do not match/,
      ),
      cause: { rule: "X-Filter answers wrongly", operationId: "getThings", subject: { kind: "b" } },
    });
  });
});
