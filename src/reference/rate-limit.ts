/**
 * Per-caller rate limits in fixed windows: by token on authenticated calls, by client address on public ones.
 * Each operation counts against exactly one rule: a dedicated one where it has one (instance creation, paginated
 * lists) or the general one, as the description says dedicated limits override general ones.
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

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Epoch seconds when the window resets. */
  readonly resetAt: number;
  /** Whole seconds until the reset (at least 1), for `Retry-After`. */
  readonly retryAfter: number;
}

type RuleName = keyof RateLimitConfig;

function ruleFor(operation: OperationInfo): RuleName {
  if (operation.operationId === "createComputeInstance") return "createInstance";
  if (operation.paginated && operation.method === "get") return "list";
  return "general";
}

export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  private readonly config: RateLimitConfig;
  private readonly clock: Clock;

  constructor(config: RateLimitConfig, clock: Clock) {
    this.config = config;
    this.clock = clock;
  }

  /** Counts one request of `caller` to `operation` and says whether it may proceed. */
  take(caller: string, operation: OperationInfo): RateDecision {
    const name = ruleFor(operation);
    const rule = this.config[name];
    const key = `${name}\u0000${caller}`;
    const now = this.clock.now();
    let window = this.#windows.get(key);
    if (!window || now >= window.start + rule.windowMs) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    const allowed = window.count < rule.limit;
    if (allowed) window.count += 1;
    const resetMs = window.start + rule.windowMs;
    return {
      allowed,
      limit: rule.limit,
      remaining: rule.limit - window.count,
      resetAt: Math.ceil(resetMs / 1000),
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }
}
