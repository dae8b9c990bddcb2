/**
 * The run's coverage table, counted as exchanges are judged: per operation, its requests and answers, the valid
 * ones answered 2xx, the invalid ones (a generated request's negative intent, or a suite's `breaks`) refused with
 * a 4xx, whether a request named a resource the target's answers gave (a stateful chain), and the suites and
 * checks that judged it. Memory is a few counters and two small sets per operation, whatever the run's length.
 * @module
 */
import type { OperationCoverage, OperationPlan } from "../core/events.ts";
import type { Exchange } from "../core/exchange.ts";

interface Tally {
  readonly statuses: Set<number>;
  requests: number;
  validSent: number;
  validAccepted: number;
  invalidSent: number;
  invalidRefused: number;
  chained: boolean;
  readonly suites: Set<string>;
  readonly checks: Set<string>;
}

const pathParameters = (url: string) => url.match(/\{[^}]+\}/g)?.length ?? 0;

/**
 * A request named a resource by a value from the target's answers: a generated one whose path values were found,
 * not drawn (`intent.drawnPath`); a suite's own one to a path with parameters that the target answered 2xx (the
 * resource was there: the suite took its id from an earlier answer).
 */
function isChained(exchange: Exchange, template: string | undefined, status: number | undefined): boolean {
  const parameters = template === undefined ? 0 : pathParameters(template);
  if (parameters === 0) return false;
  const intent = exchange.request.intent;
  if (intent) return intent.mode === "positive" && (intent.drawnPath?.length ?? 0) < parameters;
  return status !== undefined && status >= 200 && status < 300;
}

export class CoverageTally {
  readonly #byOperation = new Map<string, Tally>();
  readonly #templates: ReadonlyMap<string, string>;

  /** `templates`: each operation's path template by id (for the chain rule). */
  constructor(templates: ReadonlyMap<string, string> = new Map()) {
    this.#templates = templates;
  }

  #tally(operationId: string): Tally {
    let tally = this.#byOperation.get(operationId);
    if (!tally) {
      tally = {
        statuses: new Set(),
        requests: 0,
        validSent: 0,
        validAccepted: 0,
        invalidSent: 0,
        invalidRefused: 0,
        chained: false,
        suites: new Set(),
        checks: new Set(),
      };
      this.#byOperation.set(operationId, tally);
    }
    return tally;
  }

  /** One exchange of `suiteId`'s case (suite `""`: none to name). */
  observe(exchange: Exchange, suiteId: string): void {
    const { operationId, response, request } = exchange;
    if (operationId === undefined) return;
    const tally = this.#tally(operationId);
    tally.requests += 1;
    if (suiteId !== "") tally.suites.add(suiteId);
    const status = response?.status;
    if (status !== undefined) tally.statuses.add(status);
    const invalid = request.intent?.mode === "negative" || (!request.intent && request.breaks !== undefined);
    if (invalid) {
      tally.invalidSent += 1;
      if (status !== undefined && status >= 400 && status < 500) tally.invalidRefused += 1;
    } else {
      tally.validSent += 1;
      if (status !== undefined && status >= 200 && status < 300) tally.validAccepted += 1;
    }
    if (!tally.chained) tally.chained = isChained(exchange, this.#templates.get(operationId), status);
  }

  /** The operations requested so far, in the order first requested. */
  get requested(): readonly string[] {
    return [...this.#byOperation.keys()];
  }

  /** `checkId` passed or failed on an answer of `operationId`. */
  judged(operationId: string, checkId: string): void {
    this.#tally(operationId).checks.add(checkId);
  }

  /** The table: every planned operation with what it got; one never requested keeps its plan's reason. */
  table(plan: readonly OperationPlan[]): OperationCoverage[] {
    return plan.map((planned) => {
      const tally = this.#byOperation.get(planned.operationId);
      const requests = tally?.requests ?? 0;
      const notRequested =
        requests > 0
          ? undefined
          : (planned.notRequested ?? {
              reason: "not-reached" as const,
              detail:
                "planned for the generic layer, but no case reached it (its case was skipped, errored or stopped)",
            });
      return {
        operationId: planned.operationId,
        method: planned.method,
        path: planned.path,
        statuses: [...(tally?.statuses ?? [])].sort((a, b) => a - b),
        requests,
        ...(notRequested ? { notRequested } : {}),
        valid: { sent: tally?.validSent ?? 0, accepted: tally?.validAccepted ?? 0 },
        // Said only where it explains an empty column: requested, and no suite sent it a valid request either.
        ...(requests > 0 && !tally?.validSent && planned.validWithheld
          ? { validWithheld: planned.validWithheld }
          : {}),
        invalid: { sent: tally?.invalidSent ?? 0, refused: tally?.invalidRefused ?? 0 },
        chained: tally?.chained ?? false,
        suites: [...(tally?.suites ?? [])].sort(),
        checks: [...(tally?.checks ?? [])].sort(),
      };
    });
  }
}
