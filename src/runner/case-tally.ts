/**
 * What a case keeps of its results while it runs: failed results in full with the exchanges they point at, a
 * skip once per check and reason, and passes as a count. A fuzz property is one case of thousands of requests:
 * keeping only this makes memory flat however long it runs.
 * @module
 */
import type { Exchange } from "../core/exchange.ts";
import type { SecretValues } from "../core/redact.ts";
import type { CheckResult } from "../core/result.ts";

export class CaseTally {
  readonly #failed: CheckResult[] = [];
  readonly #skips = new Map<string, CheckResult>();
  readonly #kept = new Map<number, Exchange>();
  readonly #secrets: SecretValues;
  passed = 0;

  constructor(secrets: SecretValues) {
    this.#secrets = secrets;
  }

  /** Counts a pass without its result (the engine's checks pass on most exchanges). */
  countPass(): void {
    this.passed += 1;
  }

  /** Counts one result; `exchange` is what a failure points at (kept for the report). */
  add(result: CheckResult, exchange: Exchange | undefined): void {
    const { outcome } = result;
    if (outcome.status === "passed") this.passed += 1;
    else if (outcome.status === "failed") {
      this.#failed.push(scrubResult(result, this.#secrets));
      if (exchange) this.#kept.set(exchange.id, exchange);
    } else {
      const key = `${result.checkId}\u0000${outcome.reason}`;
      if (!this.#skips.has(key)) this.#skips.set(key, { ...result, exchangeId: undefined });
    }
  }

  get failed(): boolean {
    return this.#failed.length > 0;
  }

  /** Failed results in full, then each distinct skip once. */
  get notable(): CheckResult[] {
    return [...this.#failed, ...this.#skips.values()];
  }

  /** The exchanges failed results point at. */
  get exchanges(): Exchange[] {
    return [...this.#kept.values()];
  }
}

/** Suite assertions may quote values the target returned: scrub known secrets from them before anyone sees them. */
function scrubResult(result: CheckResult, secrets: SecretValues): CheckResult {
  if (secrets.size === 0) return result;
  return JSON.parse(secrets.scrub(JSON.stringify(result))) as CheckResult;
}
