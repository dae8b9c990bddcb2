/**
 * X-Filter semantics, judged by the oracle (`src/oracles/filter-oracle.ts`) on every paginated list of the spec
 * that has filterable fields. Generated filters (`src/generators/filter-object.ts`) draw their values from what the
 * target holds; for each one, what the target returns across all pages must be the oracle applied to the whole
 * unfiltered collection (the set, and with `+order_by` the order). Metamorphic properties need no oracle: `+and`
 * is the intersection, `+or` the union, `desc` the reverse of `asc` up to ties, and the set does not depend on the
 * page size. Invalid filters (`src/generators/filter-object-invalid.ts`) must get 400 with an error, and a field
 * that is not filterable the description's `Cannot filter on <field>` on field `X-Filter`.
 *
 * Read-only but for `seed-data` (tag `writes`), which fills nearly empty lists on the embedded reference server so
 * filters have something to select from. Collections that change during a check (other clients writing) are
 * handled: items that changed meanwhile are not judged. Bounded: a few hundred requests in the default run;
 * `conform fuzz filters --runs N` runs longer campaigns (`t.options.runs`).
 * @module
 */
import fc from "fast-check";
import type { Generated } from "../../src/generators/case-meta.ts";
import { mutationsOf } from "../../src/generators/case-meta.ts";
import {
  type FilterScenario,
  type FilterValue,
  filterObject,
  filterScenarios,
} from "../../src/generators/filter-object.ts";
import { invalidFilterObject } from "../../src/generators/filter-object-invalid.ts";
import { type CaseContext, defineSuite } from "../../src/index.ts";
import {
  checkFilter,
  compareValues,
  type FilterJudgement,
  judgeFilteredList,
} from "../../src/oracles/filter-oracle.ts";
import { pageViolations } from "../../src/oracles/pagination-oracle.ts";
import type { FilterableField } from "../../src/spec/types.ts";
import { findLists, type Item, itemKey, type ListTarget, readPage, walk } from "./support/lists.ts";
import { PropertyRunner, type Verdict } from "./support/property-run.ts";

const listsKey = "filters:lists";
/** Every scenario but `order`: these filters get their ordering from the property itself. */
const unorderedScenarios: readonly FilterScenario[] = filterScenarios.filter(
  (scenario) => scenario !== "order",
);
/** Said of a list or an answer with more pages than one walk reads: not judged (logged), never a failure. */
const tooLarge = "more pages than one check reads";
/** Tries of a check whose collection changed while several pages were read. */
const attempts = 3;

interface FilterableList extends ListTarget {
  readonly fields: readonly FilterableField[];
}

async function filterableLists(t: CaseContext): Promise<FilterableList[]> {
  const cached = t.shared.get(listsKey) as FilterableList[] | undefined;
  if (cached) return cached;
  const found = await findLists(t, (operation) => operation.filterableFields.length > 0);
  for (const entry of found.skipped) t.log(`${entry.operationId} not checked: ${entry.reason}`);
  const lists = found.lists.map((list) => ({ ...list, fields: list.operation.filterableFields }));
  if (lists.length === 0)
    t.skip("the spec has no paginated list with filterable fields that can be read here");
  t.shared.set(listsKey, lists);
  return lists;
}

/** The whole unfiltered collection (pages of 500), or what went wrong. */
async function snapshot(t: CaseContext, list: ListTarget): Promise<readonly Item[] | string> {
  const read = await walk(t, list, { pageSize: 500 });
  if (read.status === "refused") return `answered ${read.response.status} to an unfiltered read`;
  if (!read.complete) return tooLarge;
  return read.items;
}

