/**
 * What the filters suite says of a target's answers to a filter: a failed oracle judgement in one line and as a
 * property's verdict pointing at the filtered request that answered wrongly, and whether a refusal is the
 * described one for a field that cannot be filtered (`Cannot filter on <field>` on the filter header).
 * @module
 */
import { compareValues, type FilterJudgement } from "../oracles/filter-oracle.ts";
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { apiFacts } from "../spec/conventions.ts";
import { fewKeys, filterHeader, type Item, itemKey, type ListAnswer, pageHolding } from "./lists.ts";
import type { Falsified, Verdict } from "./property.ts";
import { errorsOf } from "./responses.ts";
import type { RootCause } from "./root-cause.ts";

/** What is wrong with a filtered answer, by item key. */
export interface AnswerDefect {
  /** The keys the answer should hold, when known (the whole list was read). */
  readonly expected?: readonly string[];
  readonly missing: readonly string[];
  /** Keys returned that should not be. */
  readonly extra: readonly string[];
  readonly duplicated?: readonly string[];
  /** The key of the first item out of place, when the order is what is wrong. */
  readonly misplaced?: string;
  /** What was expected, in words, when the keys are not known (default: a filter's, on the pages read). */
  readonly expectation?: string;
}

/**
 * A property's verdict on a filtered answer: `message`, the answer's page that shows the defect (the one holding
 * the first item returned wrongly, twice or out of place, else its first page), and the ids expected against
 * those returned, missing and extra. The failure's curl line is then that filtered request.
 */
export function answerFalsified(message: string, answer: ListAnswer, defect: AnswerDefect): Falsified {
  const wrong = [...defect.extra, ...(defect.misplaced ? [defect.misplaced] : [])];
  // An item returned wrongly or out of place: its page; else an item shown twice: the page it shows again on.
  const page =
    wrong.length === 0 && (defect.duplicated ?? []).length > 0
      ? pageHolding(answer, defect.duplicated ?? [], true)
      : pageHolding(answer, wrong);
  return {
    message,
    ...(page ? { response: page.response } : {}),
    expected:
      defect.expected === undefined
        ? (defect.expectation ??
          "only matching items, none twice, in order (on the pages read; completeness not judged)")
        : { ids: defect.expected },
    // What is wrong first, the whole answer last: a long list of ids is what a report cuts short.
    actual: {
      missing: defect.missing,
      extra: defect.extra,
      ...(defect.duplicated && defect.duplicated.length > 0 ? { duplicated: defect.duplicated } : {}),
      ...(defect.misplaced === undefined ? {} : { misplaced: defect.misplaced }),
      ids: answer.items.map(itemKey),
    },
  };
}

/** A failed oracle judgement of `answer` as a property's verdict (see {@link answerFalsified}). */
export function filterFalsified(
  answer: ListAnswer,
  judgement: Extract<FilterJudgement, { status: "failed" }>,
  message = describeFilterJudgement(judgement),
): Falsified {
  return answerFalsified(message, answer, {
    ...(judgement.expected ? { expected: judgement.expected } : {}),
    missing: judgement.missing,
    extra: judgement.unexpected,
    duplicated: judgement.duplicated,
    ...(judgement.misordered ? { misplaced: judgement.misordered.key } : {}),
  });
}

/**
 * Whether `desc` answers the reverse of `asc` up to ties, over the items they may be judged on (`judged`: those two
 * snapshots agree on): the same items, each as many times, and in reverse order of `value` (the `+order_by` field's).
 * A failure points at the desc request (at the page holding the item out of place).
 */
