/**
 * Section 6: a rate-limited run. The full writing run (every suite, writes allowed) against the reference server
 * in its own process with the description's limits for every caller (400 per minute for commands, 200 for
 * paginated GETs, 10 instance creations per 30 s), windows multiplied by `windowScale`; the run in another
 * process (`rate-limited-child.ts`). Judged from what the wire showed, not from the server's code:
 * - a limit class is the requests of one caller (a token, or the client address) answered with the same
 *   `X-RateLimit-Limit` (the reference's three classes have distinct limits; a target whose classes share a
 *   limit would have them merged here, which makes the bound higher, not lower: stricter on the runner);
 * - its window length is bounded from the answers: `Reset` is whole seconds rounded up, so a window that the
 *   answers say resets at R (seconds) and whose first answer came at t lasts more than (R - 1) s - t; the largest
 *   such figure over the class's windows is the length used (a lower bound, so the bound stays one);
 * - a class whose n counted requests (not 429) fit `limit` per window needs ceil(n / limit) windows, hence at
 *   least (ceil(n / limit) - 1) full windows between its first and last request;
 * - the run's lower bound is the largest over classes. Tighter bounds exist (a case's requests are sequential,
 *   so a class's windows cannot overlap other work of that case), but they need the run's dependency graph; the
 *   per-class bound needs only the headers and is what a perfect pacer with free CPU could reach.
 * Provoked 429s are answers 429 in suites other than `rate-limits`, whose drive provokes them on purpose.
 * @module
 */

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runBoundedChild } from "./bounded-child.ts";
import { formatMs, renderTable } from "./measure.ts";
import type { RateLimitedRunRecord, WireAnswer } from "./rate-limited-child.ts";
import { startServerChild } from "./server-child.ts";

const childFile = fileURLToPath(new URL("./rate-limited-child.ts", import.meta.url));

/** The suite whose own 429s are deliberate. */
export const rateLimitSuiteId = "rate-limits";
export const boundRatioGoal = 0.85;

export interface LimitClass {
  /** `run token`, `client address` or `token #i` (other tokens, in order of first use). */
  readonly caller: string;
  readonly limit: number;
  /** Requests counted against the limit (answered with the headers, not 429). */
  readonly requests: number;
  /** Windows the answers showed (distinct Reset values). */
  readonly windowsSeen: number;
  /** Window length bounds from the answers (ms): the lower one is used for the bound. */
  readonly windowMs: { readonly low: number; readonly high: number };
  /** (ceil(requests / limit) - 1) full windows. */
  readonly boundMs: number;
  /** First request sent to last answer, ms. */
  readonly spanMs: number;
  /** Distinct method + path, as a hint of which endpoints share the class. */
  readonly endpoints: number;
}

export interface RateBound {
  readonly classes: readonly LimitClass[];
  readonly boundMs: number;
  /** The class that sets the bound (undefined when none needs a second window). */
  readonly binding: LimitClass | undefined;
}

