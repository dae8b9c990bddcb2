/**
 * X-Filter semantics, judged by the filter oracle on every paginated list of the description that has filterable
 * fields. Generated filters (`filterObject`) draw their values from what the target holds; for each one, what the
 * target returns across all pages must be the oracle applied to the whole unfiltered collection (the set, and with
 * `+order_by` the order). Metamorphic properties need no oracle: `+and` is the intersection, `+or` the union,
 * `desc` the reverse of `asc` up to ties, and the set does not depend on the page size. Invalid filters
 * (`invalidFilterObject`) must get 400 with an error, and a field that is not filterable the described
 * `Cannot filter on <field>` on the filter header's field.
 *
 * Read-only but for `seed-data` (tag `writes`), which fills nearly empty lists on the embedded reference server so
 * filters have something to select from. Collections that change during a check (other clients writing) are
 * handled: items that changed meanwhile are not judged. A list or an answer with more pages than one walk reads is
 * judged on the pages read: every item returned matches its filter, none twice, in the filter's order; whether
 * anything is left out is not judged there, and the property's name says "pages read". Bounded: a few hundred requests in the default run;
 * `conform fuzz filters --runs N` runs longer campaigns.
 * @module
 */
import fc from "fast-check";
import {
  answerFalsified,
  apiFacts,
  breaksOf,
  type CaseContext,
  type CreateDelete,
  call,
  causeName,
  checkFilter,
  chooseImage,
  chooseType,
  compareValues,
  conventionsOf,
  createRegistered,
  defineSuite,
  describeFilterJudgement,
  eachList,
  errorsOf,
  expectCreated,
  type FilterScenario,
  type FilterValue,
  filterCause,
  filterFalsified,
  filterFieldValue,
  filterHeader,
  filterObject,
  filterScenarios,
  findLists,
  findRegions,
  type Generated,
  type Item,
  invalidFilterObject,
  isErrorBody,
  itemKey,
  judgeFilteredList,
  judgeFilteredPages,
  judgeReversed,
  judgeStably,
  type ListAnswer,
  type ListSelection,
  type ListTarget,
  mutationsOf,
  PropertyRunner,
  type RootCause,
  readAll,
  readAnswers,
  readableLists,
  readPage,
  refusesFilterOn,
  requireOperation,
  type Snapshots,
  sameSet,
  stableKeys,
  type Verdict,
  withoutShifts,
} from "../../src/index.ts";

const filterable: ListSelection = {
  key: "filters:lists",
  keep: (operation) => operation.filterableFields.length > 0,
  none: "the description has no paginated list with filterable fields that can be read here",
};
const fieldsOf = (list: ListTarget) => list.operation.filterableFields;
/** Every scenario but `order`: these filters get their ordering from the property itself. */
const unorderedScenarios: readonly FilterScenario[] = filterScenarios.filter(
  (scenario) => scenario !== "order",
);

/** An invalid filter must get 400 with an error (reason a string); an unfilterable field the described one. */
async function refusal(
  t: CaseContext,
  list: ListTarget,
  generated: Generated<{ header: string }>,
): Promise<Verdict> {
  const { response } = await readPage(
    t,
    list,
    { page: "1" },
    generated.value.header,
    breaksOf(generated.meta),
  );
  if (response.status !== 400) return `answered ${response.status}, not 400`;
  if (!isErrorBody(t, response)) return "400 without an error holding a reason";
  const [mutation] = mutationsOf(generated.meta);
  const field = String(mutation?.detail);
  if (mutation?.operator === "unfilterable-field" && !refusesFilterOn(t, response, field)) {
    const wanted = `{reason: "${apiFacts.cannotFilterOn(field)}", field: "${filterHeader(t)}"}`;
    return `no error ${wanted} among ${JSON.stringify(errorsOf(t, response))}`;
  }
  return true;
}

