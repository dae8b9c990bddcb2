/**
 * Everything a run needs, as the CLI and a config file give it, with frozen defaults.
 * @module
 */
import type { Baseline, SuiteDuration } from "./earlier-report.ts";
import type { Shard } from "./shard.ts";
import type { PropertyReplay } from "./suite-api.ts";

export type RatePolicy = { readonly kind: "auto" } | { readonly kind: "fixed"; readonly perSecond: number };

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
  readonly seed: number;
  /** Suites run at once (cases within a suite run in order). */
  readonly concurrency: number;
  readonly rate: RatePolicy;
  /** Per request: connect, headers and body each. */
  readonly timeoutMs: number;
  /** PEM file of a CA to trust, or undefined. */
  readonly caFile: string | undefined;
  readonly insecure: boolean;
  readonly reportDir: string;
  readonly reporters: readonly string[];
  readonly allowWrites: boolean;
  /** Stop starting new cases after this many failures (0: never stop). */
  readonly maxFailures: number;
  /** Bodies above this are cut (and the schema check skipped, saying so). */
  readonly maxResponseBytes: number;
  /** 429 answers retried per request, waiting `Retry-After` (capped by maxRetryWaitMs). */
  readonly maxRetries: number;
  readonly maxRetryWaitMs: number;
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
  seed: 0,
  concurrency: 4,
  rate: { kind: "auto" },
  timeoutMs: 30_000,
  caFile: undefined,
  insecure: false,
  reportDir: "reports",
  reporters: ["console", "json", "junit", "html", "markdown"],
  allowWrites: false,
  maxFailures: 0,
  maxResponseBytes: 8 * 1024 * 1024,
  maxRetries: 3,
  maxRetryWaitMs: 120_000,
  labelPrefix: "conform",
  propertyRuns: undefined,
  replayProperty: undefined,
  suiteOptions: {},
  faults: [],
  shard: undefined,
  durations: undefined,
  baseline: undefined,
} satisfies RunConfig);

/** Parses `auto`, `N/s` or `N/m` (`--rate-limit`); undefined when the text is not one of them. */
export function parseRatePolicy(text: string): RatePolicy | undefined {
  if (text === "auto") return { kind: "auto" };
  const match = /^(\d+(?:\.\d+)?)\/(s|m)$/.exec(text.trim());
  if (!match) return undefined;
  const count = Number(match[1]);
  if (!(count > 0)) return undefined;
  return { kind: "fixed", perSecond: match[2] === "s" ? count : count / 60 };
}