/** The per-class lower bound of the run's wall time, from the answers the wire showed. */
export function rateBound(answers: readonly WireAnswer[]): RateBound {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(answer.caller, (counts.get(answer.caller) ?? 0) + 1);
  // The run's own token is the authenticated caller with the most requests.
  const runToken = [...counts].filter(([caller]) => caller !== "").sort((a, b) => b[1] - a[1])[0]?.[0];
  const names = new Map<string, string>([["", "client address"]]);
  if (runToken !== undefined) names.set(runToken, "run token");
  const groups = new Map<string, WireAnswer[]>();
  for (const answer of answers) {
    if (answer.limit === undefined || answer.reset === undefined || answer.status === 429) continue;
    if (!names.has(answer.caller)) names.set(answer.caller, `token #${names.size - (runToken ? 1 : 0)}`);
    const key = `${answer.caller}\u0000${answer.limit}`;
    const group = groups.get(key);
    if (group) group.push(answer);
    else groups.set(key, [answer]);
  }
  const classes: LimitClass[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const limit = first.limit!;
    const windows = new Map<number, { sent: number; answered: number }>();
    for (const answer of group) {
      const window = windows.get(answer.reset!);
      if (!window) windows.set(answer.reset!, { sent: answer.sentAt, answered: answer.answeredAt });
      else {
        window.sent = Math.min(window.sent, answer.sentAt);
        window.answered = Math.min(window.answered, answer.answeredAt);
      }
    }
    let low = 0;
    let high = Number.POSITIVE_INFINITY;
    for (const [reset, window] of windows) {
      low = Math.max(low, (reset - 1) * 1000 - window.answered);
      high = Math.min(high, reset * 1000 - window.sent);
    }
    const needed = Math.ceil(group.length / limit);
    classes.push({
      caller: names.get(first.caller)!,
      limit,
      requests: group.length,
      windowsSeen: windows.size,
      windowMs: { low, high },
      boundMs: (needed - 1) * low,
      spanMs:
        Math.max(...group.map((answer) => answer.answeredAt)) -
        Math.min(...group.map((answer) => answer.sentAt)),
      endpoints: new Set(group.map((answer) => `${answer.method} ${answer.path}`)).size,
    });
  }
  classes.sort((a, b) => b.boundMs - a.boundMs || b.requests - a.requests);
  const binding = classes[0] && classes[0].boundMs > 0 ? classes[0] : undefined;
  return { classes, boundMs: binding?.boundMs ?? 0, binding };
}

/** 429 answers outside the rate-limits suite's own cases. */
export function provokedRateLimits(bySuite: Readonly<Record<string, number>>): number {
  return Object.entries(bySuite).reduce(
    (sum, [suite, count]) => (suite === rateLimitSuiteId ? sum : sum + count),
    0,
  );
}

export interface RateLimitedRunResult {
  readonly command: string;
  readonly windowScale: number;
  readonly wallMs: number;
  readonly bound: RateBound;
  /** bound / wall. */
  readonly ratio: number;
  readonly provoked429: number;
  readonly rateLimitedBySuite: Readonly<Record<string, number>>;
  readonly requests: number;
  readonly exitCode: number;
  readonly counts: Readonly<Record<string, number>>;
  /** Each skipped case with its reason (`suite/case: reason`). */
  readonly skipped: readonly string[];
  /** The run did not finish, or the toolkit failed: the figures do not describe a run. */
  readonly problems: readonly string[];
}

