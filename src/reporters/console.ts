/**
 * The console reporter: a progress bar while a long run goes (only on a terminal, never under CI), one line per
 * suite (✓/✗, counts, duration), then a block per failure (suite and case, the operation, each failed check with
 * expected vs actual, a response excerpt, the curl line that reproduces it with the token as `$CONFORM_TOKEN`, and
 * for a generated case its seed and replay command), and a final summary line. Colours only on a terminal
 * (node:util `styleText`). Text that came from the target is made terminal-safe: a response cannot move the cursor
 * or recolour the terminal.
 * @module
 */
import { styleText } from "node:util";
import type { CaseFinished, SuiteFinished } from "../core/events.ts";
import { formatDuration } from "./_internals/durations.ts";
import { failureLines } from "./_internals/failure-text.ts";
import { RunRecord, type SuiteStatus, totalOf } from "./_internals/run-record.ts";
import { terminalSafe } from "./_internals/text.ts";
import type { ConsoleReporterOptions, Reporter, ReporterOptions } from "./types.ts";

type Style = Parameters<typeof styleText>[0];

const suiteMark: Record<SuiteStatus, { mark: string; style: Style }> = {
  passed: { mark: "✓", style: "green" },
  failed: { mark: "✗", style: "red" },
  errored: { mark: "✗", style: ["red", "bold"] },
  skipped: { mark: "-", style: "yellow" },
  "not-run": { mark: "-", style: "gray" },
  incomplete: { mark: "■", style: "yellow" },
};

export interface ConsoleReporterInternals extends ConsoleReporterOptions {
  /** Delay before the progress bar first shows, in ms (default 1000: short runs never see it). */
  readonly progressDelayMs?: number;
  /** Clock, for tests. */
  readonly now?: () => number;
}

