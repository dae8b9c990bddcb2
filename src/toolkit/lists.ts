/**
 * The paginated lists of a target as the list suites read them: which lists the description has (a nested one
 * under a parent of the first page the target lists, one holding items to compare when there is one), one page read with `page` kept exact (a JSON integer may exceed
 * 2^53), walks over every page with each page's envelope judged. Page sizes and the filter header are the loaded
 * description's. Only HTTP: nothing here knows the reference server. Snapshots and the stable-snapshot judge are
 * in `snapshots.ts`.
 *
 * A list or an answer with more pages than one walk reads ({@link maxWalkPages}) is read as far as a walk goes: the
 * pages read are judged (their envelopes), and the answer says it is not whole, so no caller judges completeness.
 * Its repeats are told apart ({@link withoutShifts}): the list growing under the walk is no repeat of the target's.
 * @module
 */
import { judgeRepeats, type PageQuery, pageViolations } from "../oracles/pagination-oracle.ts";
import type { LiveResponse } from "../runner/contracts.ts";
import { type CaseContext, sharedKey } from "../runner/suite-api.ts";
import { conventionsOf } from "../spec/conventions.ts";
import type { OperationInfo } from "../spec/types.ts";
import { apiOperations } from "./operations.ts";
import type { Falsified } from "./property.ts";

export type Item = Readonly<Record<string, unknown>>;

export interface ListTarget {
  readonly operation: OperationInfo;
  /** The concrete path (`/nodebalancers/12/configs`). */
  readonly path: string;
  /** Public lists are read without a token, as a client of the catalogue would. */
  readonly token: null | undefined;
}

export interface ListsFound {
  readonly lists: readonly ListTarget[];
  /** Lists left out, each with the reason (a parent with no items, a refused read). */
  readonly skipped: readonly { readonly operationId: string; readonly reason: string }[];
}

/** The envelope of a page, `page` exact. */
export interface PageBody {
  readonly data: readonly Item[];
  readonly page: number | bigint;
  readonly pages: number;
  readonly results: number;
}

export interface PageRead {
  readonly response: LiveResponse;
  /** The envelope, when the answer is 200 with a well-formed one. */
  readonly body: PageBody | undefined;
}

/** The identity of a list item: `id`, or `address` for addresses; otherwise the whole item. */
export function itemKey(item: Item): string {
  if (item.id !== undefined && item.id !== null) return String(item.id);
  if (typeof item.address === "string") return item.address;
  return JSON.stringify(item);
}

/** JSON with integers beyond 2^53 read exactly as bigints (JSON.parse source text access). */
export function parseExact(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === "number" &&
    !Number.isSafeInteger(value) &&
    context?.source !== undefined &&
    /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value,
  );
}

function asPage(response: LiveResponse): PageBody | undefined {
  if (response.status !== 200) return undefined;
  let body: unknown;
  try {
    body = parseExact(response.text);
  } catch {
    return undefined;
  }
  const page = body as Partial<PageBody> | undefined;
  if (!page || !Array.isArray(page.data)) return undefined;
  return page as PageBody;
}

/** The request header of a list's filter: the description's, else the described `X-Filter`. */
export function filterHeader(t: CaseContext): string {
  return conventionsOf(t.spec).filterHeader;
}

/**
 * Reads one page; `query` values are sent as given (text, so edges like `1.5` and 2^64 go out verbatim), a filter
 * in the filter header (named lower-case, as the client names every header it sets). A deliberately invalid read
 * says what it breaks (`breaks`, as a request's option; see `breaksOf` for generated ones).
 */
export async function readPage(
  t: CaseContext,
  list: ListTarget,
  query: Readonly<Record<string, string | number>>,
  filter?: unknown,
  breaks?: string,
): Promise<PageRead> {
  const header = filterHeader(t).toLowerCase();
  const text = typeof filter === "string" ? filter : JSON.stringify(filter);
  const response = await t.api.get(list.path, {
    query,
    token: list.token,
    ...(filter !== undefined ? { headers: { [header]: text } } : {}),
    ...(breaks !== undefined ? { breaks } : {}),
  });
  return { response, body: asPage(response) };
}

export type Walk =
  | {
      readonly status: "read";
      readonly items: readonly Item[];
      /** Pages read. */
      readonly pages: number;
      /** False when the list has more pages than one walk reads ({@link maxWalkPages}). */
      readonly complete: boolean;
      /** Each page's answer and the query it answered (for the page invariants). */
      readonly answers: readonly {
        readonly query: Readonly<Record<string, string>>;
        readonly read: PageRead;
      }[];
    }
  | { readonly status: "refused"; readonly response: LiveResponse; readonly page: number };

