/**
 * What the judged traffic never showed (`conform proxy`, `conform verify`), so a green report says how much it
 * proved: the operations never answered, the rules of the description no exchange exercised (no 429, no 4xx, no
 * request without a token, no filtered list, no page past the first, no write, no OAuth flow), and the checks that
 * judged nothing. A rule is listed only when the description has what it is about (no filterable list, no "no
 * filtered list"). The session feeds every exchange to {@link TrafficEvidence} and puts {@link NotShown} in its end.
 * @module
 */
import { type AnsweredExchange, isAnswered } from "../checks/types.ts";
import type { NotShown, OperationCoverage, TrafficRuleId } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";
import { conventionsOf } from "../spec/conventions.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";

/** How an exchange was seen: the description's filter header (lower-case), and whether it comes from a recording. */
interface SeenHow {
  readonly filterHeader: string;
  /**
   * A recording that may have left the Authorization header out (SDKs drop it; one showing it on some request kept
   * it): a request it shows without one says nothing.
   */
  readonly recorded: boolean;
}

/** One rule traffic may show: when the description has it, which exchange shows it, and what stays unproven. */
interface TrafficRule {
  readonly id: TrafficRuleId;
  readonly applies: (operations: readonly OperationInfo[]) => boolean;
  readonly shownBy: (
    exchange: AnsweredExchange,
    operation: OperationInfo | undefined,
    seen: SeenHow,
  ) => boolean;
  readonly missing: string;
  readonly unproven: string;
}

const succeeded = (exchange: AnsweredExchange) =>
  exchange.response.status >= 200 && exchange.response.status < 300;
const onTheApi = (operation: OperationInfo | undefined): operation is OperationInfo =>
  operation !== undefined && operation.serverUrl === undefined;
const always = () => true;

/** The rules, in the order reports list them. */
export const trafficRules: readonly TrafficRule[] = Object.freeze([
  {
    id: "rate-limit",
    applies: always,
    shownBy: (exchange) => exchange.response.status === 429,
    missing: "no 429 seen",
    unproven: "the rate-limit rules (a 429's reason and Retry-After, the window's reset) are unproven",
  },
  {
    id: "error-path",
    applies: always,
    shownBy: (exchange, operation) =>
      onTheApi(operation) && exchange.response.status >= 400 && exchange.response.status < 500,
    missing: "no error path (no 4xx seen)",
    unproven: "the error envelope and the fields errors name are unproven",
  },
  {
    id: "unauthenticated",
    applies: (operations) => operations.some((one) => !one.security.public),
    shownBy: (exchange, operation, seen) =>
      onTheApi(operation) &&
      !operation.security.public &&
      !seen.recorded &&
      exchange.request.headers.authorization === undefined,
    missing: "no request without a token to an operation that needs one",
    unproven: "the 401 answer to a missing token is unproven",
  },
  {
    id: "filtered-list",
    applies: (operations) => operations.some((one) => one.filterableFields.length > 0),
    shownBy: (exchange, operation, seen) =>
      onTheApi(operation) &&
      operation.filterableFields.length > 0 &&
      succeeded(exchange) &&
      exchange.request.headers[seen.filterHeader] !== undefined,
    missing: "no filtered list answered 2xx",
    unproven: "no list was judged by the filter oracle (observed-filter)",
  },
  {
    id: "paginated-walk",
    applies: (operations) => operations.some((one) => one.paginated),
    shownBy: (exchange, operation) =>
      onTheApi(operation) && operation.paginated && succeeded(exchange) && pageAsked(exchange) > 1,
    missing: "no paginated walk past page 1",
    unproven: "the page math across pages and no item twice in a walk (observed-pages) are unproven",
  },
  {
    id: "write",
    applies: (operations) => operations.some((one) => one.method !== "get" && one.method !== "head"),
    shownBy: (exchange, operation) =>
      onTheApi(operation) && operation.method !== "get" && operation.method !== "head" && succeeded(exchange),
    missing: "no write answered 2xx",
    unproven: "a write's answer, and the reads after it agreeing with it, are unproven",
  },
  {
    id: "oauth-flow",
    applies: (operations) => operations.some((one) => one.serverUrl !== undefined),
    shownBy: (_exchange, operation) => operation !== undefined && operation.serverUrl !== undefined,
    missing: "no OAuth flow (no exchange with the login server's operations)",
    unproven: "the OAuth token and authorization rules are unproven",
  },
] satisfies TrafficRule[]);

/** The `page` a request asked for (1 when none or not a number). */
function pageAsked(exchange: Exchange): number {
  const page = Number(new URL(exchange.request.url).searchParams.get("page") ?? "1");
  return Number.isFinite(page) ? page : 1;
}

/** The rules the traffic showed so far, exchange by exchange. */
export class TrafficEvidence {
  readonly #spec: ApiSpec;
  readonly #filterHeader: string;
  readonly #rules: readonly TrafficRule[];
  readonly #shown = new Set<TrafficRuleId>();

  constructor(spec: ApiSpec) {
    this.#spec = spec;
    this.#filterHeader = conventionsOf(spec).filterHeader.toLowerCase();
    const operations = spec.operations.all();
    this.#rules = trafficRules.filter((rule) => rule.applies(operations));
  }

  /** Takes what one exchange shows; `recorded` when it comes from a recording (`conform verify`). */
  observe(exchange: Exchange, recorded = false): void {
    if (!isAnswered(exchange)) return;
    const operation = exchange.operationId ? this.#spec.operations.byId(exchange.operationId) : undefined;
    const seen = { filterHeader: this.#filterHeader, recorded };
    for (const rule of this.#rules)
      if (!this.#shown.has(rule.id) && rule.shownBy(exchange, operation, seen)) this.#shown.add(rule.id);
  }

  /** The rules the description has that no exchange showed, in {@link trafficRules}' order. */
  rulesNotShown(): NotShown["rules"] {
    return this.#rules
      .filter((rule) => !this.#shown.has(rule.id))
      .map(({ id, missing, unproven }) => ({ id, missing, unproven }));
  }
}

/**
 * What the traffic never showed: the operations of `coverage` never answered, `rules` not shown, and the checks
 * without a verdict (`why` undefined: no exchange was about it), none when no operation was answered at all.
 */
export function notShownOf(
  coverage: readonly OperationCoverage[],
  rules: NotShown["rules"],
  checksWithoutVerdict: ReadonlyMap<string, string | undefined>,
): NotShown {
  const neverHit = coverage.filter((row) => row.statuses.length === 0).map((row) => row.operationId);
  const exercised = coverage.length - neverHit.length;
  // With no operation answered every check judged nothing: the session's "nothing judged" line says why, once.
  const without = exercised === 0 ? [] : [...checksWithoutVerdict];
  return {
    operations: { exercised, total: coverage.length, neverHit },
    rules,
    checks: without.map(([checkId, reason]) => ({
      checkId,
      why: reason === undefined ? "no exchange was about it" : `skipped: ${reason}`,
    })),
  };
}
