/**
 * Reading the paginated lists of a target for the filters and pagination suites: which lists the spec has (with
 * parent ids found on the target for nested ones), one page read with `page` kept exact (a JSON integer may
 * exceed 2^53), and walks over every page. Only HTTP; nothing here knows the reference server.
 * @module
 */
import type { CaseContext, LiveResponse } from "../../../src/index.ts";
import type { OperationInfo } from "../../../src/spec/types.ts";

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

/** Reads one page; `query` values are sent as given (text, so edges like `1.5` and 2^64 go out verbatim). */
export async function readPage(
  t: CaseContext,
  list: ListTarget,
  query: Readonly<Record<string, string | number>>,
  filter?: unknown,
): Promise<PageRead> {
  const response = await t.api.get(list.path, {
    query,
    token: list.token,
    ...(filter !== undefined ? { filter } : {}),
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

/** Paginated GET lists of the spec; a nested one (`/nodebalancers/{id}/configs`) under the first parent found. */
export async function findLists(
  t: CaseContext,
  keep: (operation: OperationInfo) => boolean = () => true,
): Promise<ListsFound> {
  const operations = t.spec.operations
    .all()
    .filter(
      (operation) => operation.paginated && operation.method === "get" && operation.serverUrl === undefined,
    )
    .sort((a, b) => a.pathTemplate.length - b.pathTemplate.length);
  const lists: ListTarget[] = [];
  const skipped: { operationId: string; reason: string }[] = [];
  const resolved = new Map<string, string>();
  for (const operation of operations) {
    const token = operation.security.public ? null : undefined;
    const path = await concretePath(t, operation.pathTemplate, resolved, operations);
    if (typeof path !== "string") {
      if (keep(operation)) skipped.push({ operationId: operation.operationId, reason: path.reason });
      continue;
    }
    resolved.set(operation.pathTemplate, path);
    if (keep(operation)) lists.push({ operation, path, token });
  }
  return { lists, skipped };
}

/**
 * Fills a template's last `{param}` with the first item of the list just before it (`/nodebalancers/{id}/configs`
 * under the first of `/nodebalancers`), whose own path was resolved earlier (shorter templates come first).
 */
async function concretePath(
  t: CaseContext,
  template: string,
  resolved: ReadonlyMap<string, string>,
  operations: readonly OperationInfo[],
): Promise<string | { reason: string }> {
  const last = /^(.*)\/\{[^}]+\}([^{}]*)$/.exec(template);
  if (!last) return template;
  const [, parentTemplate = "", tail = ""] = last;
  const parent = operations.find((operation) => operation.pathTemplate === parentTemplate);
  const parentPath = resolved.get(parentTemplate);
  if (!parent || parentPath === undefined)
    return { reason: `no readable list at ${parentTemplate} to take an id from` };
  const list: ListTarget = {
    operation: parent,
    path: parentPath,
    token: parent.security.public ? null : undefined,
  };
  const read = await readPage(t, list, { page: "1", page_size: "25" });
  const first = read.body?.data[0];
  if (!first) return { reason: `${parentPath} has no item to read ${template} under` };
  return `${parentPath}/${encodeURIComponent(itemKey(first))}${tail}`;
}