/** Most pages one walk reads (a list of 500 items at page size 25 is 20 pages). */
export const maxWalkPages = 40;

/** Reads every page of a list at one page size (at most {@link maxWalkPages}), with an optional filter. */
export async function walk(
  t: CaseContext,
  list: ListTarget,
  options: { readonly pageSize?: number; readonly filter?: unknown } = {},
): Promise<Walk> {
  const items: Item[] = [];
  const answers: { query: Record<string, string>; read: PageRead }[] = [];
  let pages = 1;
  let page = 1;
  for (; page <= pages && page <= maxWalkPages; page += 1) {
    const query: Record<string, string> = { page: String(page) };
    if (options.pageSize !== undefined) query.page_size = String(options.pageSize);
    const read = await readPage(t, list, query, options.filter);
    if (!read.body) return { status: "refused", response: read.response, page };
    answers.push({ query, read });
    items.push(...read.body.data);
    pages = typeof read.body.pages === "number" ? read.body.pages : 1;
  }
  return { status: "read", items, pages: page - 1, answers, complete: page > pages };
}

/** What breaks the page invariants (the pagination oracle's) in one answered page, in one line; or undefined. */
export function describeViolations(t: CaseContext, query: PageQuery, body: PageBody): string | undefined {
  const answer = { page: body.page, pages: body.pages, results: body.results, dataLength: body.data.length };
  const broken = pageViolations(query, answer, conventionsOf(t.spec).pageSize);
  if (broken.length === 0) return undefined;
  return broken
    .map(
      (violation) =>
        `${violation.message} (expected ${String(violation.expected)}, got ${String(violation.actual)})`,
    )
    .join("; ");
}

/**
 * An answer read page by page at one page size, each page's envelope judged: whole (every page read), or, for a
 * list with more pages than one walk reads, its first {@link maxWalkPages} pages only.
 */
export interface ListAnswer {
  readonly items: readonly Item[];
  /** Pages read. */
  readonly pages: number;
  /** `results` of the last page read. */
  readonly results: unknown;
  /** Whether every page was read: only then may anything be said of what the answer leaves out. */
  readonly complete: boolean;
  /** `pages` of the last page read: how many pages the target says the answer has. */
  readonly listPages: number;
  /** Each page read, in order: what a failure points at (the request that answered wrongly). */
  readonly reads: readonly PageRead[];
}

/**
 * The page of an answer that holds the first of `keys` (an item returned wrongly, say), else its first page: the
 * answer that shows a defect, for a failure to point at. With `again`, the page where one of `keys` shows for the
 * second time (an item repeated: its first page is right on its own). Undefined for an answer of no page.
 */
export function pageHolding(answer: ListAnswer, keys: Iterable<string>, again = false): PageRead | undefined {
  const wanted = new Set(keys);
  const seen = new Set<string>();
  const holding = answer.reads.find((read) =>
    (read.body?.data ?? []).some((item) => {
      const key = itemKey(item);
      if (!wanted.has(key)) return false;
      if (!again || seen.has(key)) return true;
      seen.add(key);
      // Twice on one page is that page's defect.
      return read.body!.data.filter((other) => itemKey(other) === key).length > 1;
    }),
  );
  return holding ?? answer.reads[0];
}

/** Whether every answer was read whole. */
export function allComplete(answer: ListAnswer | readonly ListAnswer[]): boolean {
  return Array.isArray(answer) ? answer.every((entry) => entry.complete) : (answer as ListAnswer).complete;
}

/**
 * The items of an answer each once, and the keys it shows twice that are the target's doing (`twice`). An item
 * shown again on a later page, no more places on than the list's `results` grew between the two reads, was pushed
 * on by items added ahead of it while the pages were read (a newest-first feed while others write): the list
 * changed under the walk, as a full walk's snapshots would say, which is no failure. Such shifts are said in a
 * log line and their later showing left out; a repeat on one page, or with `results` unchanged, stays in `twice`.
 */
