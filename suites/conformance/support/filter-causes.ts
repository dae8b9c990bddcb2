/**
 * Naming a wrong filtered answer's defect: its filter narrowed to the smallest part the target still answers
 * wrongly on its own, named by that part's own operator.
 * @module
 */
import {
  type CaseContext,
  causeName,
  checkFilter,
  conventionsOf,
  itemKey,
  judgeFilteredList,
  type ListTarget,
  type RootCause,
  readAll,
  type Snapshots,
} from "../../../src/index.ts";
import { fieldsOf } from "./filter-lists.ts";

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
export async function narrowFilterCause(
  t: CaseContext,
  list: ListTarget,
  state: Snapshots,
  cause: RootCause,
) {
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
