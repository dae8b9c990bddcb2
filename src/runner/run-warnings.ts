/**
 * What a green run's evidence lacks, said at its end (issue 31; Schemathesis ends each run the same way): suites or
 * cases left out (by configuration or skipped), cases judged on fewer items than their properties need, operations answered mostly 401/403/404 (judged on refusals), rate-
 * limit waits taking a large share of the run, and checks that judged nothing in the whole run. Each is a `warning`
 * event the reporters show in their warnings section; a run with warnings stays green unless
 * `--warnings-as-errors` says otherwise.
 * @module
 */

/** Share of an operation's answers that are refusals before it is said (and at least this many answers). */
const refusedShare = 0.5;
const refusedMinimum = 5;
/** Share of the run spent waiting for rate-limit windows before it is said. */
const waitedShare = 0.25;
/** Reasons and names listed per warning; the rest are counted. */
const listed = 3;

/** What a run met, as its engine and judge saw it. */
export interface RunEvidence {
  readonly durationMs: number;
  /** Cases of the run, skipped ones with their reason. */
  readonly cases: number;
  readonly skipped: readonly string[];
  /** Suites refused by the configuration (`--allow-writes` missing, ...), with the reason. */
  readonly refused: readonly { readonly suite: string; readonly reason: string }[];
  /** Per operation: answers and how many were 401, 403 or 404. */
  readonly answers: ReadonlyMap<string, { readonly total: number; readonly refused: number }>;
  /** Sum of the run's announced rate-limit waits. */
  readonly waitedMs: number;
  /** Enabled checks that never passed nor failed, each with its first skip reason (none: never applied). */
  readonly checksNeverJudged: ReadonlyMap<string, string | undefined>;
  /** Whether any exchange was judged at all (without, "checks judged nothing" says nothing new). */
  readonly exchanges: number;
  /** Cases that said they judge on less than their properties need (`<suite>/<case>: <reason>`). */
  readonly thin?: readonly string[];
}

function countedReasons(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, listed);
  const rest = counts.size - top.length;
  return `${top.map(([reason, count]) => `${count}: ${reason}`).join("; ")}${rest > 0 ? `; and ${rest} other reason(s)` : ""}`;
}

const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;

/** The run's warnings, in a fixed order (left out, refusals, waits, checks). */
export function runWarnings(evidence: RunEvidence): string[] {
  const warnings: string[] = [];
  if (evidence.refused.length > 0) {
    const names = evidence.refused.map((entry) => entry.suite);
    warnings.push(
      `left out: ${names.length} suite(s) not run by the configuration (${names.slice(0, listed).join(", ")}${names.length > listed ? ", ..." : ""}): ${countedReasons(evidence.refused.map((entry) => entry.reason))}`,
    );
  }
  if (evidence.skipped.length > 0 && evidence.cases > 0) {
    warnings.push(
      `left out: ${evidence.skipped.length} of ${evidence.cases} cases skipped (${percent(evidence.skipped.length, evidence.cases)}): ${countedReasons(evidence.skipped)}`,
    );
  }
  const thin = evidence.thin ?? [];
  if (thin.length > 0)
    warnings.push(
      `thin evidence: ${thin.length} judgement(s) on fewer items than their properties need: ${thin.slice(0, listed).join("; ")}${thin.length > listed ? "; ..." : ""}`,
    );
  const refusedOps = [...evidence.answers]
    .filter(([, seen]) => seen.total >= refusedMinimum && seen.refused / seen.total > refusedShare)
    .sort((a, b) => b[1].refused - a[1].refused);
  for (const [operationId, seen] of refusedOps.slice(0, listed * 2)) {
    warnings.push(
      `judged on refusals: ${operationId} answered 401/403/404 to ${seen.refused} of ${seen.total} requests (${percent(seen.refused, seen.total)}): its successes are barely judged (the token's scopes? ids that exist?)`,
    );
  }
  if (refusedOps.length > listed * 2)
    warnings.push(
      `judged on refusals: ${refusedOps.length - listed * 2} more operation(s) answered mostly 401/403/404`,
    );
  if (evidence.durationMs > 0 && evidence.waitedMs / evidence.durationMs > waitedShare) {
    warnings.push(
      `rate limits: the run waited ${Math.round(evidence.waitedMs / 1000)} s for rate-limit windows, ${percent(evidence.waitedMs, evidence.durationMs)} of its ${Math.round(evidence.durationMs / 1000)} s (with concurrent suites, waits overlap)`,
    );
  }
  if (evidence.exchanges > 0) {
    for (const [checkId, reason] of evidence.checksNeverJudged) {
      warnings.push(
        `checks: ${checkId} judged nothing in the whole run (${reason === undefined ? "it never applied" : `skipped: ${reason}`})`,
      );
    }
  }
  return warnings;
}
