/**
 * Metamorphic relations between filtered answers of one list (`+and` is the intersection of its parts' answers,
 * `desc` the reverse of `asc`, the items do not depend on the page size): the reads in one declaration, their
 * answers handed to the relation as a tuple, judged only on the items both snapshots of the collection agree on
 * (see {@link judgeStably}), and answers read only in part judged for soundness alone.
 * @module
 */
import { checkFilter, judgeFilteredPages } from "../oracles/filter-oracle.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { describeFilterJudgement, filterCause, filterFalsified } from "./filter-answers.ts";
import { itemKey, type ListAnswer, type ListTarget, readAnswers, withoutShifts } from "./lists.ts";
import type { Verdict } from "./property.ts";
import { judgeStably, type Snapshots, stableKeys } from "./snapshots.ts";

/** One filtered read of a relation: the filter, at a page size. */
export interface FilterRead {
  readonly filter: unknown;
  readonly pageSize: number;
}

/** The answers to a relation's reads, one per read and in their order. */
export type RelationAnswers<Reads extends readonly FilterRead[]> = {
  readonly [K in keyof Reads]: ListAnswer;
};

/**
 * A relation's verdict on its answers, judged on `judged`: the keys of the items both snapshots of the collection
 * agree on (an item that came, went or changed meanwhile says nothing of the filter).
 */
export type FilterRelation<Reads extends readonly FilterRead[]> = (
  answers: RelationAnswers<Reads>,
  judged: ReadonlySet<string>,
) => Verdict;

/**
 * Reads `reads` in turn and judges their answers by `relation`, against a fresh snapshot when the first judgement
 * fails ({@link judgeStably}). When the collection changed between the snapshots and an answer spans several
 * pages, nothing is judged (an item may have moved between pages) and the reads are tried again. Answers read only
 * in part are judged by {@link soundFilterAnswers} instead: the relation needs them whole.
 */
export function judgeFilterRelation<const Reads extends readonly FilterRead[]>(
  t: CaseContext,
  list: ListTarget,
  state: Snapshots,
  reads: Reads,
  relation: FilterRelation<Reads>,
): Promise<Verdict> {
  const fields = list.operation.filterableFields;
  return judgeStably(
    t,
    list,
    state,
    () => readAnswers(t, list, reads),
    (answers, before, after) => {
      const stable = stableKeys(before, after, fields);
      if (stable.changed && answers.some((answer) => answer.pages > 1)) return undefined;
      // readAnswers answers one per read, in order: the tuple the relation is declared over.
      return relation(answers as RelationAnswers<Reads>, stable.keys);
    },
    soundFilterAnswers(
      t,
      list,
      reads.map((read) => read.filter),
    ),
  );
}

/** The keys of `answer`'s items a relation judges (those in `judged`), in the answer's order. */
export function judgedKeys(answer: ListAnswer, judged: ReadonlySet<string>): string[] {
  return answer.items.map(itemKey).filter((key) => judged.has(key));
}

/**
 * The judge of answers read only in part (see {@link judgeStably}): every item returned matches its filter
 * (`filters`, one per answer), none shows twice, and with `+order_by` they come in order. An item pushed on to
 * the next page by items added while the pages were read is the list changing under the walk, not a repeat
 * (`withoutShifts` logs it).
 */
export function soundFilterAnswers(
  t: CaseContext,
  list: ListTarget,
  filters: readonly unknown[],
): (answers: ListAnswer | readonly ListAnswer[]) => Verdict {
  const fields = list.operation.filterableFields;
  return (said) => {
    const answers: readonly ListAnswer[] = Array.isArray(said) ? said : [said as ListAnswer];
    for (const [index, answer] of answers.entries()) {
      const verdict = checkFilter(filters[index], fields);
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
