/**
 * What observed traffic allows to judge beyond one exchange's checks: the API's semantics, over a sequence of
 * exchanges conform did not make (a proxy's clients, a recording). Each judgement needs only what the exchange
 * (and the ones before it) show, never the collection or the account:
 *
 * - `observed-filter`: a list answered 200 to a valid X-Filter holds only items that match it, in its
 *   `+order_by` order (the filter oracle); one refused by the description's rules must not be answered 2xx;
 * - `observed-pages`: a list's envelope and page math for the `page`/`page_size` asked (the pagination oracle),
 *   values the description refuses not answered 2xx, and no item twice over the pages of one walk read in a row
 *   with no write between them (an item pushed on to a later page while `results` grew by as much, others adding
 *   items ahead of it, is the list changing: skipped with the reason, not failed);
 * - `observed-error-field`: a 400 to a request whose fault is one field (a filter, a page parameter, a JSON body
 *   breaking the request schema at a field) names a field;
 * - `observed-rate-limit`: per caller, endpoint and window (same `X-RateLimit-Limit` and `-Reset`), the lowest
 *   `Remaining` seen is at most Limit minus the answers seen in it (other clients only lower it; order-free, so
 *   concurrent answers recorded out of order are fine); when the caller is unknown (tokens redacted), only that
 *   two answers in a window do not both say the whole limit is left;
 * - `observed-scopes`: `X-Accepted-OAuth-Scopes` names the scopes the description says the operation needs, and a
 *   known caller's `X-OAuth-Scopes` stays the same from one answer to the next;
 * - `observed-deprecated`: a success of an operation the description marks deprecated is 299 with `warnings`.
 *
 * A caller is a digest of the token when the feeder knows it (the proxy; a recording whose tokens are not
 * redacted), else undefined. Pure over its inputs apart from the bounded state the sequence needs.
 * @module
 */
import type { Exchange, RecordedResponse } from "../core/exchange.ts";
import { type CheckOutcome, type CheckResult, failed, passed, skipped } from "../core/result.ts";
import { checkFilterHeader, compareByOrder, matchesFilter } from "../oracles/filter-oracle.ts";
import {
  expectPage,
  type PageQuery,
  pageViolations,
  type Sighting,
  shiftBetween,
} from "../oracles/pagination-oracle.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { parsePointer } from "../spec/pointer.ts";
import { refusedWithoutField } from "../spec/refused-without-field.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";

/** The ids of the judgements, as results name them. */
export const observedJudgements = [
  "observed-filter",
  "observed-pages",
  "observed-error-field",
  "observed-rate-limit",
  "observed-scopes",
  "observed-deprecated",
] as const;
export type ObservedJudgementId = (typeof observedJudgements)[number];

/** Windows and walks remembered at most (a long proxy session stays bounded). */
const rememberedMax = 4096;

interface Walk {
  /** Where each item was first seen: its page in the walk, its place in the list, `results` that page said. */
  readonly seen: Map<string, Sighting>;
  nextPage: bigint;
  /** Pages read so far, and items on them (the place of the next page's first item). */
  pages: number;
  offset: number;
  readonly writesAt: number;
}

interface Window {
  seen: number;
  lowest: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `page` of a list answer read exactly from its text (a JSON number above 2^53 loses digits when parsed). */
function exactPage(response: RecordedResponse): bigint | number | undefined {
  const match = /"page"\s*:\s*(-?\d+)\s*[,}]/.exec(response.text);
  if (match?.[1]) return BigInt(match[1]);
  const page = isObject(response.json) ? response.json.page : undefined;
  return typeof page === "number" ? page : undefined;
}

function keyOf(item: unknown): string {
  return isObject(item) && item.id !== undefined ? JSON.stringify(item.id) : JSON.stringify(item);
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= rememberedMax && !map.has(key)) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
  return value;
}

export class ObservedJudge {
  readonly #spec: ApiSpec;
  readonly #walks = new Map<string, Walk>();
  readonly #windows = new Map<string, Window>();
  readonly #scopes = new Map<string, string>();
  #writes = 0;

  constructor(spec: ApiSpec) {
    this.#spec = spec;
  }