export function judgeReversed(
  asc: ListAnswer,
  desc: ListAnswer,
  judged: ReadonlySet<string>,
  orderBy: string,
  value: (item: Item) => unknown,
): Verdict {
  const ascending = asc.items.filter((item) => judged.has(itemKey(item)));
  const descending = desc.items.filter((item) => judged.has(itemKey(item)));
  const ascKeys = ascending.map(itemKey);
  const descKeys = descending.map(itemKey);
  const ascSet = new Set(ascKeys);
  const descSet = new Set(descKeys);
  if (ascSet.size !== descSet.size || [...ascSet].some((key) => !descSet.has(key))) {
    return answerFalsified(
      `asc answered ${ascending.length} item(s), desc ${descending.length}: not the same set`,
      desc,
      {
        expected: ascKeys,
        missing: ascKeys.filter((key) => !descSet.has(key)),
        extra: descKeys.filter((key) => !ascSet.has(key)),
      },
    );
  }
  if (ascKeys.length !== descKeys.length) {
    // The same set, one answer holding an item twice: positions cannot be compared (a list that grew under a
    // walk repeats an item; judgeStably then judges against a fresh snapshot, which says so).
    const twice = [ascKeys, descKeys].flatMap((keys) =>
      keys.filter((key, index) => keys.indexOf(key) !== index),
    );
    return answerFalsified(
      `asc answered ${ascending.length} item(s), desc ${descending.length}: an item twice`,
      ascKeys.length > descKeys.length ? asc : desc,
      {
        missing: [],
        extra: [],
        duplicated: [...new Set(twice)],
        expectation: "each item once in both answers",
      },
    );
  }
  const reversed = [...descending].reverse();
  const at = ascending.findIndex((item, index) => compareValues(value(item), value(reversed[index]!)) !== 0);
  if (at < 0) return true;
  return answerFalsified(
    `position ${at} of asc holds ${orderBy}=${JSON.stringify(value(ascending[at]!))}, reversed desc ${JSON.stringify(value(reversed[at]!))}`,
    desc,
    { expected: [...ascKeys].reverse(), missing: [], extra: [], misplaced: itemKey(reversed[at]!) },
  );
}

/** The operators a filter uses, at any depth (`+or`, `+neq`, `+order_by` ...): the ingredients of its root cause. */
function operatorsOf(filter: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(filter)) for (const item of filter) operatorsOf(item, into);
  else if (typeof filter === "object" && filter !== null)
    for (const [key, value] of Object.entries(filter)) {
      if (key.startsWith("+")) into.add(key);
      operatorsOf(value, into);
    }
  return into;
}

/**
 * The root cause of a wrong answer to `filter` on `operationId`: the answer to X-Filter with these operators is
 * wrong, whichever property asked (the oracle's judgement, `+and`/`+or` against their parts, ...).
 */
export function filterCause(operationId: string, filter: unknown): RootCause {
  return { rule: "X-Filter answers wrongly", operationId, parts: [...operatorsOf(filter)], subject: filter };
}

/** A failed filter judgement in one line: what was left out, returned wrongly or twice, or out of order. */
export function describeFilterJudgement(judgement: Extract<FilterJudgement, { status: "failed" }>): string {
  const parts: string[] = [];
  if (judgement.missing.length > 0)
    parts.push(`left out ${judgement.missing.length} matching item(s): ${fewKeys(judgement.missing)}`);
  if (judgement.unexpected.length > 0) {
    const count = judgement.unexpected.length;
    parts.push(`returned ${count} item(s) that do not match: ${fewKeys(judgement.unexpected)}`);
  }
  if (judgement.duplicated.length > 0) parts.push(`returned item(s) twice: ${fewKeys(judgement.duplicated)}`);
  if (judgement.misordered) {
    const { index, expected, actual, key } = judgement.misordered;
    const values = `expected a value ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
    parts.push(`out of order at position ${index}: ${values} (item ${key})`);
  }
  return parts.join("; ");
}

/** Whether an error of `response` is the described refusal of a filter on `field`: `Cannot filter on <field>`. */
export function refusesFilterOn(t: CaseContext, response: LiveResponse, field: string): boolean {
  const reason = apiFacts.cannotFilterOn(field);
  return errorsOf(t, response).some((error) => error.reason === reason && error.field === filterHeader(t));
}