/** Labels and values for the lists `seed-data` fills. */
const balancerSeeds = [
  { name: "fb-alpha", client_conn_throttle: 0, tags: ["Alpha", "web"] },
  { name: "fb-beta", client_conn_throttle: 5, tags: ["alpha"] },
  { name: "fb-gamma", client_conn_throttle: 20, tags: [] },
  { name: "fb-delta", client_conn_throttle: 10, tags: ["web", "Beta"] },
  { name: "fb-epsilon", client_conn_throttle: 20, tags: ["beta", "web"] },
];
const instanceSeeds = [
  { name: "fi-web1", group: "web", tags: ["prod", "Blue"], image: true },
  { name: "fi-web2", group: "web", tags: ["prod"], image: false },
  { name: "fi-db1", group: "db", tags: ["prod", "db"], image: true },
  { name: "fi-db2", group: "db", tags: [], image: false },
  { name: "fi-cache", group: "", tags: ["blue"], image: true },
  { name: "fi-batch", group: "Batch", tags: ["Prod"], image: false },
];
const balancerOps: CreateDelete = ["createNodeBalancer", "deleteNodeBalancer"];
const instanceOps: CreateDelete = ["createComputeInstance", "deleteComputeInstance"];
/** Lists with fewer items than this get seeded (the embedded reference starts empty). */
const fewItems = 5;

/** Fills the load balancer and instance lists (and private addresses) when they hold fewer than {@link fewItems}. */
async function seedData(t: CaseContext): Promise<void> {
  if (!t.target.embedded || !t.target.writesAllowed) {
    t.skip("seeding creates load balancers and instances: only on the embedded reference server");
  }
  // Every operation first: a case skipped half-way must not leave what it made unregistered for cleanup.
  for (const id of [...balancerOps, ...instanceOps, "allocateIP"]) requireOperation(t, id);
  const count = async (operationId: string) => {
    const page = await call(t, operationId, { query: { page_size: conventionsOf(t.spec).pageSize.min } });
    return page.status === 200 ? ((page.json as { results?: number }).results ?? 0) : Number.NaN;
  };
  const balancers = await count("getNodeBalancers");
  const instances = await count("getComputeInstances");
  if (!(balancers < fewItems) && !(instances < fewItems)) t.skip("every list already holds items to filter");
  const regions = await findRegions(t, ["instances", "balancers"]);
  if (regions.length === 0) t.skip("no region with instances and load balancers is listed");
  const type = await chooseType(t);
  const regionAt = (index: number) => regions[index % Math.min(3, regions.length)]!;
  /** Creates one item (`what`: "a load balancer") and registers it for deletion; its id, if created. */
  const create = async (what: string, operations: CreateDelete, json: object) => {
    const created = await createRegistered(t, operations, what.replace(/^an? /, ""), { json });
    return expectCreated(t, `${what} to filter is created`, created) ? created.id : undefined;
  };
  for (const [index, { name, ...seed }] of (balancers < fewItems ? balancerSeeds : []).entries()) {
    const json = { region: regionAt(index), label: t.label(name), ...seed };
    if ((await create("a load balancer", balancerOps, json)) === undefined) break;
  }
  const password = `Filter-seed-${t.seed}-correct-horse-battery`;
  t.secret(password);
  for (const [index, { name, image, ...seed }] of (instances < fewItems ? instanceSeeds : []).entries()) {
    const credentials = image ? { image: chooseImage(t), root_pass: password } : {};
    const json = {
      region: regionAt(index),
      type,
      label: t.label(name),
      ...seed,
      booted: false,
      ...credentials,
    };
    const id = await create("an instance", instanceOps, json);
    if (id === undefined) break;
    if (index % 2 !== 0) continue;
    // A private address too: the address list gets non-public entries, the instance a second ipv4.
    const address = await call(t, "allocateIP", { json: { type: "ipv4", public: false, compute_id: id } });
    t.expect("a private address to filter is allocated", address.status === 200, { actual: address.status });
  }
  t.shared.delete(filterable.key);
}

/**
 * Runs a property per filterable list, each with its unfiltered collection and its snapshots, and the property's
 * name: the whole-list one, or on a list read only in part what is judged there.
 */