export function createConsoleReporter(
  options: ReporterOptions,
  own: ConsoleReporterInternals = {},
): Reporter {
  const { stream } = options;
  const color = options.color ?? options.isTTY;
  const progressEnabled = options.isTTY && !options.ci;
  const maxFailures = own.maxFailures ?? 50;
  const interval = own.progressIntervalMs ?? 100;
  const delay = own.progressDelayMs ?? 1000;
  const now = own.now ?? Date.now;
  const record = new RunRecord();
  let plannedCases = 0;
  let doneCases = 0;
  let failedCases = 0;
  let startedAt = 0;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let barShown = false;
  let currentSuite = "";
  let summarised = false;

  const paint = (style: Style, text: string): string =>
    color ? styleText(style, text, { validateStream: false }) : text;

  const clearBar = (): void => {
    if (!barShown) return;
    stream.write("\r\u001b[2K");
    barShown = false;
  };

  const print = (line: string): void => {
    clearBar();
    stream.write(`${line}\n`);
  };

  const drawBar = (force = false): void => {
    if (!progressEnabled || plannedCases === 0) return;
    const time = now();
    if (time - startedAt < delay) return;
    if (!force && time - lastDraw < interval) return;
    lastDraw = time;
    const width = 24;
    const ratio = Math.min(1, doneCases / plannedCases);
    const filled = Math.round(ratio * width);
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
    const failed = failedCases > 0 ? paint("red", ` · ${failedCases} failed`) : "";
    const where = currentSuite ? paint("gray", ` · ${terminalSafe(currentSuite, true)}`) : "";
    stream.write(`\r\u001b[2K${paint("cyan", bar)} ${doneCases}/${plannedCases} cases${failed}${where}`);
    barShown = true;
  };

  const countsText = (counts: {
    passed: number;
    failed: number;
    skipped: number;
    errored: number;
  }): string => {
    const parts: string[] = [];
    if (counts.failed) parts.push(paint("red", `${counts.failed} failed`));
    if (counts.errored) parts.push(paint("red", `${counts.errored} errored`));
    parts.push(`${counts.passed} passed`);
    if (counts.skipped) parts.push(paint("yellow", `${counts.skipped} skipped`));
    return parts.join(", ");
  };

  const suiteLine = (event: SuiteFinished): string => {
    const suite = record.suites.get(event.suiteId);
    const { mark, style } = suiteMark[event.status];
    const title =
      suite && suite.title !== suite.id ? `  ${paint("gray", terminalSafe(suite.title, true))}` : "";
    return `${paint(style, mark)} ${paint("bold", terminalSafe(event.suiteId, true))}${title}  ${countsText(event.counts)}  ${paint("gray", `(${formatDuration(event.durationMs)})`)}`;
  };

  const failureBlock = (event: CaseFinished): string[] => {
    const insecure = record.started?.target.embedded ?? false;
    const label = event.status === "errored" ? "ERROR" : "FAIL";
    const heading = `${paint(["red", "bold"], `── ${label}`)} ${paint("bold", terminalSafe(`${event.suiteId} › ${event.title}`, true))} ${paint("gray", `[${terminalSafe(event.caseId, true)}]`)}`;
    const body = failureLines(event, { insecure, maxBody: 300, maxValue: 300 }).map((line) => {
      const safe = terminalSafe(line, true);
      if (safe.startsWith("✗ ")) return `  ${paint("red", "✗")}${safe.slice(1)}`;
      if (safe.startsWith("  reproduce: "))
        return `    reproduce: ${paint("cyan", safe.slice("  reproduce: ".length))}`;
      return `  ${safe}`;
    });
    return ["", heading, ...body];
  };

  const summarise = (): void => {
    if (summarised || !record.started) return;
    summarised = true;
    clearBar();
    const failures = record.failures();
    for (const event of failures.slice(0, maxFailures)) for (const line of failureBlock(event)) print(line);
    if (failures.length > maxFailures) {
      print("");
      print(
        paint("gray", `… and ${failures.length - maxFailures} more failures: see the HTML or JSON report`),
      );
    }
    const open = record.openCases;
    if (open.length > 0) {
      print("");
      for (const one of open) {
        print(`${paint("yellow", "■")} unfinished: ${terminalSafe(`${one.suiteId} › ${one.title}`, true)}`);
      }
    }
    const cleanup = record.finished?.cleanup;
    if (cleanup && cleanup.failed.length > 0) {
      print("");
      print(
        paint(
          "yellow",
          `cleanup left ${cleanup.failed.length} resource(s) behind (conform cleanup removes them):`,
        ),
      );
      for (const one of cleanup.failed) print(`  ${terminalSafe(one, true)}`);
    }
    const status = record.status;
    const counts = record.counts;
    const verdict =
      status === "passed"
        ? paint(["green", "bold"], "✓ PASSED")
        : status === "interrupted"
          ? paint(["yellow", "bold"], record.complete ? "■ INTERRUPTED" : "■ STOPPED before the run finished")
          : paint(["red", "bold"], status === "errored" ? "✗ ERRORED" : "✗ FAILED");
    const latency = record.latency.summary();
    const facts = [
      `${countsText(counts)} (${totalOf(counts)} cases)`,
      `${record.exchanges} exchanges${record.rateLimited ? `, ${record.rateLimited} × 429` : ""}${record.retries ? `, ${record.retries} retries` : ""}`,
      `${record.exercisedOperations()}/${record.coverage().total} operations`,
      ...(latency.p50Ms === null
        ? []
        : [`p50 ${formatDuration(latency.p50Ms)}, p99 ${formatDuration(latency.p99Ms ?? 0)}`]),
      ...(record.durationMs === undefined ? [] : [formatDuration(record.durationMs)]),
    ];
    print("");
    print(`${verdict}  ${facts.join(paint("gray", " · "))}`);
    const { runId, labelPrefix } = record.started;
    print(paint("gray", `run ${terminalSafe(runId, true)} · labels ${terminalSafe(labelPrefix, true)}-*`));
  };

  return {
    name: "console",
    files: [],
    ...record.hooks,
    "run-started": (event) => {
      record.hooks["run-started"](event);
      startedAt = now();
      plannedCases = event.suites.reduce((sum, suite) => sum + suite.cases, 0);
      const target = `${terminalSafe(event.target.baseUrl, true)}${event.target.embedded ? " (embedded reference)" : ""}`;
      print(
        `${paint("bold", `conform ${terminalSafe(event.toolVersion, true)}`)} → ${target}  ${paint("gray", `spec ${terminalSafe(event.spec.version, true)} · seed ${event.seed} · ${event.suites.length} suites, ${plannedCases} cases · run ${terminalSafe(event.runId, true)} · labels ${terminalSafe(event.labelPrefix, true)}-*`)}`,
      );
    },
    "suite-started": (event) => {
      record.hooks["suite-started"](event);
      currentSuite = event.suiteId;
    },
    "case-finished": (event) => {
      record.hooks["case-finished"](event);
      doneCases += 1;
      if (event.status === "failed" || event.status === "errored") failedCases += 1;
      drawBar();
    },
    "suite-finished": (event) => {
      record.hooks["suite-finished"](event);
      print(suiteLine(event));
      drawBar(true);
    },
    "rate-limit-wait": (event) => {
      const why =
        event.reason === "window"
          ? "its rate-limit window is spent (X-RateLimit-Remaining 0)"
          : event.reason === "retry-after"
            ? "answered 429 (Retry-After)"
            : "the --rate-limit budget";
      print(
        paint(
          "gray",
          `⏳ waiting ${formatDuration(event.waitMs)} for ${terminalSafe(event.limit, true)}: ${why}`,
        ),
      );
      drawBar(true);
    },
    warning: (event) => {
      record.hooks.warning(event);
      print(`${paint("yellow", "⚠")} ${terminalSafe(event.message, true)}`);
      drawBar(true);
    },
    "run-finished": (event) => {
      record.hooks["run-finished"](event);
      summarise();
    },
    async close() {
      summarise();
    },
  };
}
