/**
 * The console reporter: a progress bar while a long run goes (only on a terminal, never under CI), one line per
 * suite (✓/✗, counts, duration) and a line per reason its skipped cases were skipped, then a block per failure group, largest first (the engine's grouping: the check,
 * the message's shape, "N failures in M cases", the operations, the first few failures in full, each with its case,
 * expected vs actual, a response excerpt, the curl line that reproduces it with the token as `$CONFORM_TOKEN`, and
 * for a generated case its seed and replay command; the rest counted), the groups again one line each, and a final
 * summary line, the coverage table and the line "N of M operations exercised; K never requested". One failure repeated on every answer is one block, not thousands. Colours only on a terminal
 * (node:util `styleText`). Text that came from the target is made terminal-safe: a response cannot move the cursor
 * or recolour the terminal. The live part is `_internals/console-progress.ts`, the failure groups
 * `_internals/console-groups.ts` and the closing lines the pure `_internals/console-summary.ts`.
 * @module
 */
import type { RunStarted, SuiteFinished } from "../core/events.ts";
import { groupSectionLines } from "./_internals/console-groups.ts";
import {
  counted,
  countsText,
  labelsText,
  type Paint,
  painter,
  type Style,
} from "./_internals/console-paint.ts";
import { ConsoleProgress } from "./_internals/console-progress.ts";
import { type ConsoleSummaryInput, coverageTailLines, summaryLines } from "./_internals/console-summary.ts";
import { formatDuration } from "./_internals/durations.ts";
import { labelPrefixesOf, RunRecord, type SuiteStatus } from "./_internals/run-record.ts";
import { terminalSafe } from "./_internals/text.ts";
import type { ConsoleReporterOptions, Reporter, ReporterOptions } from "./types.ts";

/** Skipped cases named per reason on the console; the rest are counted (every one is in the reports). */
const skippedNamed = 3;

const suiteMark: Record<SuiteStatus, { mark: string; style: Style }> = {
  passed: { mark: "✓", style: "green" },
  failed: { mark: "✗", style: "red" },
  errored: { mark: "✗", style: ["red", "bold"] },
  skipped: { mark: "-", style: "yellow" },
  "not-run": { mark: "-", style: "gray" },
  incomplete: { mark: "■", style: "yellow" },
  interrupted: { mark: "■", style: "yellow" },
};

/** ` · seed 42`, or nothing for traffic conform did not make (`proxy`, `verify`: no values were generated). */
function seedText(seed: number, prefix: string): string {
  return prefix === "" ? "" : ` · seed ${seed}`;
}

export interface ConsoleReporterInternals extends ConsoleReporterOptions {
  /** Delay before the progress bar first shows, in ms (default 1000: short runs never see it). */
  readonly progressDelayMs?: number;
  /** Clock, for tests. */
  readonly now?: () => number;
  /** How often the console looks for a case waiting on an answer, in ms (default 1000). */
  readonly waitTickMs?: number;
  /** Without a progress bar, a line per case per this long without an answer, in ms (default 60000). */
  readonly waitNoticeMs?: number;
}

function suiteLine(record: RunRecord, event: SuiteFinished, paint: Paint): string {
  const suite = record.suites.get(event.suiteId);
  const { mark, style } = suiteMark[event.status];
  const title =
    suite && suite.title !== suite.id ? `  ${paint("gray", terminalSafe(suite.title, true))}` : "";
  return `${paint(style, mark)} ${paint("bold", terminalSafe(event.suiteId, true))}${title}  ${countsText(event.counts, paint)}  ${paint("gray", `(${formatDuration(event.durationMs)})`)}`;
}

/** One gray line per reason a suite's cases were skipped, naming the first few: nothing left out unsaid. */
function skipLines(record: RunRecord, suiteId: string, paint: Paint): string[] {
  const byReason = new Map<string, string[]>();
  for (const one of record.suites.get(suiteId)?.cases ?? []) {
    if (one.status !== "skipped") continue;
    const reason = one.skipReason ?? "no reason given";
    byReason.set(reason, [...(byReason.get(reason) ?? []), one.caseId]);
  }
  return [...byReason].map(([reason, ids]) => {
    const named = ids.slice(0, skippedNamed).join(", ");
    const more = ids.length > skippedNamed ? ` and ${ids.length - skippedNamed} more` : "";
    return paint("gray", `  - skipped ${terminalSafe(named, true)}${more}: ${terminalSafe(reason, true)}`);
  });
}

/** What the closing lines are made of, read from the record. */
export function summaryInputOf(record: RunRecord, maxCoverageRows: number): ConsoleSummaryInput {
  const started = record.started;
  return {
    status: record.status,
    ended: record.ended,
    counts: record.counts,
    exchanges: record.exchanges,
    rateLimited: record.rateLimited,
    retries: record.retries,
    latency: record.latency.summary(),
    durationMs: record.durationMs,
    runId: started?.runId ?? "",
    labelPrefixes: started ? labelPrefixesOf(started) : [],
    groups: record.groups(),
    baseline: record.finished?.baseline,
    interrupted: record.allCases().filter((one) => one.status === "interrupted"),
    unfinished: record.openCases,
    cleanupFailed: record.finished?.cleanup.failed ?? [],
    warnings: record.warnings.filter((warning) => warning.startsWith("warning: ")).map((one) => one.slice(9)),
    coverage: record.coverage(),
    failUnder: record.finished?.failUnder,
    notShown: record.finished?.notShown,
    maxCoverageRows,
  };
}

