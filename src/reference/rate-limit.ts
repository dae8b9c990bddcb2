/**
 * Per-caller rate limits in fixed windows: by token on authenticated calls, by client address on public ones.
 * Each operation counts against exactly one rule: a dedicated one where it has one (instance creation, paginated
 * lists) or the general one, as the description says dedicated limits override general ones.
 *
 * Callers come in three classes, each with its own rules (a {@link RateLimitPlan}):
 * - `token`: every token a client holds (personal or OAuth); the description's limits by default;
 * - `address`: callers known only by their client address (public endpoints, calls without a known token);
 * - `own`: the server's own ready token. The runner's embedded target gives it limits so high they never bind:
 *   the toolkit's own token must not pace a full run, while the tokens suites mint keep the description's limits
 *   (with windows shrunk by the server's time scale) so a rate-limit suite can drive past one in a second.
 * Every class gets the same headers, so a caller never learns which class it is in.
 *
 * Caller keys are the pipeline's (app.ts): `token:<id>` and `ip:<address>`.
 * @module
 */
import type { OperationInfo } from "../spec/types.ts";
import type { Clock } from "./clock.ts";

export interface RateRule {
  readonly limit: number;
  readonly windowMs: number;
}

export interface RateLimitConfig {
  /** All commands: 400 per minute. */
  readonly general: RateRule;
  /** GET of paginated collections: 200 per minute. */
  readonly list: RateRule;
  /** Creating compute instances: 10 per 30 seconds. */
  readonly createInstance: RateRule;
}

export const describedRateLimits: RateLimitConfig = Object.freeze({
  general: { limit: 400, windowMs: 60_000 },
  list: { limit: 200, windowMs: 60_000 },
  createInstance: { limit: 10, windowMs: 30_000 },
});

/** Rules per class of caller. */
export interface RateLimitPlan {
  readonly token: RateLimitConfig;
  readonly address: RateLimitConfig;
  readonly own: RateLimitConfig;
  /** The rate-limit key of the server's own token (`token:<id>`), counted under `own`. */
  readonly ownKey?: string;
}

export type RuleName = keyof RateLimitConfig;

/** The same limit for every rule, in one window: what "so generous it never binds" looks like. */
export function uniformRateLimits(limit: number, windowMs: number): RateLimitConfig {
  const rule = { limit, windowMs };
  return { general: rule, list: rule, createInstance: rule };
}

/**
 * The rules with every window multiplied by `scale` (limits kept): windows shrink with an embedded server whose
 * time runs faster. A window never drops below `minWindowMs` (default 1 s): `X-RateLimit-Reset` and `Retry-After`
 * count whole seconds, and with shorter windows two consecutive windows could share one `Reset` second, which
 * would make "Remaining decreases within a window" unobservable.
 */
export function scaleRateWindows(
  config: RateLimitConfig,
  scale: number,
  minWindowMs = 1000,
): RateLimitConfig {
  const scaled = (rule: RateRule): RateRule => ({
    limit: rule.limit,
    windowMs: Math.max(minWindowMs, Math.round(rule.windowMs * scale)),
  });
  return {
    general: scaled(config.general),
    list: scaled(config.list),
    createInstance: scaled(config.createInstance),
  };
}

/** The rule an operation counts against. */
export function ruleFor(operation: OperationInfo): RuleName {
  if (operation.operationId === "createComputeInstance") return "createInstance";
  if (operation.paginated && operation.method === "get") return "list";
  return "general";
}

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Epoch seconds when the window resets. */
  readonly resetAt: number;
  /** Whole seconds until the reset (at least 1), for `Retry-After`. */
  readonly retryAfter: number;
}

/** Whether one more request fits a window that has counted `count` of `limit` (a fault may swap it). */
export type WithinLimit = (count: number, limit: number) => boolean;

export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  private readonly plan: RateLimitPlan;
  private readonly clock: Clock;
  private readonly within: () => WithinLimit;

  /**
   * `within` is read on every request (the server's behaviour object, which a fault may have changed); by
   * default a request fits while fewer than `limit` were counted.
   */
  constructor(
    plan: RateLimitPlan,
    clock: Clock,
    within: () => WithinLimit = () => (count, limit) => count < limit,
  ) {
    this.plan = plan;
    this.clock = clock;
    this.within = within;
  }

  private rulesOf(caller: string): RateLimitConfig {
    if (caller === this.plan.ownKey) return this.plan.own;
    return caller.startsWith("ip:") ? this.plan.address : this.plan.token;
  }

  /** Counts one request of `caller` to `operation` and says whether it may proceed. */
  take(caller: string, operation: OperationInfo): RateDecision {
    const name = ruleFor(operation);
    const rule = this.rulesOf(caller)[name];
    const key = `${name}\u0000${caller}`;
    const now = this.clock.now();
    let window = this.#windows.get(key);
    if (!window || now >= window.start + rule.windowMs) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    const allowed = this.within()(window.count, rule.limit);
    if (allowed) window.count += 1;
    const resetMs = window.start + rule.windowMs;
    return {
      allowed,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - window.count),
      resetAt: Math.ceil(resetMs / 1000),
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }
}
