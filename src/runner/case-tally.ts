/**
 * What a case keeps of its results while it runs: failed results with their failure group, a skip once per check
 * and reason, and passes as a count. Failures of one group repeat within a case as one result with a count, and
 * only the first few failures of each group over the run keep their exchange (`failure-groups.ts`). A fuzz property
 * is one case of thousands of requests: keeping only this makes memory flat however long it runs, and however often
 * a target fails the same way.
 * @module
 */
import type { Exchange } from "../core/exchange.ts";
import type { SecretValues } from "../core/redact.ts";
import { type CheckResult, isAssertion } from "../core/result.ts";
import { FailureGroups } from "./failure-groups.ts";

/** Where the tally's failures are grouped: the run's groups and the case they happen in. */
export interface TallyGrouping {
  readonly groups: FailureGroups;
  readonly suiteId: string;
  readonly caseId: string;
}

/**
 * What the reports keep of failing exchanges' bodies: at most `perExchange` bytes of each, and `perRun` bytes in
 * all (one per run, shared by its cases). Past the run's budget a kept exchange keeps its request, status and
 * headers, and no body; either cut is marked `truncated`, with `bytes` still the size that came, and a kept JSON
 * body is kept only whole.
 */
export class KeptBodies {
  readonly #perExchange: number;
  #left: number;

  constructor(perExchange: number, perRun: number) {
    this.#perExchange = perExchange;
    this.#left = perRun;
  }

  keep(exchange: Exchange): Exchange {
    const { response } = exchange;
    if (!response) return exchange;
    const room = Math.max(0, Math.min(this.#perExchange, this.#left));
    // Measured in UTF-16 units, a bound on bytes within a factor of 3: cheap, and what the reports hold.
    if (response.text.length <= room) {
      this.#left -= response.text.length;
      return exchange;
    }
    this.#left -= room;
    return {
      ...exchange,
      response: { ...response, text: response.text.slice(0, room), json: undefined, truncated: true },
    };
  }
}

interface KeptFailure {
  readonly result: CheckResult;
  count: number;
}

export class CaseTally {
  readonly #failed: KeptFailure[] = [];
  readonly #byGroup = new Map<string, KeptFailure>();
  /** Each distinct skip once, by check id and reason... */
  readonly #skips = new Map<string, Map<string, CheckResult>>();
  /** ...and in the order they came. */
  readonly #skipsInOrder: CheckResult[] = [];
  readonly #kept = new Map<number, Exchange>();
  readonly #secrets: SecretValues;
  readonly #grouping: TallyGrouping;
  readonly #bodies: KeptBodies | undefined;
  passed = 0;

  /** Without `grouping`, the case's failures are grouped on their own (tests); without `bodies`, kept whole. */
  constructor(secrets: SecretValues, grouping?: TallyGrouping, bodies?: KeptBodies) {
    this.#secrets = secrets;
    this.#grouping = grouping ?? { groups: new FailureGroups(), suiteId: "", caseId: "" };
    this.#bodies = bodies;
  }

  /** The suite of the case (`""` for a tally outside a run): the coverage table names it. */
  get suiteId(): string {
    return this.#grouping.suiteId;
  }

  /** Counts a pass without its result (the engine's checks pass on most exchanges). */
  countPass(): void {
    this.passed += 1;
  }

  /**
   * Counts one result; `exchange` is what a failure points at (kept for the report while its group keeps
   * exchanges). Answers the result as recorded: a failure with its group.
   */
  add(result: CheckResult, exchange: Exchange | undefined): CheckResult {
    const { outcome } = result;
    if (outcome.status === "passed") {
      this.passed += 1;
      return result;
    }
    if (outcome.status === "skipped") {
      // By check, then reason: a check skipping every exchange for the same reason (an error check on a 2xx)
      // costs two lookups of strings it already has, no key built per exchange.
      let reasons = this.#skips.get(result.checkId);
      if (!reasons) {
        reasons = new Map();
        this.#skips.set(result.checkId, reasons);
      }
      if (!reasons.has(outcome.reason)) {
        const kept = { ...result, exchangeId: undefined };
        reasons.set(outcome.reason, kept);
        this.#skipsInOrder.push(kept);
      }
      return result;
    }
    const scrubbed = scrubResult(result, this.#secrets);
    const message = scrubbed.outcome.status === "failed" ? scrubbed.outcome.message : "";
    const { groups, suiteId, caseId } = this.#grouping;
    const operationId = exchange?.operationId;
    const groupId = groups.idOf(scrubbed.checkId, message).id;
    // A check's repeats in a case are one result with a count; an assertion's only when it says the same thing
    // (its samples are what a reader needs to see).
    const repeatKey = isAssertion(scrubbed.checkId) ? `${groupId}\u0000${message}` : groupId;
    const repeated = this.#byGroup.get(repeatKey);
    if (repeated) {
      repeated.count += 1;
      groups.repeat(groupId, operationId);
      return { ...scrubbed, group: groupId };
    }
    const assigned = groups.assign(
      scrubbed.checkId,
      message,
      { suiteId, caseId, operationId },
      exchange !== undefined,
    );
    const kept: KeptFailure = { result: { ...scrubbed, group: assigned.groupId }, count: 1 };
    this.#failed.push(kept);
    this.#byGroup.set(repeatKey, kept);
    if (exchange && assigned.keepExchange)
      this.#kept.set(exchange.id, this.#bodies ? this.#bodies.keep(exchange) : exchange);
    return kept.result;
  }

  get failed(): boolean {
    return this.#failed.length > 0;
  }

  /**
   * Failed results (one per group, with the count of its repeats in the case), then each distinct skip once. Like
   * {@link exchanges}, scrubbed again of every secret known now: one learnt after a result was kept (a value shown in
   * free text before a later answer named it a secret) is in no report.
   */
  get notable(): CheckResult[] {
    const failures = this.#failed.map(({ result, count }) => (count > 1 ? { ...result, count } : result));
    return this.#secrets.scrubDeep([...failures, ...this.#skipsInOrder]);
  }

  /** The exchanges kept for failed results (the first few of each group over the run), scrubbed again. */
  get exchanges(): Exchange[] {
    return this.#secrets.scrubDeep([...this.#kept.values()]);
  }
}

/** Suite assertions may quote values the target returned: scrub known secrets from them before anyone sees them. */
function scrubResult(result: CheckResult, secrets: SecretValues): CheckResult {
  if (secrets.size === 0) return result;
  return JSON.parse(secrets.scrub(JSON.stringify(result))) as CheckResult;
}