/** Reads a filter's answer over every page; a string says why there is none. */
async function filtered(
  t: CaseContext,
  list: ListTarget,
  filter: unknown,
  pageSize: number,
): Promise<{ items: readonly Item[]; pages: number } | string> {
  const read = await walk(t, list, { pageSize, filter });
  if (read.status === "refused") {
    return `answered ${read.response.status} on page ${read.page}: ${read.response.text.slice(0, 200)}`;
  }
  if (!read.complete) return tooLarge;
  for (const { query, read: page } of read.answers) {
    const body = page.body!;
    const broken = pageViolations(query, {
      page: body.page,
      pages: body.pages,
      results: body.results,
      dataLength: body.data.length,
    });
    if (broken.length > 0) {
      return `page ${query.page} at page_size ${pageSize}: ${broken.map((violation) => `${violation.message} (expected ${String(violation.expected)}, got ${String(violation.actual)})`).join("; ")}`;
    }
  }
  return { items: read.items, pages: read.pages };
}

function describeJudgement(judgement: Extract<FilterJudgement, { status: "failed" }>): string {
  const few = (keys: readonly string[]) => `${keys.slice(0, 5).join(", ")}${keys.length > 5 ? ", ..." : ""}`;
  const parts: string[] = [];
  if (judgement.missing.length > 0)
    parts.push(`left out ${judgement.missing.length} matching item(s): ${few(judgement.missing)}`);
  if (judgement.unexpected.length > 0) {
    parts.push(
      `returned ${judgement.unexpected.length} item(s) that do not match: ${few(judgement.unexpected)}`,
    );
  }
  if (judgement.duplicated.length > 0) parts.push(`returned item(s) twice: ${few(judgement.duplicated)}`);
  if (judgement.misordered) {
    const { index, expected, actual, key } = judgement.misordered;
    parts.push(
      `out of order at position ${index}: expected a value ${JSON.stringify(expected)}, got ${JSON.stringify(actual)} (item ${key})`,
    );
  }
  return parts.join("; ");
}

/** Keys of items in both snapshots with the same filterable values: the ones a comparison may judge. */
function stableKeys(
  before: readonly Item[],
  after: readonly Item[],
  fields: readonly FilterableField[],
): Set<string> {
  const project = (item: Item) => JSON.stringify(fields.map((field) => item[field.name] ?? null));
  const later = new Map(after.map((item) => [itemKey(item), project(item)]));
  return new Set(before.filter((item) => later.get(itemKey(item)) === project(item)).map(itemKey));
}

const sameSet = (a: Iterable<string>, b: Iterable<string>) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((key) => right.has(key));
};

interface SnapshotState {
  /** The latest unfiltered read: the "before" of the next check. */
  before: readonly Item[];
}

/**
 * Reads an answer, then the unfiltered collection again, and judges the answer against both snapshots; a judge
 * that says `undefined` (the collection changed while several pages were read) gets another try. Gives up
 * passing, with a log line, after {@link attempts}.
 */
async function judgeStably<T>(
  t: CaseContext,
  list: ListTarget,
  state: SnapshotState,
  read: () => Promise<T | string>,
  judge: (answer: T, before: readonly Item[], after: readonly Item[]) => Verdict | undefined,
): Promise<Verdict> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const before = state.before;
    const answer = await read();
    const after = typeof answer === "string" ? answer : await snapshot(t, list);
    if (answer === tooLarge || after === tooLarge) {
      t.log(`${list.path}: ${tooLarge}; not judged`);
      return true;
    }
    if (typeof answer === "string") return answer;
    if (typeof after === "string") return after;
    state.before = after;
    const verdict = judge(answer, before, after);
    if (verdict !== undefined) return verdict;
  }
  t.log(`${list.path}: the collection kept changing during the check; not judged`);
  return true;
}

/** Each list with its unfiltered collection; a list that cannot be read is a failure of the case. */
async function eachList(
  t: CaseContext,
  run: (list: FilterableList, before: readonly Item[]) => Promise<void>,
): Promise<void> {
  for (const list of await filterableLists(t)) {
    const before = await snapshot(t, list);
    if (before === tooLarge) {
      t.log(`${list.path}: ${tooLarge}; its filters are not judged`);
      continue;
    }
    if (
      !t.expect(`${list.operation.operationId} can be read unfiltered`, typeof before !== "string", {
        actual: before,
      })
    ) {
      continue;
    }
    await run(list, before as readonly Item[]);
  }
}

