/**
 * The run's answers per operation and how many were refusals (401, 403, 404), for the "judged on refusals" warning
 * (`run-warnings.ts`). Only the run's own valid requests count: that warning says the token's scopes or the ids the
 * run uses keep its successes from being judged, and a request meant to be refused says nothing of either. Meant to
 * be refused: one that breaks a rule (`breaks`, a negative intent), one whose path was drawn from its schema (the
 * resource may really be absent), one sent with another credential than the run's (none, unknown, another scope's),
 * and one whose answer a case asserts is a refusal (`expected: 404`, said after the answer came: taken back then).
 * @module
 */
import type { Exchange, RecordedRequest } from "../core/exchange.ts";

/** The answers said to be refusals. */
const refusalStatuses: ReadonlySet<number> = new Set([401, 403, 404]);

/**
 * Counted refusals a later assertion may still take back, newest last. An assertion follows its answer within the
 * case, with a few suites running at once, so the last ones suffice and a long run keeps no list of every refusal.
 */
const rememberedRefusals = 1024;

/** Per operation: answers to the run's own valid requests, and how many were 401, 403 or 404. */
export type RefusalCounts = ReadonlyMap<string, { readonly total: number; readonly refused: number }>;

/** Whether the request says it is meant to be refused, or cannot tell it is valid (a drawn path). */
function meantToBeRefused(request: RecordedRequest): boolean {
  const { breaks, intent } = request;
  return breaks !== undefined || intent?.mode === "negative" || (intent?.drawnPath?.length ?? 0) > 0;
}

/** Whether an assertion's `expected` is a refusal status (`404`, or a list of them): the case meant its request refused. */
export function expectsRefusal(expected: unknown): boolean {
  const statuses = Array.isArray(expected) ? expected : [expected];
  return statuses.length > 0 && statuses.every((status) => refusalStatuses.has(status as number));
}

export class RefusalTally {
  readonly #counts = new Map<string, { total: number; refused: number }>();
  /** Counted refusals by exchange id, with their operation (see {@link rememberedRefusals}). */
  readonly #refusals = new Map<number, string>();

  /** Counts an answered exchange of `operationId`, unless its request is meant to be refused (`foreign`: another credential). */
  observe(exchange: Exchange, operationId: string, status: number, foreign: boolean): void {
    if (foreign || meantToBeRefused(exchange.request)) return;
    const counts = this.#counts.get(operationId) ?? { total: 0, refused: 0 };
    counts.total += 1;
    this.#counts.set(operationId, counts);
    if (!refusalStatuses.has(status)) return;
    counts.refused += 1;
    this.#refusals.set(exchange.id, operationId);
    if (this.#refusals.size > rememberedRefusals)
      this.#refusals.delete(this.#refusals.keys().next().value as number);
  }

  /** A case asserted that this exchange's answer is a refusal: it was meant to be one, so it is not counted. */
  takeBack(exchangeId: number): void {
    const operationId = this.#refusals.get(exchangeId);
    if (operationId === undefined) return;
    this.#refusals.delete(exchangeId);
    const counts = this.#counts.get(operationId)!;
    counts.total -= 1;
    counts.refused -= 1;
  }

  counts(): RefusalCounts {
    return this.#counts;
  }
}