export async function benchRateLimitedRun(options: {
  windowScale: number;
  timeoutMs: number;
}): Promise<RateLimitedRunResult> {
  const server = await startServerChild({ rateWindowScale: options.windowScale });
  const work = mkdtempSync(join(tmpdir(), "conform-bench-rate-"));
  try {
    const caFile = join(work, "ca.pem");
    writeFileSync(caFile, server.certificatePem);
    const out = join(work, "run.json");
    const { timedOut, stderr } = await runBoundedChild([childFile], {
      timeoutMs: options.timeoutMs,
      env: {
        CONFORM_TOKEN: server.token,
        CONFORM_BENCH_RUN: JSON.stringify({
          baseUrl: server.baseUrl,
          authUrl: new URL(server.baseUrl).origin,
          caFile,
          login: server.login,
          out,
        }),
      },
    });
    const record = existsSync(out)
      ? (JSON.parse(readFileSync(out, "utf8")) as RateLimitedRunRecord)
      : undefined;
    const problems = [
      ...(timedOut ? [`the run did not finish in ${options.timeoutMs} ms (killed)`] : []),
      ...(record === undefined && !timedOut
        ? [`the run wrote no record: ${stderr.trim().split("\n").slice(-3).join(" | ")}`]
        : []),
      ...(record?.error ? [`the run failed: ${record.error}`] : []),
      ...(record && record.exitCode !== 0 && record.exitCode !== 1
        ? [`the run exited ${record.exitCode}`]
        : []),
    ];
    const bound = rateBound(record?.answers ?? []);
    const wallMs = record?.wallMs ?? Number.NaN;
    return {
      command: `node bench/rate-limited-child.ts (runConformance, every suite, --allow-writes) against bench/server-child.ts with the description's limits, windows x ${options.windowScale}`,
      windowScale: options.windowScale,
      wallMs,
      bound,
      ratio: bound.boundMs / wallMs,
      provoked429: provokedRateLimits(record?.rateLimitedBySuite ?? {}),
      rateLimitedBySuite: record?.rateLimitedBySuite ?? {},
      requests: record?.answers.length ?? 0,
      exitCode: record?.exitCode ?? -1,
      counts: record?.counts ?? {},
      skipped: record?.skipped ?? [],
      problems,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
    await server.close();
  }
}

export const rateLimitedGoalText = `a full writing run against the description's limits at least ${boundRatioGoal} of the per-class lower bound (bound / wall), and no 429 outside the rate-limits suite`;

/** Section 6's goal, judged from the figures. */
export function rateLimitedGoal(result: RateLimitedRunResult | undefined): {
  section: number;
  goal: string;
  measured: string;
  met: boolean | null;
} {
  if (!result) return { section: 6, goal: rateLimitedGoalText, measured: "not run", met: null };
  const measured = `bound ${formatMs(result.bound.boundMs)} / wall ${formatMs(result.wallMs)} = ${result.ratio.toFixed(2)}, ${result.provoked429} provoked 429`;
  if (result.problems.length > 0)
    return {
      section: 6,
      goal: rateLimitedGoalText,
      measured: `invalid: ${result.problems.join("; ")}`,
      met: null,
    };
  if (!result.bound.binding)
    return {
      section: 6,
      goal: rateLimitedGoalText,
      measured: `no class needed a second window (windows too long for this run?): ${measured}`,
      met: null,
    };
  return {
    section: 6,
    goal: rateLimitedGoalText,
    measured,
    met: result.ratio >= boundRatioGoal && result.provoked429 === 0,
  };
}

/** Section 6's lines in the printed report. */
export function renderRateLimited(result: RateLimitedRunResult | undefined): string[] {
  const title = "6. Rate-limited run (every suite, writes, the description's limits for every caller)";
  if (!result) return [title, "   not run"];
  const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
  // Tokens that suites mint make one or two requests each: their classes are summed up in one line.
  const shown = result.bound.classes.filter((one) => one.boundMs > 0 || one.requests >= 50);
  const rest = result.bound.classes.filter((one) => !shown.includes(one));
  const table = renderTable(
    ["caller", "limit", "requests", "windows seen", "window (from headers)", "bound", "first to last"],
    shown.map((limitClass) => [
      limitClass.caller,
      String(limitClass.limit),
      String(limitClass.requests),
      String(limitClass.windowsSeen),
      `${seconds(limitClass.windowMs.low)} to ${Number.isFinite(limitClass.windowMs.high) ? seconds(limitClass.windowMs.high) : "?"}`,
      seconds(limitClass.boundMs),
      seconds(limitClass.spanMs),
    ]),
  );
  const suites = Object.entries(result.rateLimitedBySuite)
    .map(([suite, count]) => `${suite} ${count}`)
    .join(", ");
  return [
    title,
    `   ${result.command}`,
    `   wall ${formatMs(result.wallMs)}, lower bound ${formatMs(result.bound.boundMs)} (${result.bound.binding ? `${result.bound.binding.caller}, limit ${result.bound.binding.limit}` : "no class needed a second window"}), bound/wall ${result.ratio.toFixed(2)}; ${result.requests} requests; 429s ${suites || "none"} (provoked outside ${rateLimitSuiteId}: ${result.provoked429}); exit ${result.exitCode}, cases ${JSON.stringify(result.counts)}`,
    ...table.split("\n").map((line) => `   ${line}`),
    ...(result.skipped.length > 0 ? [`   skipped against this target: ${result.skipped.join("; ")}`] : []),
    ...(rest.length > 0
      ? [
          `   and ${rest.length} more classes (${rest.reduce((sum, one) => sum + one.requests, 0)} requests, tokens minted by suites), none needing a second window`,
        ]
      : []),
    ...result.problems.map((problem) => `   INVALID: ${problem}`),
  ];
}
