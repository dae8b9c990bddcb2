/**
 * Which lists the filters suite judges (paginated, with filterable fields), running a property on each with its
 * unfiltered snapshot, and what an invalid filter must get.
 * @module
 */
import {
  apiFacts,
  breaksOf,
  type CaseContext,
  conventionsOf,
  eachList,
  errorsOf,
  type FilterableField,
  type FilterScenario,
  filterHeader,
  filterScenarios,
  findLists,
  type Generated,
  isErrorBody,
  type ListSelection,
  type ListTarget,
  mutationsOf,
  PropertyRunner,
  readableLists,
  readPage,
  refusesFilterOn,
  type Snapshots,
  type Verdict,
} from "../../../src/index.ts";

export const filterable: ListSelection = {
  key: "filters:lists",
  keep: (operation) => operation.filterableFields.length > 0,
  none: "the description has no paginated list with filterable fields that can be read here",
};
export const fieldsOf = (list: ListTarget) => list.operation.filterableFields;
/** Every scenario but `order`: these filters get their ordering from the property itself. */
export const unorderedScenarios: readonly FilterScenario[] = filterScenarios.filter(
  (scenario) => scenario !== "order",
);

/** An invalid filter must get 400 with an error (reason a string); an unfilterable field the described one. */
export async function refusal(
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

/**
 * Runs a property per filterable list, each with its unfiltered collection and its snapshots, and the property's
 * name: the whole-list one, or on a list read only in part what is judged there.
 */
export async function eachFilterable(
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

/** The field of `fields` named `name` (a generated `+order_by` picks one of them by name). */
export function fieldNamed(fields: readonly FilterableField[], name: string): FilterableField {
  const field = fields.find((each) => each.name === name);
  if (!field) throw new Error(`generated an order on ${name}, which is none of the list's fields`);
  return field;
}

/** Lists with no filterable field refuse a filter on any field key, with `Cannot filter on <field>`. */
export async function expectUnfilterableListsRefuse(t: CaseContext): Promise<void> {
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
}