async function eachFilterable(
  t: CaseContext,
  check: (
    list: ListTarget,
    state: Snapshots,
    properties: PropertyRunner,
    named: (whole: string) => string,
  ) => Promise<unknown>,
): Promise<void> {
  const properties = new PropertyRunner(t, "filters");
  await eachList(t, await readableLists(t, filterable), "can be read unfiltered", (list, before, snap) =>
    check(list, { before, complete: snap.complete }, properties, (whole) =>
      snap.complete
        ? whole
        : `${whole}, judged on the ${snap.pages} pages read: only matching items, none twice, in order (completeness not judged)`,
    ),
  );
}

type FilterPart = Record<string, unknown>;

/** The parts of a filter that stand alone as filters: each element of a `+and`/`+or`, each field key, each operator. */
function partsOf(filter: FilterPart): FilterPart[] {
  const keys = Object.keys(filter).filter((key) => key !== "+order_by" && key !== "+order");
  // First without its ordering: a wrong selection is then named without it.
  if (keys.length > 0 && keys.length < Object.keys(filter).length)
    return [Object.fromEntries(keys.map((key) => [key, filter[key]]))];
  if (keys.length > 1) return keys.map((key) => ({ [key]: filter[key] }));
  const [key] = keys;
  if (key === undefined) return [];
  const value = filter[key];
  if (key === "+and" || key === "+or")
    return Array.isArray(value) ? value.filter((part): part is FilterPart => typeof part === "object") : [];
  const operators = typeof value === "object" && value !== null ? Object.keys(value) : [];
  return operators.length > 1
    ? operators.map((operator) => ({ [key]: { [operator]: (value as FilterPart)[operator] } }))
    : [];
}

/** The operator a filter part tests at its own top: `+or`, `+neq`, `=` for an equality. */
function topOperators(filter: FilterPart): string[] {
  return Object.entries(filter).flatMap(([key, value]) => {
    if (key.startsWith("+")) return [key];
    return typeof value === "object" && value !== null ? Object.keys(value) : ["="];
  });
}

/**
 * Narrows a wrong answer's cause to the smallest part of its filter the target still answers wrongly on its own
 * (each part read as a filter of its own and judged by the oracle against the unfiltered collection), named by
 * that part's own operator: a defect in `+or` is `+or` whatever the shrunk filter still nests. Only on a list read
 * whole; a part that cannot be judged ends the narrowing where it is.
 */
async function narrowFilterCause(t: CaseContext, list: ListTarget, state: Snapshots, cause: RootCause) {
  if (!state.complete || typeof cause.subject !== "object" || cause.subject === null) return cause;
  const pageSize = conventionsOf(t.spec).pageSize.max;
  const answersWrongly = async (part: FilterPart) => {
    const verdict = checkFilter(part, fieldsOf(list));
    if (verdict.status !== "valid") return false;
    const answer = await readAll(t, list, pageSize, part);
    if (!("items" in answer)) return false;
    const judged = judgeFilteredList({
      before: state.before,
      after: state.before,
      returned: answer.items,
      pages: answer.pages,
      filter: verdict.filter,
      key: itemKey,
      fields: fieldsOf(list),
    });
    return judged.status === "failed";
  };
  let culprit = cause.subject as FilterPart;
  for (let depth = 0; depth < 8; depth += 1) {
    let narrower: FilterPart | undefined;
    for (const part of partsOf(culprit)) {
      if (!(await answersWrongly(part))) continue;
      narrower = part;
      break;
    }
    if (!narrower) break;
    culprit = narrower;
  }
  t.log(`${causeName(cause)}: narrowed to ${JSON.stringify(culprit)}`);
  return { ...cause, parts: topOperators(culprit), subject: culprit };
}

/**
 * The judge of answers read only in part (see {@link judgeStably}): every item returned matches its filter, none
 * shows twice, and with `+order_by` they come in order. An item pushed on to the next page by items added while
 * the pages were read is the list changing under the walk, not a repeat (`withoutShifts` logs it).
 */