  /**
   * The judgements that apply to one exchange, in sequence order: a result per judgement that had something to
   * judge (passed, failed or skipped with the reason); none for an exchange no operation matched or with no answer.
   */
  judge(exchange: Exchange, caller?: string): CheckResult[] {
    const { response, operationId } = exchange;
    if (!response || !operationId) return [];
    const operation = this.#spec.operations.byId(operationId);
    if (!operation) return [];
    const method = exchange.request.method.toUpperCase();
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") this.#writes += 1;
    const results: CheckResult[] = [];
    const add = (checkId: ObservedJudgementId, outcome: CheckOutcome | undefined) => {
      if (outcome) results.push({ checkId, exchangeId: exchange.id, outcome });
    };
    if (method === "OPTIONS") return results;
    const url = new URL(exchange.request.url);
    if (operation.paginated && method === "GET") {
      add("observed-filter", this.#filter(operation, exchange, response));
      add("observed-pages", this.#pages(operation, url, exchange, response, caller));
    }
    add("observed-error-field", this.#errorField(operation, url, exchange, response));
    add("observed-rate-limit", this.#rateLimit(operation, response, caller));
    for (const outcome of this.#scopesOf(operation, response, caller)) add("observed-scopes", outcome);
    add("observed-deprecated", this.#deprecated(operation, response));
    return results;
  }

  #filterText(exchange: Exchange): string | undefined {
    return exchange.request.headers[conventionsOf(this.#spec).filterHeader.toLowerCase()];
  }

  #filter(
    operation: OperationInfo,
    exchange: Exchange,
    response: RecordedResponse,
  ): CheckOutcome | undefined {
    const text = this.#filterText(exchange);
    if (text === undefined) return undefined;
    const verdict = checkFilterHeader(text, operation.filterableFields);
    if (verdict.status === "unspecified")
      return skipped(
        `the description does not decide this filter (${verdict.points[0]?.message ?? "open point"})`,
      );
    if (verdict.status === "invalid") {
      if (response.status >= 200 && response.status < 300)
        return failed(
          `a filter the description refuses (${verdict.problems[0]?.message}) was answered ${response.status}`,
          {
            expected: 400,
            actual: response.status,
          },
        );
      return response.status === 400 ? passed : undefined;
    }
    if (response.status !== 200) return undefined;
    if (response.truncated) return skipped("the body was cut: the items cannot all be judged");
    const data = isObject(response.json) ? response.json.data : undefined;
    if (!Array.isArray(data)) return undefined; // the page judgement says the envelope is wrong
    const { filter } = verdict;
    for (const [index, item] of data.entries()) {
      if (!isObject(item))
        return failed(`item ${index} of a filtered list is not an object`, { actual: item });
    }
    const items = data as Record<string, unknown>[];
    const unsound = items.findIndex((item) => !matchesFilter(item, filter));
    if (unsound >= 0)
      return failed(`item ${keyOf(items[unsound])} of the answer does not match the filter ${text}`, {
        expected: `every item matches ${text}`,
        actual: items[unsound],
      });
    if (filter.order) {
      const at = items.findIndex(
        (item, index) => index > 0 && compareByOrder(items[index - 1]!, item, filter.order) > 0,
      );
      if (at > 0)
        return failed(
          `items are not in ${filter.order.field} ${filter.order.direction} order at index ${at}`,
          {
            expected: `${filter.order.field} ${filter.order.direction}`,
            actual: [items[at - 1]?.[filter.order.field], items[at]?.[filter.order.field]],
          },
        );
    }
    return passed;
  }

  #pageQuery(url: URL): PageQuery {
    const page = url.searchParams.get("page");
    const pageSize = url.searchParams.get("page_size");
    return { ...(page !== null ? { page } : {}), ...(pageSize !== null ? { page_size: pageSize } : {}) };
  }

  #pages(
    operation: OperationInfo,
    url: URL,
    exchange: Exchange,
    response: RecordedResponse,
    caller: string | undefined,
  ): CheckOutcome | undefined {
    const bounds = conventionsOf(this.#spec).pageSize;
    const query = this.#pageQuery(url);
    const refused = expectPage(query, 0, bounds);
    if (refused.status === "refused") {
      if (response.status >= 200 && response.status < 300)
        return failed(
          `${refused.fields.join(" and ")} out of the description's bounds was answered ${response.status}`,
          {
            expected: 400,
            actual: response.status,
          },
        );
      return undefined;
    }
    if (response.status !== 200) return undefined;
    if (response.truncated) return skipped("the body was cut: the envelope cannot be judged");
    const body = isObject(response.json) ? response.json : undefined;
    if (!body) return failed("a list answer is not a JSON object", { actual: response.text.slice(0, 200) });
    const data = Array.isArray(body.data) ? body.data : undefined;
    const violations = pageViolations(
      query,
      { page: exactPage(response), pages: body.pages, results: body.results, dataLength: data?.length },
      bounds,
    );
    if (violations.length > 0) {
      const [first] = violations;
      return failed(first!.message, { expected: first!.expected, actual: first!.actual });
    }
    // One walk: the same list, caller and filter, page after page, with no write in between.
    const walkKey = [
      caller,
      operation.operationId,
      url.pathname,
      this.#filterText(exchange) ?? "",
      query.page_size ?? "",
    ].join("\u0000");
    const page = BigInt(query.page ?? "1");
    let walk = this.#walks.get(walkKey);
    if (!walk || page === 1n || page !== walk.nextPage || walk.writesAt !== this.#writes) {
      const fresh = { seen: new Map(), nextPage: page, pages: 0, offset: 0, writesAt: this.#writes };
      walk = remember(this.#walks, walkKey, fresh);
    }
    walk.nextPage = page + 1n;
    const shifted: string[] = [];
    for (const [index, item] of (data ?? []).entries()) {
      const key = keyOf(item);
      const sighting = { page: walk.pages, position: walk.offset + index, results: body.results };
      const first = walk.seen.get(key);
      if (first && shiftBetween(first, sighting)) {
        // Pushed on by items others added ahead of it while the walk went on: the list changed, no repeat.
        shifted.push(key);
      } else if (first) {
        this.#walks.delete(walkKey);
        return failed(`item ${key} is on two pages of one walk (page ${page})`, {
          expected: "each item once",
          actual: key,
        });
      } else walk.seen.set(key, sighting);
    }
    walk.pages += 1;
    walk.offset += data?.length ?? 0;
    if (shifted.length > 0)
      return skipped(
        `item(s) ${shifted.slice(0, 5).join(", ")}${shifted.length > 5 ? ", ..." : ""} showed again on page ${page} of one walk while the list grew (results ${String(body.results)}): the list changed under the walk, not judged as a repeat`,
      );
    return passed;
  }

  #errorField(
    operation: OperationInfo,
    url: URL,
    exchange: Exchange,
    response: RecordedResponse,
  ): CheckOutcome | undefined {
    if (response.status !== 400 || !isObject(response.json)) return undefined;
    const envelope = conventionsOf(this.#spec).errorEnvelope;
    const errors = response.json[envelope.list];
    if (!Array.isArray(errors)) return undefined; // error-body-shape says so
    const named = errors
      .filter(isObject)
      .map((error) => error[envelope.field])
      .filter((field) => typeof field === "string");
    const faultAt = this.#faultyField(operation, url, exchange);
    if (faultAt === undefined) return undefined;
    if (named.length > 0) return passed;
    return failed(`a 400 to a request whose fault is ${faultAt} names no ${envelope.field}`, {
      expected: `an error with ${envelope.field}`,
      actual: errors,
    });
  }

  /** The one input the request got wrong, when the description alone says so. */
  #faultyField(operation: OperationInfo, url: URL, exchange: Exchange): string | undefined {
    if (operation.paginated) {
      const text = this.#filterText(exchange);
      if (text !== undefined && checkFilterHeader(text, operation.filterableFields).status === "invalid")
        return conventionsOf(this.#spec).filterHeader;
      const expected = expectPage(this.#pageQuery(url), 0, conventionsOf(this.#spec).pageSize);
      if (expected.status === "refused") return expected.fields.join(", ");
    }
    const { body } = exchange.request;
    if (!operation.requestBody || body === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return undefined; // a body that is not JSON is no single field's fault
    }
    if (!isObject(value) || JSON.stringify(value).includes("REDACTED")) return undefined;
    const validate = this.#spec.validators.request(operation.operationId, "application/json");
    const outcome = validate?.(value);
    if (!outcome || outcome.valid) return undefined;
    const issue = outcome.issues.find((entry) => entry.field !== "");
    if (!issue) return undefined;
    const tokens = parsePointer(issue.instancePath) ?? [];
    // The description says a refusal of this value names no field (x-*-refused-without-field).
    if (refusedWithoutField(this.#spec, operation.operationId, tokens)) return undefined;
    return `field ${issue.field}`;
  }

  #rateLimit(
    operation: OperationInfo,
    response: RecordedResponse,
    caller: string | undefined,
  ): CheckOutcome | undefined {
    const limit = Number(response.headers["x-ratelimit-limit"]);
    const remaining = Number(response.headers["x-ratelimit-remaining"]);
    const reset = response.headers["x-ratelimit-reset"];
    if (!Number.isInteger(limit) || !Number.isInteger(remaining) || reset === undefined) return undefined;
    // A refused token or a 429 tells nothing of the window's count.
    if (response.status === 401 || response.status === 429) return undefined;
    const key = [caller ?? "", operation.operationId, limit, reset].join("\u0000");
    const window = this.#windows.get(key) ?? remember(this.#windows, key, { seen: 0, lowest: limit });
    window.seen += 1;
    window.lowest = Math.min(window.lowest, remaining);
    // A known caller: every answer seen in the window was counted, whoever else spends it.
    if (caller !== undefined) {
      if (window.lowest <= limit - window.seen) return passed;
      return failed(
        `X-RateLimit-Remaining does not go down: ${window.seen} answers to one token in one window of ${limit}, the lowest says ${window.lowest} left`,
        { expected: `at most ${limit - window.seen}`, actual: window.lowest },
      );
    }
    // Tokens unknown (a recording's are redacted): answers of several tokens may share the window's key, but each
    // answered request spends its own token's window, so after two answers one of them says less than the limit.
    if (window.seen < 2 || window.lowest < limit) return window.seen < 2 ? undefined : passed;
    return failed(
      `X-RateLimit-Remaining does not go down: ${window.seen} answers in one window of ${limit}, every one says ${limit} left`,
      { expected: `less than ${limit}`, actual: window.lowest },
    );
  }

  #scopesOf(
    operation: OperationInfo,
    response: RecordedResponse,
    caller: string | undefined,
  ): CheckOutcome[] {
    const outcomes: CheckOutcome[] = [];
    const accepted = response.headers["x-accepted-oauth-scopes"];
    const needed = operation.security.scopes;
    if (
      accepted !== undefined &&
      !operation.security.public &&
      needed.length > 0 &&
      response.status !== 401
    ) {
      const named = new Set(accepted.split(/[\s,]+/).filter(Boolean));
      const missing = needed.filter((scope) => !named.has(scope));
      outcomes.push(
        missing.length === 0
          ? passed
          : failed(`X-Accepted-OAuth-Scopes does not name the scope ${operation.operationId} needs`, {
              expected: needed.join(" "),
              actual: accepted,
            }),
      );
    }
    const scopes = response.headers["x-oauth-scopes"];
    if (caller === undefined || scopes === undefined || response.status === 401) return outcomes;
    const normal = scopes
      .split(/[\s,]+/)
      .filter(Boolean)
      .sort()
      .join(" ");
    const before = this.#scopes.get(caller);
    remember(this.#scopes, caller, normal);
    if (before === undefined) return outcomes;
    outcomes.push(
      before === normal
        ? passed
        : failed("X-OAuth-Scopes changed between two answers to the same token", {
            expected: before,
            actual: normal,
          }),
    );
    return outcomes;
  }

  #deprecated(operation: OperationInfo, response: RecordedResponse): CheckOutcome | undefined {
    if (!operation.deprecated || response.status < 200 || response.status >= 300) return undefined;
    if (response.status !== 299)
      return failed(`${operation.operationId} is deprecated: a success answers 299, not ${response.status}`, {
        expected: 299,
        actual: response.status,
      });
    const warnings = isObject(response.json) ? response.json.warnings : undefined;
    if (!Array.isArray(warnings) || warnings.length === 0)
      return failed("a 299 answer carries a warnings array", {
        expected: "warnings: [...]",
        actual: warnings,
      });
    return passed;
  }
}
