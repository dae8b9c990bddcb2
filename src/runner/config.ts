/**
 * Everything a run needs, as the CLI and a config file give it, with frozen defaults.
 * @module
 */
import type { RatePolicy } from "./contracts.ts";
import type { Baseline, SuiteDuration } from "./earlier-report.ts";
import type { Shard } from "./shard.ts";
import type { PropertyReplay } from "./suite-api.ts";

export interface RunConfig {
  /** The target's API base URL (ends in /v4); undefined starts the embedded reference server. */
  readonly baseUrl: string | undefined;
  /** The login server; defaults to the base URL's origin. */
  readonly authUrl: string | undefined;
  /** Bearer token for the target (never printed). Undefined with the embedded target: it makes its own. */
  readonly token: string | undefined;
  /** The OpenAPI description to check against. */
  readonly specPath: string;
  /** Extra files or folders holding `*.suite.ts` files, besides the project's `suites/`. */
  readonly suitePaths: readonly string[];
  readonly suites: readonly string[];
  readonly tags: readonly string[];
  readonly excludeTags: readonly string[];
  readonly checks: readonly string[];
  readonly excludeChecks: readonly string[];
  /** Selection by operation (`operation-selection.ts`): ids, ids left out, methods, path patterns. */
  readonly operations: readonly string[];
  readonly excludeOperations: readonly string[];
  readonly methods: readonly string[];
  readonly paths: readonly string[];
  readonly seed: number;
  /** Suites run at once (cases within a suite run in order). */
  readonly concurrency: number;
  readonly rate: RatePolicy;
  /** Per request: connect, headers and body each. */
  readonly timeoutMs: number;
  /** Headers added to every request (`--header`), names lower-cased; a request's own header of the name wins. */
  readonly headers: Readonly<Record<string, string>>;
  /** PEM file of a CA to trust, or undefined. */
  readonly caFile: string | undefined;
  readonly insecure: boolean;
  readonly reportDir: string;
  /** Every exchange of the run written to this file as HAR 1.2 (redacted as the reports), or undefined. */
  readonly harPath?: string | undefined;
  readonly reporters: readonly string[];
  /** Colour in the console: `--color`/`--no-color`; undefined: a terminal's, unless NO_COLOR or FORCE_COLOR say. */
  readonly color?: boolean | undefined;
  readonly allowWrites: boolean;
  /** Stop starting new cases after this many failures (0: never stop). */
  readonly maxFailures: number;
  /** A run whose end has warnings (thin evidence: left-out cases, refusals, waits, checks judging nothing) exits 1. */
  readonly warningsAsErrors: boolean;
  /** `--fail-under`: a run exercising a smaller share of the operations (percent) exits 1, saying so. */
  readonly failUnder?: number | undefined;
  /** A body above this, as received or decoded, is not read further: the exchange fails "answer too large". */
  readonly maxResponseBytes: number;
  /** Body bytes kept with each failing exchange in the reports (the rest is cut, saying so). */
  readonly keptBodyBytes: number;
  /** Body bytes kept over all failing exchanges of a run; beyond it kept exchanges lose their bodies, saying so. */
  readonly keptReportBytes: number;
  /** From an answer's headers to its last byte, per request. */
  readonly requestDeadlineMs: number;
  /** 429 answers retried per request, waiting `Retry-After`. */
  readonly maxRetries: number;
  /** The longest wait for a `Retry-After` or a spent rate-limit window; beyond it the request fails, saying so. */
  readonly maxWaitMs: number;
  /** The whole run's time limit (`--max-time`); undefined: none. Reaching it ends the run like an interruption, exit 2. */
  readonly maxTimeMs: number | undefined;
  /** Label prefix of every resource the run creates (the cleanup command finds leftovers by it). */
  readonly labelPrefix: string;
  /** Runs per generated property (`conform fuzz --runs`); undefined: each property's default. */
  readonly propertyRuns: number | undefined;
  /** The one generated property to replay (`conform fuzz --property --path`); undefined: every property runs. */
  readonly replayProperty: PropertyReplay | undefined;
  /** Free-form settings for suites (e.g. `login.username`), from the config file. */
  readonly suiteOptions: Readonly<Record<string, unknown>>;
  /** Named faults to enable in the embedded reference server (the fault matrix; ignored for other targets). */
  readonly faults: readonly string[];
  /** Run only this shard of the selected suites (`--shard i/n`). */
  readonly shard: Shard | undefined;
  /** Suite durations of an earlier report, to balance shards (`--durations`); undefined: by case count. */
  readonly durations: ReadonlyMap<string, SuiteDuration> | undefined;
  /** Known failure groups (`--baseline`): they do not fail the exit code. */
  readonly baseline: Baseline | undefined;
}

export const runConfigDefaults = Object.freeze({
  baseUrl: undefined,
  authUrl: undefined,
  token: undefined,
  specPath: "specs/cloud-api-v4.yaml",
  suitePaths: [],
  suites: [],
  tags: [],
  excludeTags: [],
  checks: [],
  excludeChecks: [],
  operations: [],
  excludeOperations: [],
  methods: [],
  paths: [],
  seed: 0,
  concurrency: 4,
  rate: { kind: "auto" },
  timeoutMs: 30_000,
  headers: {},
  caFile: undefined,
  insecure: false,
  reportDir: "reports",
  reporters: ["console", "json", "junit", "html", "markdown"],
  allowWrites: false,
  maxFailures: 0,
  warningsAsErrors: false,
  maxResponseBytes: 4 * 1024 * 1024,
  keptBodyBytes: 64 * 1024,
  keptReportBytes: 16 * 1024 * 1024,
  requestDeadlineMs: 60_000,
  maxRetries: 3,
  // Above the description's longest window (a minute), which a window spent in its first second makes 61 s to wait
  // (its `X-RateLimit-Reset` is in whole seconds, rounded up): a conforming target never trips the default.
  maxWaitMs: 90_000,
  maxTimeMs: undefined,
  labelPrefix: "conform",
  propertyRuns: undefined,
  replayProperty: undefined,
  suiteOptions: {},
  faults: [],
  shard: undefined,
  durations: undefined,
  baseline: undefined,
} satisfies RunConfig);

/** Seconds in each unit of a budget. */
const unitSeconds: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600 };

/** Parses `auto`, `N/s`, `N/m` or `N/h` (`--rate-limit`); undefined when the text is not one of them. */
export function parseRatePolicy(text: string): RatePolicy | undefined {
  if (text === "auto") return { kind: "auto" };
  const match = /^(\d+(?:\.\d+)?)\/(s|m|h)$/.exec(text.trim());
  if (!match) return undefined;
  const count = Number(match[1]);
  if (!(count > 0)) return undefined;
  return { kind: "fixed", perSecond: count / unitSeconds[match[2]!]! };
}
