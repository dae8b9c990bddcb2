/**
 * Judging a list while other clients may write to it: a collection's unfiltered snapshot, one stable-snapshot
 * judge (read an answer, re-read the collection, judge against both snapshots, try again when the collection
 * changed meanwhile), the items two snapshots agree on, and running a judgement on each readable list.
 *
 * A list or an answer with more pages than one walk reads is not judged: logged, never a failure.
 * @module
 */
import type { CaseContext } from "../runner/suite-api.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { type Item, itemKey, type ListTarget, tooLarge, walk } from "./lists.ts";
import type { Verdict } from "./property.ts";

/** The whole unfiltered collection in the list's own order (pages of the largest size), or what went wrong. */
export async function snapshot(t: CaseContext, list: ListTarget): Promise<readonly Item[] | string> {
  const read = await walk(t, list, { pageSize: conventionsOf(t.spec).pageSize.max });
  if (read.status === "refused") return `answered ${read.response.status} to an unfiltered read`;
  if (!read.complete) return tooLarge;
  return read.items;
}

/** The latest unfiltered snapshot of one list: the "before" of its next judgement. */
export interface Snapshots {
  before: readonly Item[];
}

/** Tries of a judgement whose collection changed while several pages were read. */
const attempts = 3;

/**
 * Reads an answer, then the unfiltered collection again, and judges the answer against both snapshots (the one
 * before it and the one after). A judge that says `undefined` (the collection changed meanwhile, so it cannot
 * tell) gets another try; after {@link attempts} the check passes with a log line, as it does on a list too large
 * to read. `state.before` becomes the latest snapshot.
 */
export async function judgeStably<T>(
  t: CaseContext,
  list: ListTarget,
  state: Snapshots,
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

/**
 * Items a comparison of two snapshots may judge: the keys of items in both with the same values of `fields`;
 * `changed` when any item came, went or changed those values in between.
 */
export function stableKeys(
  before: readonly Item[],
  after: readonly Item[],
  fields: readonly { readonly name: string }[],
): { readonly keys: ReadonlySet<string>; readonly changed: boolean } {
  const project = (item: Item) => JSON.stringify(fields.map((field) => item[field.name] ?? null));
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
 * Runs `run` on each list with its unfiltered snapshot. A list that cannot be read fails the assertion
 * `<operationId> <canBeRead>`; one too large to read is logged and left out.
 */
export async function eachList(
  t: CaseContext,
  lists: readonly ListTarget[],
  canBeRead: string,
  run: (list: ListTarget, before: readonly Item[]) => Promise<unknown>,
): Promise<void> {
  for (const list of lists) {
    const before = await snapshot(t, list);
    if (before === tooLarge) {
      t.log(`${list.path}: ${tooLarge}; not judged`);
      continue;
    }
    const name = `${list.operation.operationId} ${canBeRead}`;
    if (typeof before === "string") t.expect(name, false, { actual: before });
    else if (t.expect(name, true)) await run(list, before);
  }
}