function soundAnswers(
  t: CaseContext,
  list: ListTarget,
  filters: readonly unknown[],
): (answers: ListAnswer | readonly ListAnswer[]) => Verdict {
  return (said) => {
    const answers: readonly ListAnswer[] = Array.isArray(said) ? said : [said as ListAnswer];
    for (const [index, answer] of answers.entries()) {
      const verdict = checkFilter(filters[index], fieldsOf(list));
      if (verdict.status !== "valid") throw new Error(`judged an invalid filter: ${JSON.stringify(verdict)}`);
      const returned = withoutShifts(t, list, answer).items;
      const judgement = judgeFilteredPages({ returned, filter: verdict.filter, key: itemKey });
      if (judgement.status === "failed") {
        const message = `${JSON.stringify(filters[index])} on the ${answer.pages} pages read: ${describeFilterJudgement(judgement)}`;
        return {
          ...filterFalsified(answer, judgement, message),
          cause: filterCause(list.operation.operationId, filters[index]),
        };
      }
    }
    return true;
  };
}

export default defineSuite({
  id: "filters",
  title: "X-Filter semantics: generated filters judged by an oracle, metamorphic properties, invalid filters",
  tags: ["read-only"],
  fuzz: {
    campaign: "filters",
    describe:
      "X-Filter semantics: generated filters judged by the oracle, metamorphic properties, invalid filters",
  },
  cases: [
    {
      id: "seed-data",
      title: "Lists that are (nearly) empty on the embedded reference get items to filter",
      tags: ["writes"],
      run: seedData,
    },
    {
      id: "semantics",
      title: "A generated filter answers, over all pages, what the oracle says of the unfiltered collection",
      run: (t) =>
        eachFilterable(t, (list, state, properties, named) => {
          const { min, max, default: fallback } = conventionsOf(t.spec).pageSize;
          const fields = fieldsOf(list);
          return properties.check({
            name: named(`${list.operation.operationId} answers what the oracle says`),
            arbitrary: fc.record({
              filter: filterObject({ fields, items: state.before }),
              pageSize: fc.constantFrom(max, fallback, min),
            }),
            defaultRuns: 12,
            narrow: (cause) => narrowFilterCause(t, list, state, cause),
            predicate: async ({ filter, pageSize }) => {
              const verdict = checkFilter(filter.value, fields);
              if (verdict.status !== "valid")
                throw new Error(`generated an invalid filter: ${JSON.stringify(verdict)}`);
              return judgeStably(
                t,
                list,
                state,
                () => readAll(t, list, pageSize, filter.value),
                (answer, before, after) => {
                  const judgement = judgeFilteredList({
                    before,
                    after,
                    returned: answer.items,
                    pages: answer.pages,
                    filter: verdict.filter,
                    key: itemKey,
                    fields,
                  });
                  if (judgement.status === "inconclusive") return undefined;
                  // Failed: the verdict points at the filtered request that answered wrongly, with the ids, and
                  // names the defect by the filter's operators (the same group whichever property finds it).
                  if (judgement.status === "passed") return true;
                  const cause = filterCause(list.operation.operationId, filter.value);
                  return { ...filterFalsified(answer, judgement), cause };
                },
                soundAnswers(t, list, [filter.value]),
              );
            },
          });
        }),
    },
    {
      id: "and-or",
      title: "+and of two filters answers the intersection of their answers, +or the union",
      run: (t) =>
        eachFilterable(t, (list, state, properties, named) => {
          const one = filterObject({
            fields: fieldsOf(list),
            items: state.before,
            scenarios: unorderedScenarios,
          });
          const pageSize = conventionsOf(t.spec).pageSize.max;
          return properties.check({
            name: named(`${list.operation.operationId}: +and is the intersection, +or the union`),
            arbitrary: fc.record({ a: one, b: one }),
            defaultRuns: 4,
            narrow: (cause) => narrowFilterCause(t, list, state, cause),
            predicate: ({ a, b }) => {
              const filters = [
                a.value,
                b.value,
                { "+and": [a.value, b.value] },
                { "+or": [a.value, b.value] },
              ];
              return judgeStably(
                t,
                list,
                state,
                () =>
                  readAnswers(
                    t,
                    list,
                    filters.map((filter) => ({ filter, pageSize })),
                  ),
                (answers, before, after) => {
                  const stable = stableKeys(before, after, fieldsOf(list));
                  if (stable.changed && answers.some((answer) => answer.pages > 1)) return undefined;
                  const [inA, inB, both, either] = answers.map(
                    (answer) => new Set(answer.items.map(itemKey).filter((key) => stable.keys.has(key))),
                  );
                  const intersection = [...inA!].filter((key) => inB!.has(key));
                  const union = [...new Set([...inA!, ...inB!])];
                  /** A combined answer (`+and` at 2, `+or` at 3) against the set it should be, at its own request. */
                  const against = (at: 2 | 3, got: ReadonlySet<string>, want: readonly string[]) => ({
                    ...answerFalsified(
                      at === 2
                        ? `+and answered ${got.size} item(s), the intersection holds ${want.length}`
                        : `+or answered ${got.size} item(s), the union holds ${want.length}`,
                      answers[at]!,
                      {
                        expected: want,
                        missing: want.filter((key) => !got.has(key)),
                        extra: [...got].filter((key) => !want.includes(key)),
                      },
                    ),
                    cause: filterCause(list.operation.operationId, filters[at]),
                  });
                  if (!sameSet(both!, intersection)) return against(2, both!, intersection);
                  if (!sameSet(either!, union)) return against(3, either!, union);
                  return true;
                },
                soundAnswers(t, list, filters),
              );
            },
          });
        }),
    },
    {
      id: "order-reverse",
      title: "+order desc answers the reverse of asc, up to ties",
      run: (t) =>
        eachFilterable(t, async (list, state, properties, named) => {
          const fields = fieldsOf(list);
          const orderable = fields.filter((field) => field.type !== "array").map((field) => field.name);
          if (orderable.length === 0) return;
          const pageSize = conventionsOf(t.spec).pageSize.max;
          const where = filterObject({ fields, items: state.before, scenarios: unorderedScenarios });
          await properties.check({
            name: named(`${list.operation.operationId}: desc is the reverse of asc`),
            arbitrary: fc.record({
              where: fc.option(where, { nil: undefined }),
              orderBy: fc.constantFrom(...orderable),
            }),
            defaultRuns: 4,
            predicate: ({ where, orderBy }) => {
              const filters = ["asc", "desc"].map((order) => ({
                ...where?.value,
                "+order_by": orderBy,
                "+order": order,
              }));
              return judgeStably(
                t,
                list,
                state,
                () =>
                  readAnswers(
                    t,
                    list,
                    filters.map((filter) => ({ filter, pageSize })),
                  ),
                ([asc, desc], before, after) => {
                  const stable = stableKeys(before, after, fields);
                  if (stable.changed && (asc!.pages > 1 || desc!.pages > 1)) return undefined;
                  // A nested field (`entity.type`) is read down its path.
                  const field = fields.find((each) => each.name === orderBy)!;
                  return judgeReversed(asc!, desc!, stable.keys, orderBy, (item: Item) =>
                    filterFieldValue(item, field),
                  );
                },
                soundAnswers(t, list, filters),
              );
            },
          });
        }),
    },
    {
      id: "page-size-independent",
      title: "A filter answers the same items (in the same order) at any page size",
      run: (t) =>
        eachFilterable(t, (list, state, properties, named) => {
          const { min, max, default: fallback } = conventionsOf(t.spec).pageSize;
          return properties.check({
            name: named(`${list.operation.operationId}: the answer does not depend on page_size`),
            arbitrary: fc.record({
              filter: filterObject({ fields: fieldsOf(list), items: state.before }),
              pageSize: fc.integer({ min, max: fallback }),
            }),
            defaultRuns: 3,
            predicate: ({ filter, pageSize }) =>
              judgeStably(
                t,
                list,
                state,
                () =>
                  readAnswers(t, list, [
                    { filter: filter.value, pageSize },
                    { filter: filter.value, pageSize: max },
                  ]),
                ([small, large], before, after) => {
                  const stable = stableKeys(before, after, fieldsOf(list));
                  if (stable.changed && small!.pages > 1) return undefined;
                  const smallKeys = small!.items.map(itemKey).filter((key) => stable.keys.has(key));
                  const largeKeys = large!.items.map(itemKey).filter((key) => stable.keys.has(key));
                  // What is wrong is told at the smaller page size's request, against the larger one's answer.
                  const defect = {
                    expected: largeKeys,
                    missing: largeKeys.filter((key) => !smallKeys.includes(key)),
                    extra: smallKeys.filter((key) => !largeKeys.includes(key)),
                  };
                  if (new Set(smallKeys).size !== smallKeys.length) {
                    const duplicated = smallKeys.filter((key, index) => smallKeys.indexOf(key) !== index);
                    return answerFalsified(`page_size ${pageSize} repeats an item across pages`, small!, {
                      ...defect,
                      duplicated,
                    });
                  }
                  if (!sameSet(smallKeys, largeKeys))
                    return answerFalsified(
                      `page_size ${pageSize} answered ${smallKeys.length} item(s), page_size ${max} ${largeKeys.length}`,
                      small!,
                      defect,
                    );
                  const order = (filter.value as FilterValue)["+order_by"];
                  const field = fieldsOf(list).find((each) => each.name === order);
                  if (typeof order !== "string" || !field) return true;
                  const value = (keys: string[], items: readonly Item[]) => {
                    // A nested field (`entity.type`) is read down its path.
                    const byKey = new Map(
                      items.map((item) => [itemKey(item), filterFieldValue(item, field)]),
                    );
                    return keys.map((key) => byKey.get(key));
                  };
                  const [a, b] = [value(smallKeys, small!.items), value(largeKeys, large!.items)];
                  const at = a.findIndex((entry, index) => compareValues(entry, b[index]) !== 0);
                  if (at < 0) return true;
                  return answerFalsified(
                    `ordered by ${order}, position ${at} differs between page_size ${pageSize} and ${max}`,
                    small!,
                    { ...defect, misplaced: smallKeys[at]! },
                  );
                },
                soundAnswers(t, list, [filter.value, filter.value]),
              ),
          });
        }),
    },
    {
      id: "invalid-filters",
      title: "Invalid filters get 400 with an error; an unfilterable field gets `Cannot filter on <field>`",
      run: async (t) => {
        await eachFilterable(t, (list, { before }, properties) => {
          const fields = fieldsOf(list);
          const unfilterable = [...new Set(before.flatMap((item) => Object.keys(item)))].filter(
            (name) => !fields.some((field) => field.name === name),
          );
          return properties.check({
            name: `${list.operation.operationId} refuses invalid filters`,
            arbitrary: invalidFilterObject({ fields, items: before, unfilterable }),
            defaultRuns: 8,
            predicate: async (generated) => refusal(t, list, generated),
          });
        });
        // Lists with no filterable field: any field key is one that cannot be filtered.
        const { lists } = await findLists(t, (operation) => operation.filterableFields.length === 0);
        for (const list of lists) {
          const first = await readPage(t, list, { page: "1", page_size: conventionsOf(t.spec).pageSize.min });
          const name = Object.keys(first.body?.data[0] ?? {})[0] ?? "id";
          const breaks = `${filterHeader(t)}: ${name} is not a filterable field`;
          const { response } = await readPage(t, list, { page: "1" }, { [name]: "x" }, breaks);
          const reason = apiFacts.cannotFilterOn(name);
          t.expect(
            `${list.operation.operationId} refuses a filter on ${name} with ${reason}`,
            response.status === 400 && refusesFilterOn(t, response, name),
            {
              expected: { status: 400, errors: [{ reason, field: filterHeader(t) }] },
              actual: { status: response.status, errors: errorsOf(t, response) },
              response,
            },
          );
        }
      },
    },
  ],
});