export function withoutShifts(
  t: CaseContext,
  list: ListTarget,
  answer: ListAnswer,
): { readonly items: readonly Item[]; readonly twice: readonly string[] } {
  const pages = answer.reads.map((read) => read.body?.data ?? []);
  const judged = judgeRepeats(
    answer.reads.map((read, index) => ({ keys: pages[index]!.map(itemKey), results: read.body?.results })),
  );
  if (judged.shifts.length === 0) return { items: answer.items, twice: judged.twice };
  const dropped = new Set(judged.shifts.map((shift) => `${shift.again.page}:${shift.again.item}`));
  const items = pages.flatMap((data, page) => data.filter((_, item) => !dropped.has(`${page}:${item}`)));
  const firstPage = Math.min(...judged.shifts.map((shift) => shift.first.page));
  const lastPage = Math.max(...judged.shifts.map((shift) => shift.again.page));
  const resultsAt = (page: number) => String(answer.reads[page]?.body?.results);
  t.log(
    `${list.path}: ${judged.shifts.length} item(s) showed again on a later page while the list grew (results ${resultsAt(firstPage)} on page ${firstPage + 1}, ${resultsAt(lastPage)} on page ${lastPage + 1}): ${fewKeys(judged.shifts.map((shift) => shift.key))}; the list changed under the walk, each judged once`,
  );
  return { items, twice: judged.twice };
}

/** What a partial answer leaves unjudged, in one line (for the case's log). */
export function notWhole(list: ListTarget, answer: ListAnswer, pageSize: number): string {
  return `${list.path}: ${answer.listPages} pages at page_size ${pageSize}, more than one walk reads (${maxWalkPages}): judged on the ${answer.pages} pages read; completeness not judged`;
}

/**
 * Why a read has no answer to judge, as a property's verdict: what went wrong, and the page that shows it (the
 * refused page, or the one breaking the envelope's invariants), for a failure to point at.
 */
export type NoAnswer = Falsified & { readonly response: LiveResponse };

/** Whether a read gave {@link NoAnswer} rather than an answer (or answers) to judge. */
export function isNoAnswer(read: object): read is NoAnswer {
  return !Array.isArray(read) && !("items" in read) && "message" in read;
}

/**
 * Reads every page at `pageSize` (at most {@link maxWalkPages}), with an optional filter; or why there is no
 * answer to judge: a page refused, or a page breaking the envelope's invariants.
 */
export async function readAll(
  t: CaseContext,
  list: ListTarget,
  pageSize: number,
  filter?: unknown,
): Promise<ListAnswer | NoAnswer> {
  const read = await walk(t, list, { pageSize, filter });
  if (read.status === "refused") {
    const { status, text } = read.response;
    return {
      message: `page ${read.page} at page_size ${pageSize} answered ${status}: ${text.slice(0, 200)}`,
      response: read.response,
    };
  }
  return answerOf(t, read, pageSize, true);
}

/**
 * The answer a walk read at `pageSize`; with `judgeEnvelopes`, {@link NoAnswer} instead when a page read breaks
 * the envelope's invariants (naming the page and what broke, pointing at it).
 */
export function answerOf(
  t: CaseContext,
  read: Extract<Walk, { status: "read" }>,
  pageSize: number,
  judgeEnvelopes: boolean,
): ListAnswer | NoAnswer {
  if (judgeEnvelopes) {
    for (const { query, read: page } of read.answers) {
      const broken = describeViolations(t, query, page.body!);
      if (broken)
        return { message: `page ${query.page} at page_size ${pageSize}: ${broken}`, response: page.response };
    }
  }
  const last = read.answers.at(-1)?.read.body;
  return {
    items: read.items,
    pages: read.pages,
    results: last?.results,
    complete: read.complete,
    listPages: typeof last?.pages === "number" ? last.pages : read.pages,
    reads: read.answers.map((answer) => answer.read),
  };
}

/**
 * Reads each filter's answer in turn, each at its page size (whole, or its first pages: see {@link ListAnswer});
 * or why there is none, prefixed with the filter.
 */
export async function readAnswers(
  t: CaseContext,
  list: ListTarget,
  reads: readonly { readonly filter: unknown; readonly pageSize: number }[],
): Promise<ListAnswer[] | NoAnswer> {
  const answers: ListAnswer[] = [];
  for (const { filter, pageSize } of reads) {
    const answer = await readAll(t, list, pageSize, filter);
    if (isNoAnswer(answer)) return { ...answer, message: `${JSON.stringify(filter)} ${answer.message}` };
    answers.push(answer);
  }
  return answers;
}

/** The first five keys, and "..." when there are more. */
export function fewKeys(keys: readonly string[]): string {
  return `${keys.slice(0, 5).join(", ")}${keys.length > 5 ? ", ..." : ""}`;
}

