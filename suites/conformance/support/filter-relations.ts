/**
 * The filters suite's metamorphic relations, each over the answers `judgeFilterRelation` hands it (judged on the
 * items both snapshots agree on): `+and` answers the intersection of its parts' answers and `+or` their union;
 * a filter answers the same items, in the same order, at a small page size as at the largest.
 * @module
 */
import {
  answerFalsified,
  compareValues,
  type FilterRead,
  type FilterRelation,
  type FilterValue,
  filterCause,
  filterFieldValue,
  type Item,
  itemKey,
  judgedKeys,
  type ListAnswer,
  type ListTarget,
  sameSet,
  type Verdict,
} from "../../../src/index.ts";
import { fieldsOf } from "./filter-lists.ts";

/** The reads of {@link andIsIntersectionOrIsUnion}: `a`, `b`, `{+and: [a, b]}`, `{+or: [a, b]}`. */
type CombinedReads = readonly [
  { readonly filter: unknown; readonly pageSize: number },
  { readonly filter: unknown; readonly pageSize: number },
  { readonly filter: { "+and": unknown[] }; readonly pageSize: number },
  { readonly filter: { "+or": unknown[] }; readonly pageSize: number },
];

/** The four reads of the `+and`/`+or` relation over filters `a` and `b`, each at `pageSize`. */
export function combinedReads(a: unknown, b: unknown, pageSize: number): CombinedReads {
  return [
    { filter: a, pageSize },
    { filter: b, pageSize },
    { filter: { "+and": [a, b] }, pageSize },
    { filter: { "+or": [a, b] }, pageSize },
  ];
}

/**
 * `+and` of two filters answers the intersection of their answers, `+or` the union (`reads`: the four reads of
 * {@link combinedReads}); a combined answer that is not is told at its own request, against the set it should be,
 * its cause named by its filter's operators.
 */
export function andIsIntersectionOrIsUnion(
  list: ListTarget,
  reads: CombinedReads,
): FilterRelation<CombinedReads> {
  return ([answerA, answerB, answerBoth, answerEither], judged) => {
    const keysOf = (answer: ListAnswer) => new Set(judgedKeys(answer, judged));
    const inA = keysOf(answerA);
    const inB = keysOf(answerB);
    /** A combined answer against the set it should be (`what`: intersection or union), or undefined when it is. */
    const against = (answer: ListAnswer, filter: unknown, want: readonly string[], what: string) => {
      const got = keysOf(answer);
      if (sameSet(got, want)) return undefined;
      const operator = what === "intersection" ? "+and" : "+or";
      return {
        ...answerFalsified(
          `${operator} answered ${got.size} item(s), the ${what} holds ${want.length}`,
          answer,
          {
            expected: want,
            missing: want.filter((key) => !got.has(key)),
            extra: [...got].filter((key) => !want.includes(key)),
          },
        ),
        cause: filterCause(list.operation.operationId, filter),
      };
    };
    const intersection = [...inA].filter((key) => inB.has(key));
    const union = [...new Set([...inA, ...inB])];
    return (
      against(answerBoth, reads[2].filter, intersection, "intersection") ??
      against(answerEither, reads[3].filter, union, "union") ??
      true
    );
  };
}

/**
 * A filter (`filter`, read at `pageSize` and at `max`) answers the same items at both page sizes, none twice, and
 * with `+order_by` in the same order; what is wrong is told at the smaller page size's request.
 */
export function samePageSizeAnswers(
  list: ListTarget,
  filter: unknown,
  pageSize: number,
  max: number,
): FilterRelation<readonly [FilterRead, FilterRead]> {
  return ([small, large], judged): Verdict => {
    const smallKeys = judgedKeys(small, judged);
    const largeKeys = judgedKeys(large, judged);
    const defect = {
      expected: largeKeys,
      missing: largeKeys.filter((key) => !smallKeys.includes(key)),
      extra: smallKeys.filter((key) => !largeKeys.includes(key)),
    };
    if (new Set(smallKeys).size !== smallKeys.length) {
      const duplicated = smallKeys.filter((key, index) => smallKeys.indexOf(key) !== index);
      return answerFalsified(`page_size ${pageSize} repeats an item across pages`, small, {
        ...defect,
        duplicated,
      });
    }
    if (!sameSet(smallKeys, largeKeys))
      return answerFalsified(
        `page_size ${pageSize} answered ${smallKeys.length} item(s), page_size ${max} ${largeKeys.length}`,
        small,
        defect,
      );
    const order = (filter as FilterValue)["+order_by"];
    const field = fieldsOf(list).find((each) => each.name === order);
    if (typeof order !== "string" || !field) return true;
    const value = (keys: string[], items: readonly Item[]) => {
      // A nested field (`entity.type`) is read down its path.
      const byKey = new Map(items.map((item) => [itemKey(item), filterFieldValue(item, field)]));
      return keys.map((key) => byKey.get(key));
    };
    const [a, b] = [value(smallKeys, small.items), value(largeKeys, large.items)];
    const at = a.findIndex((entry, index) => compareValues(entry, b[index]) !== 0);
    const misplaced = smallKeys[at];
    if (at < 0 || misplaced === undefined) return true;
    return answerFalsified(
      `ordered by ${order}, position ${at} differs between page_size ${pageSize} and ${max}`,
      small,
      { ...defect, misplaced },
    );
  };
}