function rateLimitLine(event: { limit: string; waitMs: number; reason: string }, paint: Paint): string {
  const why =
    event.reason === "window"
      ? "its rate-limit window is spent (X-RateLimit-Remaining 0)"
      : event.reason === "retry-after"
        ? "answered 429 (Retry-After)"
        : "the --rate-limit budget";
  return paint(
    "gray",
    `⏳ waiting ${formatDuration(event.waitMs)} for ${terminalSafe(event.limit, true)}: ${why}`,
  );
}

/** The run's first line: tool, target, spec, seed, what is planned, the run id and its labels. */
function headerLine(event: RunStarted, planned: number, paint: Paint): string {
  const target = `${terminalSafe(event.target.baseUrl, true)}${event.target.embedded ? " (embedded reference)" : ""}`;
  return `${paint("bold", `conform ${terminalSafe(event.toolVersion, true)}`)} → ${target}  ${paint("gray", `spec ${terminalSafe(event.spec.version, true)}${seedText(event.seed, event.labelPrefix)} · ${counted(event.suites.length, "suite")}, ${counted(planned, "case")} · run ${terminalSafe(event.runId, true)}${labelsText(labelPrefixesOf(event))}`)}`;
}

/** The failure groups, then the closing lines, from what the record holds. */
function closingLines(record: RunRecord, own: ConsoleReporterInternals, paint: Paint): string[] {
  const groups = groupSectionLines(
    {
      groups: record.groups(),
      failures: record.failures(),
      embedded: record.started?.target.embedded ?? false,
      maxGroups: own.maxGroups ?? 30,
      examplesPerGroup: own.examplesPerGroup ?? 2,
      summaryGroups: own.summaryGroups ?? 20,
    },
    paint,
  );
  return [...groups, ...summaryLines(summaryInputOf(record, own.maxCoverageRows ?? 100), paint)];
}

/**
 * The run's closing lines, printed once: the summary when the run finishes (or at close, when it never said), and
 * the coverage line on close, the output's last (after the CLI named the report files).
 */
function closingPrinter(
  record: RunRecord,
  own: ConsoleReporterInternals,
  paint: Paint,
  progress: ConsoleProgress,
): { summarise: () => void; tail: () => void } {
  let summarised = false;
  let tailed = false;
  const summarise = (): void => {
    progress.stop();
    if (summarised || !record.started) return;
    summarised = true;
    for (const line of closingLines(record, own, paint)) progress.print(line);
  };
  const tail = (): void => {
    summarise();
    if (tailed || !record.started) return;
    tailed = true;
    const input = summaryInputOf(record, own.maxCoverageRows ?? 100);
    for (const line of coverageTailLines(input, paint)) progress.print(line);
  };
  return { summarise, tail };
}

export function createConsoleReporter(
  options: ReporterOptions,
  own: ConsoleReporterInternals = {},
): Reporter {
  const paint = painter(options.color ?? options.isTTY);
  const now = own.now ?? Date.now;
  const progress = new ConsoleProgress({
    stream: options.stream,
    paint,
    bar: options.isTTY && !options.ci,
    intervalMs: own.progressIntervalMs ?? 100,
    delayMs: own.progressDelayMs ?? 1000,
    noticeMs: own.waitNoticeMs ?? 60_000,
    tickMs: own.waitTickMs ?? 1000,
    now,
  });
  const record = new RunRecord();
  const { summarise, tail } = closingPrinter(record, own, paint, progress);

  return {
    name: "console",
    files: [],
    ...record.hooks,
    "run-started": (event) => {
      record.hooks["run-started"](event);
      const planned = event.suites.reduce((sum, suite) => sum + suite.cases, 0);
      progress.start(planned);
      progress.print(headerLine(event, planned, paint));
    },
    "suite-started": (event) => {
      record.hooks["suite-started"](event);
      progress.suite(event.suiteId);
    },
    "case-started": (event) => {
      record.hooks["case-started"](event);
      progress.waiting.started(event.suiteId, event.caseId, event.title, now());
    },
    exchange: (event) => {
      record.hooks.exchange(event);
      progress.waiting.heard(event.suiteId, event.caseId, now());
    },
    "case-finished": (event) => {
      record.hooks["case-finished"](event);
      progress.waiting.finished(event.suiteId, event.caseId);
      progress.caseDone(event.status === "failed" || event.status === "errored");
    },
    "suite-finished": (event) => {
      record.hooks["suite-finished"](event);
      progress.print(suiteLine(record, event, paint));
      for (const line of skipLines(record, event.suiteId, paint)) progress.print(line);
      progress.draw(true);
    },
    "rate-limit-wait": (event) => {
      progress.paced(event.waitMs);
      progress.print(rateLimitLine(event, paint));
      progress.draw(true);
    },
    warning: (event) => {
      record.hooks.warning(event);
      // The run's end warnings are printed together in the summary's warnings section.
      if (event.message.startsWith("warning: ")) return;
      progress.print(`${paint("yellow", "⚠")} ${terminalSafe(event.message, true)}`);
      progress.draw(true);
    },
    "run-finished": (event) => {
      record.hooks["run-finished"](event);
      summarise();
    },
    async close() {
      tail();
    },
  };
}