/** Paginated GET lists of the description; a nested one (`/nodebalancers/{id}/configs`) under a parent that holds some. */
export async function findLists(
  t: CaseContext,
  keep: (operation: OperationInfo) => boolean = () => true,
): Promise<ListsFound> {
  const operations = apiOperations(t)
    .filter((operation) => operation.paginated && operation.method === "get")
    .sort((a, b) => a.pathTemplate.length - b.pathTemplate.length);
  const lists: ListTarget[] = [];
  const skipped: { operationId: string; reason: string }[] = [];
  const resolved = new Map<string, string>();
  for (const operation of operations) {
    const token = operation.security.public ? null : undefined;
    const path = await concretePath(t, operation, resolved, operations);
    if (typeof path !== "string") {
      if (keep(operation)) skipped.push({ operationId: operation.operationId, reason: path.reason });
      continue;
    }
    resolved.set(operation.pathTemplate, path);
    if (keep(operation)) lists.push({ operation, path, token });
  }
  return { lists, skipped };
}

/** Items a nested list needs under its parent before no other parent is tried: fewer judge little (`eachList`). */
const enoughUnderParent = 2;

/**
 * Fills a template's last `{param}` with an item of the list just before it (`/nodebalancers/{id}/configs` under
 * one of `/nodebalancers`), whose own path was resolved earlier (shorter templates come first): of the parent
 * list's first page, the first item under which `operation` lists at least {@link enoughUnderParent} items, else
 * the one under which it lists most (the first on a tie). Bounded: one read of that page, one per item on it.
 */
async function concretePath(
  t: CaseContext,
  operation: OperationInfo,
  resolved: ReadonlyMap<string, string>,
  operations: readonly OperationInfo[],
): Promise<string | { reason: string }> {
  const template = operation.pathTemplate;
  const last = /^(.*)\/\{[^}]+\}([^{}]*)$/.exec(template);
  if (!last) return template;
  const [, parentTemplate = "", tail = ""] = last;
  const parent = operations.find((candidate) => candidate.pathTemplate === parentTemplate);
  const parentPath = resolved.get(parentTemplate);
  if (!parent || parentPath === undefined)
    return { reason: `no readable list at ${parentTemplate} to take an id from` };
  const token = (list: OperationInfo) => (list.security.public ? null : undefined);
  const firstPage = { page: "1", page_size: String(conventionsOf(t.spec).pageSize.min) };
  const read = await readPage(t, { operation: parent, path: parentPath, token: token(parent) }, firstPage);
  const items = read.body?.data ?? [];
  if (items.length === 0) return { reason: `${parentPath} has no item to read ${template} under` };
  let chosen = { path: "", held: -1 };
  for (const item of items) {
    const path = `${parentPath}/${encodeURIComponent(itemKey(item))}${tail}`;
    if (items.length === 1) return path;
    const under = await readPage(t, { operation, path, token: token(operation) }, firstPage);
    const body = under.body;
    // A broken envelope (no numeric `results`) is judged where the list is read; here its page counts.
    const held = typeof body?.results === "number" ? body.results : (body?.data.length ?? 0);
    if (held > chosen.held) chosen = { path, held };
    if (held >= enoughUnderParent) break;
  }
  return chosen.path;
}

/** Which lists a suite judges, found once per suite run. */
export interface ListSelection {
  /** Where the lists are kept in `t.shared`; a case that adds items deletes it, so nested lists are found again. */
  readonly key: string;
  readonly keep?: (operation: OperationInfo) => boolean;
  /** Why the case is skipped when no such list can be read. */
  readonly none: string;
}

/** Where a suite keeps the lists of `selection` it found. */
const listsKey = (selection: ListSelection) => sharedKey<readonly ListTarget[]>(selection.key);

/** Forgets the lists of `selection` found so far: a case that added items has them found again (nested lists). */
export function forgetLists(t: CaseContext, selection: ListSelection): void {
  t.shared.delete(listsKey(selection));
}

/** The selected lists that can be read here (each left out logged with its reason); skips the case without any. */
export async function readableLists(
  t: CaseContext,
  selection: ListSelection,
): Promise<readonly ListTarget[]> {
  const cached = t.shared.get(listsKey(selection));
  if (cached) return cached;
  const found = await findLists(t, selection.keep);
  for (const entry of found.skipped) t.log(`${entry.operationId} not checked: ${entry.reason}`);
  if (found.lists.length === 0) t.skip(selection.none);
  t.shared.set(listsKey(selection), found.lists);
  return found.lists;
}
