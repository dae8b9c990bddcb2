/**
 * Judging a list while other clients may write to it: a collection's unfiltered snapshot, one stable-snapshot
 * judge (read an answer, re-read the collection, judge against both snapshots, try again when the collection
 * changed meanwhile), the items two snapshots agree on, and running a judgement on each readable list.
 *
 * A list or an answer with more pages than one walk reads is judged on the pages read (their envelopes, and what a
 * caller's partial judge says of them); nothing says it passed what it did not judge: a judgement that needs the
 * whole list and has no partial judge skips the case, saying why.
 * @module
 */
import fc from "fast-check";
import { filterFieldValue } from "../oracles/filter-oracle.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { conventionsOf } from "../spec/conventions.ts";
import {
  allComplete,
  answerOf,
  type Item,
  isNoAnswer,
  itemKey,
  type ListAnswer,
  type ListTarget,
  maxWalkPages,
  type NoAnswer,
  notWhole,
  walk,
} from "./lists.ts";
import type { Verdict } from "./property.ts";

/**
 * The unfiltered collection in the list's own order (pages of the largest size), or what went wrong. A list with
 * more pages than one walk reads gives its first pages (`complete` false), each page's envelope judged: a broken
 * one is what went wrong (a whole list's envelopes are the pagination suite's to judge, page by page).
 */
export async function snapshot(t: CaseContext, list: ListTarget): Promise<ListAnswer | NoAnswer> {
  const pageSize = conventionsOf(t.spec).pageSize.max;
  const read = await walk(t, list, { pageSize });
  if (read.status === "refused")
    return { message: `answered ${read.response.status} to an unfiltered read`, response: read.response };
  return answerOf(t, read, pageSize, !read.complete);
}

/** The latest unfiltered snapshot of one list: the "before" of its next judgement. */
export interface Snapshots {
  before: readonly Item[];
  /** False when the latest snapshot holds only the first pages of the list (undefined: whole). */
  complete?: boolean;
}

/** Tries of a judgement whose collection changed while several pages were read. */
const attempts = 3;

/** Lines already logged per case, so a property judged many times says each thing once. */
const logged = new WeakMap<CaseContext, Set<string>>();
function logOnce(t: CaseContext, line: string): void {
  const lines = logged.get(t) ?? new Set<string>();
  logged.set(t, lines);
  if (lines.has(line)) return;
  lines.add(line);
  t.log(line);
}

/**
 * Reads an answer and judges it against the latest snapshot as if the collection had not changed since: a pass
 * needs no other read. Otherwise it reads the unfiltered collection again and judges the answer against both
 * snapshots (the one before it and the one after). A judge that says `undefined` (the collection changed
 * meanwhile, so it cannot tell) gets another try; after {@link attempts} the check passes with a log line.
 * `state.before` becomes the latest snapshot. A judge must be monotone: a pass against `(before, before)` must
 * stay a pass, or become `undefined`, against any `(before, after)`.
 *
 * When the answer or the collection has more pages than one walk reads, `partial` judges the pages read (logged
 * once per list: completeness not judged); without one the case is skipped, saying the judgement needs the whole
 * list. Nothing answers `true` for a list it did not read.
 */
export async function judgeStably<T extends ListAnswer | readonly ListAnswer[]>(
  t: CaseContext,
  list: ListTarget,
  state: Snapshots,
  read: () => Promise<T | NoAnswer>,
  judge: (answer: T, before: readonly Item[], after: readonly Item[]) => Verdict | undefined,
  partial?: (answer: T) => Verdict,
): Promise<Verdict> {
  const judgePartly = (answer: T): Verdict => {
    const what = `more pages than one walk reads (${maxWalkPages})`;
    if (!partial) return t.skip(`${list.path}: ${what}, and this judgement needs the whole list`);
    const answers: readonly ListAnswer[] = Array.isArray(answer) ? answer : [answer as ListAnswer];
    const cut = answers.find((entry) => !entry.complete);
    logOnce(
      t,
      cut
        ? `${list.path}: an answer of ${cut.listPages} pages, ${what}: judged on the ${cut.pages} pages read; completeness not judged`
        : `${list.path}: the unfiltered list has ${what}: answers judged on their own; completeness not judged`,
    );
    return partial(answer);
  };
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const before = state.before;
    const answer = await read();
    if (isNoAnswer(answer)) return answer;
    if (state.complete === false || !allComplete(answer)) return judgePartly(answer);
    // An answer that agrees with the snapshot before it, judged as if nothing changed since, passes without
    // reading the collection again: the judges are monotone (what changes in between only loosens them: they
    // judge the items both snapshots agree on, or cannot tell), so a fresh snapshot could not turn this pass
    // into a failure. Anything else is judged against a fresh snapshot, as below.
    if (judge(answer, before, before) === true) return true;
    const after = await snapshot(t, list);
    if (isNoAnswer(after)) return after;
    state.before = after.items;
    state.complete = after.complete;
    if (!after.complete) return judgePartly(answer);
    const verdict = judge(answer, before, after.items);
    if (verdict !== undefined) return verdict;
  }
  // Not judged: the value is skipped (never counted as a pass); the property goes on with the next one.
  t.log(`${list.path}: the collection kept changing during the check; this value is not judged`);
  fc.pre(false);
  return "unreachable: fc.pre(false) throws";
}

/**
 * Items a comparison of two snapshots may judge: the keys of items in both with the same values of `fields`;
 * `changed` when any item came, went or changed those values in between.
 */
export function stableKeys(
  before: readonly Item[],
  after: readonly Item[],
  fields: readonly { readonly name: string; readonly path?: readonly string[] }[],
): { readonly keys: ReadonlySet<string>; readonly changed: boolean } {
  // A nested field (`entity.id`) is read down its path.
  const project = (item: Item) => JSON.stringify(fields.map((field) => filterFieldValue(item, field)));
  const later = new Map(after.map((item) => [itemKey(item), project(item)]));
  const keys = new Set(before.filter((item) => later.get(itemKey(item)) === project(item)).map(itemKey));
  return { keys, changed: keys.size < new Set([...before, ...after].map(itemKey)).size };
}

/** Two collections of keys hold the same keys (duplicates aside). */
export function sameSet(a: Iterable<string>, b: Iterable<string>): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((key) => right.has(key));
}

/**
 * Runs `run` on each list with its unfiltered snapshot. A list that cannot be read (or whose pages read break the
 * envelope) fails the assertion `<operationId> <canBeRead>`; one with more pages than one walk reads runs on its
 * first pages (`snapshot.complete` false), with a log line saying completeness is not judged.
 */
export async function eachList(
  t: CaseContext,
  lists: readonly ListTarget[],
  canBeRead: string,
  run: (list: ListTarget, before: readonly Item[], snapshot: ListAnswer) => Promise<unknown>,
): Promise<void> {
  for (const list of lists) {
    const before = await snapshot(t, list);
    const name = `${list.operation.operationId} ${canBeRead}`;
    if (isNoAnswer(before)) {
      t.expect(name, false, { actual: before.message, response: before.response });
      continue;
    }
    if (!before.complete) t.log(notWhole(list, before, conventionsOf(t.spec).pageSize.max));
    // A property over a list compares items (a filter selecting some, pages splitting them): fewer than two
    // judge little, and the run says so in its warnings even when it passes.
    if (before.items.length < 2)
      t.thinEvidence(
        `${list.path} holds ${before.items.length} item(s): its properties compare too few to judge much`,
      );
    if (t.expect(name, true)) await run(list, before.items, before);
  }
}
