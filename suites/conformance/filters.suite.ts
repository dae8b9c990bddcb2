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
  checkFilter,
  conventionsOf,
  defineSuite,
  filterCause,
  filterFalsified,
  filterFieldValue,
  filterObject,
  type Item,
  invalidFilterObject,
  itemKey,
  judgeFilteredList,
  judgeFilterRelation,
  judgeReversed,
  judgeStably,
  readAll,
  soundFilterAnswers,
} from "../../src/index.ts";
import { narrowFilterCause } from "./support/filter-causes.ts";
import {
  eachFilterable,
  expectUnfilterableListsRefuse,
  fieldNamed,
  fieldsOf,
  refusal,
  unorderedScenarios,
} from "./support/filter-lists.ts";
import {
  andIsIntersectionOrIsUnion,
  combinedReads,
  samePageSizeAnswers,
} from "./support/filter-relations.ts";
import { seedData } from "./support/filter-seeds.ts";

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
                soundFilterAnswers(t, list, [filter.value]),
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
              const reads = combinedReads(a.value, b.value, pageSize);
              return judgeFilterRelation(t, list, state, reads, andIsIntersectionOrIsUnion(list, reads));
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
          const orderable = fields.filter((field) => field.type !== "array");
          if (orderable.length === 0) return;
          const pageSize = conventionsOf(t.spec).pageSize.max;
          const where = filterObject({ fields, items: state.before, scenarios: unorderedScenarios });
          await properties.check({
            name: named(`${list.operation.operationId}: desc is the reverse of asc`),
            arbitrary: fc.record({
              where: fc.option(where, { nil: undefined }),
              orderBy: fc.constantFrom(...orderable.map((field) => field.name)),
            }),
            defaultRuns: 4,
            predicate: ({ where, orderBy }) => {
              const ordered = (order: string) => ({ ...where?.value, "+order_by": orderBy, "+order": order });
              const field = fieldNamed(orderable, orderBy);
              return judgeFilterRelation(
                t,
                list,
                state,
                [
                  { filter: ordered("asc"), pageSize },
                  { filter: ordered("desc"), pageSize },
                ],
                // A nested field (`entity.type`) is read down its path.
                ([asc, desc], judged) =>
                  judgeReversed(asc, desc, judged, orderBy, (item: Item) => filterFieldValue(item, field)),
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
              judgeFilterRelation(
                t,
                list,
                state,
                [
                  { filter: filter.value, pageSize },
                  { filter: filter.value, pageSize: max },
                ],
                samePageSizeAnswers(list, filter.value, pageSize, max),
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
        await expectUnfilterableListsRefuse(t);
      },
    },
  ],
});