function errorsOf(json: unknown): { reason?: unknown; field?: unknown }[] {
  const errors = (json as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? (errors as { reason?: unknown; field?: unknown }[]) : [];
}

/** An invalid filter must get 400 with an error (reason a string); an unfilterable field the described one. */
async function refusal(
  t: CaseContext,
  list: ListTarget,
  generated: Generated<{ header: string }>,
): Promise<Verdict> {
  const { response } = await readPage(t, list, { page: "1" }, generated.value.header);
  const errors = errorsOf(response.json);
  if (response.status !== 400) return `answered ${response.status}, not 400`;
  if (errors.length === 0 || errors.some((error) => typeof error.reason !== "string")) {
    return "400 without an error holding a reason";
  }
  const [mutation] = mutationsOf(generated.meta);
  if (mutation?.operator === "unfilterable-field") {
    const reason = `Cannot filter on ${mutation.detail}`;
    if (!errors.some((error) => error.reason === reason && error.field === "X-Filter")) {
      return `no error {reason: "${reason}", field: "X-Filter"} among ${JSON.stringify(errors)}`;
    }
  }
  return true;
}

/** Labels and values for the lists `seed-data` fills. */
const balancerSeeds = [
  { name: "fb-alpha", tags: ["Alpha", "web"], throttle: 0 },
  { name: "fb-beta", tags: ["alpha"], throttle: 5 },
  { name: "fb-gamma", tags: [], throttle: 20 },
  { name: "fb-delta", tags: ["web", "Beta"], throttle: 10 },
  { name: "fb-epsilon", tags: ["beta", "web"], throttle: 20 },
];
const instanceSeeds = [
  { name: "fi-web1", group: "web", tags: ["prod", "Blue"], image: true },
  { name: "fi-web2", group: "web", tags: ["prod"], image: false },
  { name: "fi-db1", group: "db", tags: ["prod", "db"], image: true },
  { name: "fi-db2", group: "db", tags: [], image: false },
  { name: "fi-cache", group: "", tags: ["blue"], image: true },
  { name: "fi-batch", group: "Batch", tags: ["Prod"], image: false },
];
/** Lists with fewer items than this get seeded (the embedded reference starts empty). */
const fewItems = 5;

export default defineSuite({
  id: "filters",
  title: "X-Filter semantics: generated filters judged by an oracle, metamorphic properties, invalid filters",
  tags: ["read-only"],
  cases: [
    {
      id: "seed-data",
      title: "Lists that are (nearly) empty on the embedded reference get items to filter",
      tags: ["writes"],
      run: async (t) => {
        if (!t.target.embedded || !t.target.writesAllowed) {
          t.skip("seeding creates load balancers and instances: only on the embedded reference server");
        }
        const count = async (path: string) => {
          const page = await t.api.get(path, { query: { page_size: 25 } });
          return page.status === 200 ? ((page.json as { results?: number }).results ?? 0) : Number.NaN;
        };
        const balancers = await count("/nodebalancers");
        const instances = await count("/compute/instances");
        if (!(balancers < fewItems) && !(instances < fewItems))
          t.skip("every list already holds items to filter");
        const regions = (
          (await t.api.get("/regions", { query: { page_size: 500 }, token: null })).json as {
            data?: { id: string; capabilities?: string[] }[];
          }
        )?.data?.filter((region) =>
          ["Linodes", "NodeBalancers"].every((capability) => region.capabilities?.includes(capability)),
        );
        const type = (
          (await t.api.get("/compute/types", { query: { page_size: 25 }, token: null })).json as {
            data?: { id: string }[];
          }
        )?.data?.[0]?.id;
        if (!regions?.length || !type)
          t.skip("no region with instances and load balancers, or no type, is listed");
        const usable = regions ?? [];
        const regionAt = (index: number) => usable[index % Math.min(3, usable.length)]!.id;
        if (balancers < fewItems) {
          for (const [index, seed] of balancerSeeds.entries()) {
            const created = await t.api.post("/nodebalancers", {
              region: regionAt(index),
              label: t.label(seed.name),
              client_conn_throttle: seed.throttle,
              tags: seed.tags,
            });
            if (
              !t.expect("a load balancer to filter is created", created.status === 200, {
                actual: created.status,
              })
            )
              break;
            const id = (created.json as { id: number }).id;
            t.cleanup(`load balancer ${id}`, `/nodebalancers/${id}`);
          }
        }
        if (instances < fewItems) {
          const password = `Filter-seed-${t.seed}-correct-horse-battery`;
          t.secret(password);
          for (const [index, seed] of instanceSeeds.entries()) {
            const created = await t.api.post("/compute/instances", {
              region: regionAt(index),
              type,
              label: t.label(seed.name),
              group: seed.group,
              tags: seed.tags,
              booted: false,
              ...(seed.image ? { image: "compute/debian12", root_pass: password } : {}),
            });
            if (
              !t.expect("an instance to filter is created", created.status === 200, {
                actual: created.status,
              })
            )
              break;
            const id = (created.json as { id: number }).id;
            t.cleanup(`instance ${id}`, `/compute/instances/${id}`);
            if (index % 2 === 0) {
              // A private address too: the address list gets non-public entries, the instance a second ipv4.
              const address = await t.api.post("/networking/ips", {
                type: "ipv4",
                public: false,
                compute_id: id,
              });
              t.expect("a private address to filter is allocated", address.status === 200, {
                actual: address.status,
              });
            }
          }
        }
        t.shared.delete(listsKey);
      },
    },
    {
      id: "semantics",
      title: "A generated filter answers, over all pages, what the oracle says of the unfiltered collection",
      run: async (t) => {
        const properties = new PropertyRunner(t, "filters");
        await eachList(t, async (list, unfiltered) => {
          const state: SnapshotState = { before: unfiltered };
          const arbitrary = fc.record({
            filter: filterObject({ fields: list.fields, items: unfiltered }),
            pageSize: fc.constantFrom(500, 100, 25),
          });
          await properties.check({
            name: `${list.operation.operationId} answers what the oracle says`,
            arbitrary,
            defaultRuns: 12,
            predicate: async ({ filter, pageSize }) => {
              const verdict = checkFilter(filter.value, list.fields);
              if (verdict.status !== "valid")
                throw new Error(`generated an invalid filter: ${JSON.stringify(verdict)}`);
              return judgeStably(
                t,
                list,
                state,
                () => filtered(t, list, filter.value, pageSize),
                (answer, before, after) => {
                  const judgement = judgeFilteredList({
                    before,
                    after,
                    returned: answer.items,
                    pages: answer.pages,
                    filter: verdict.filter,
                    key: itemKey,
                    fields: list.fields,
                  });
                  if (judgement.status === "inconclusive") return undefined;
                  return judgement.status === "passed" ? true : describeJudgement(judgement);
                },
              );
            },
          });
        });
      },
    },
    {
      id: "and-or",
      title: "+and of two filters answers the intersection of their answers, +or the union",
      run: async (t) => {
        const properties = new PropertyRunner(t, "filters");
        await eachList(t, async (list, unfiltered) => {
          const state: SnapshotState = { before: unfiltered };
          const one = filterObject({ fields: list.fields, items: unfiltered, scenarios: unorderedScenarios });
          await properties.check({
            name: `${list.operation.operationId}: +and is the intersection, +or the union`,
            arbitrary: fc.record({ a: one, b: one }),
            defaultRuns: 4,
            predicate: ({ a, b }) =>
              judgeStably(
                t,
                list,
                state,
                async () => {
                  const answers: { keys: string[]; pages: number }[] = [];
                  for (const filter of [
                    a.value,
                    b.value,
                    { "+and": [a.value, b.value] },
                    { "+or": [a.value, b.value] },
                  ]) {
                    const answer = await filtered(t, list, filter, 500);
                    if (typeof answer === "string") {
                      return answer === tooLarge ? tooLarge : `${JSON.stringify(filter)} ${answer}`;
                    }
                    answers.push({ keys: answer.items.map(itemKey), pages: answer.pages });
                  }
                  return answers;
                },
                (answers, before, after) => {
                  const stable = stableKeys(before, after, list.fields);
                  if (
                    stable.size < new Set([...before, ...after].map(itemKey)).size &&
                    answers.some((answer) => answer.pages > 1)
                  ) {
                    return undefined;
                  }
                  const [inA, inB, both, either] = answers.map(
                    (answer) => new Set(answer.keys.filter((key) => stable.has(key))),
                  );
                  const intersection = [...inA!].filter((key) => inB!.has(key));
                  const union = new Set([...inA!, ...inB!]);
                  if (!sameSet(both!, intersection)) {
                    return `+and answered ${both!.size} item(s), the intersection holds ${intersection.length}`;
                  }
                  if (!sameSet(either!, union))
                    return `+or answered ${either!.size} item(s), the union holds ${union.size}`;
                  return true;
                },
              ),
          });
        });
      },
    },
    {
      id: "order-reverse",
      title: "+order desc answers the reverse of asc, up to ties",
      run: async (t) => {
        const properties = new PropertyRunner(t, "filters");
        await eachList(t, async (list, unfiltered) => {
          const orderable = list.fields.filter((field) => field.type !== "array").map((field) => field.name);
          if (orderable.length === 0) return;
          const state: SnapshotState = { before: unfiltered };
          const arbitrary = fc.record({
            where: fc.option(
              filterObject({ fields: list.fields, items: unfiltered, scenarios: unorderedScenarios }),
              {
                nil: undefined,
              },
            ),
            orderBy: fc.constantFrom(...orderable),
          });
          await properties.check({
            name: `${list.operation.operationId}: desc is the reverse of asc`,
            arbitrary,
            defaultRuns: 4,
            predicate: ({ where, orderBy }) =>
              judgeStably(
                t,
                list,
                state,
                async () => {
                  const answers: { items: readonly Item[]; pages: number }[] = [];
                  for (const order of ["asc", "desc"]) {
                    const filter = { ...where?.value, "+order_by": orderBy, "+order": order };
                    const answer = await filtered(t, list, filter, 500);
                    if (typeof answer === "string") {
                      return answer === tooLarge ? tooLarge : `${JSON.stringify(filter)} ${answer}`;
                    }
                    answers.push(answer);
                  }
                  return answers;
                },
                ([asc, desc], before, after) => {
                  const stable = stableKeys(before, after, list.fields);
                  const changed = stable.size < new Set([...before, ...after].map(itemKey)).size;
                  if (changed && (asc!.pages > 1 || desc!.pages > 1)) return undefined;
                  const ascending = asc!.items.filter((item) => stable.has(itemKey(item)));
                  const descending = desc!.items.filter((item) => stable.has(itemKey(item)));
                  if (!sameSet(ascending.map(itemKey), descending.map(itemKey))) {
                    return `asc answered ${ascending.length} item(s), desc ${descending.length}: not the same set`;
                  }
                  const reversed = [...descending].reverse();
                  const at = ascending.findIndex(
                    (item, index) => compareValues(item[orderBy], reversed[index]![orderBy]) !== 0,
                  );
                  if (at >= 0) {
                    return `position ${at} of asc holds ${orderBy}=${JSON.stringify(ascending[at]![orderBy])}, reversed desc ${JSON.stringify(reversed[at]![orderBy])}`;
                  }
                  return true;
                },
              ),
          });
        });
      },
    },
    {
      id: "page-size-independent",
      title: "A filter answers the same items (in the same order) at any page size",
      run: async (t) => {
        const properties = new PropertyRunner(t, "filters");
        await eachList(t, async (list, unfiltered) => {
          const state: SnapshotState = { before: unfiltered };
          const arbitrary = fc.record({
            filter: filterObject({ fields: list.fields, items: unfiltered }),
            pageSize: fc.integer({ min: 25, max: 100 }),
          });
          await properties.check({
            name: `${list.operation.operationId}: the answer does not depend on page_size`,
            arbitrary,
            defaultRuns: 3,
            predicate: ({ filter, pageSize }) =>
              judgeStably(
                t,
                list,
                state,
                async () => {
                  const small = await filtered(t, list, filter.value, pageSize);
                  if (typeof small === "string") return small;
                  const large = await filtered(t, list, filter.value, 500);
                  if (typeof large === "string") return large;
                  return [small, large] as const;
                },
                ([small, large], before, after) => {
                  const stable = stableKeys(before, after, list.fields);
                  if (stable.size < new Set([...before, ...after].map(itemKey)).size && small.pages > 1)
                    return undefined;
                  const smallKeys = small.items.map(itemKey).filter((key) => stable.has(key));
                  const largeKeys = large.items.map(itemKey).filter((key) => stable.has(key));
                  if (new Set(smallKeys).size !== smallKeys.length)
                    return `page_size ${pageSize} repeats an item across pages`;
                  if (!sameSet(smallKeys, largeKeys)) {
                    return `page_size ${pageSize} answered ${smallKeys.length} item(s), page_size 500 ${largeKeys.length}`;
                  }
                  const order = (filter.value as FilterValue)["+order_by"];
                  if (typeof order === "string") {
                    const value = (keys: string[], items: readonly Item[]) => {
                      const byKey = new Map(items.map((item) => [itemKey(item), item[order]]));
                      return keys.map((key) => byKey.get(key));
                    };
                    const a = value(smallKeys, small.items);
                    const b = value(largeKeys, large.items);
                    const at = a.findIndex((entry, index) => compareValues(entry, b[index]) !== 0);
                    if (at >= 0)
                      return `ordered by ${order}, position ${at} differs between page_size ${pageSize} and 500`;
                  }
                  return true;
                },
              ),
          });
        });
      },
    },
    {
      id: "invalid-filters",
      title: "Invalid filters get 400 with an error; an unfilterable field gets `Cannot filter on <field>`",
      run: async (t) => {
        const properties = new PropertyRunner(t, "filters");
        await eachList(t, async (list, unfiltered) => {
          const unfilterable = [...new Set(unfiltered.flatMap((item) => Object.keys(item)))].filter(
            (name) => !list.fields.some((field) => field.name === name),
          );
          await properties.check({
            name: `${list.operation.operationId} refuses invalid filters`,
            arbitrary: invalidFilterObject({ fields: list.fields, items: unfiltered, unfilterable }),
            defaultRuns: 8,
            predicate: async (generated) => refusal(t, list, generated),
          });
        });
        // Lists with no filterable field: any field key is one that cannot be filtered.
        const { lists } = await findLists(t, (operation) => operation.filterableFields.length === 0);
        for (const list of lists) {
          const first = await readPage(t, list, { page: "1", page_size: "25" });
          const name = Object.keys(first.body?.data[0] ?? {})[0] ?? "id";
          const response = await readPage(t, list, { page: "1" }, { [name]: "x" });
          const errors = errorsOf(response.response.json);
          t.expect(
            `${list.operation.operationId} refuses a filter on ${name} with Cannot filter on ${name}`,
            response.response.status === 400 &&
              errors.some(
                (error) => error.reason === `Cannot filter on ${name}` && error.field === "X-Filter",
              ),
            {
              expected: { status: 400, errors: [{ reason: `Cannot filter on ${name}`, field: "X-Filter" }] },
              actual: { status: response.response.status, errors },
              response: response.response,
            },
          );
        }
      },
    },
  ],
});
