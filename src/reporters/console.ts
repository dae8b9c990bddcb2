/**
 * The console reporter: a progress bar while a long run goes (only on a terminal, never under CI), one line per
 * suite (✓/✗, counts, duration) and a line per reason its skipped cases were skipped, then a block per failure group, largest first (the engine's grouping: the check,
 * the message's shape, "N failures in M cases", the operations, the first few failures in full, each with its case,
 * expected vs actual, a response excerpt, the curl line that reproduces it with the token as `$CONFORM_TOKEN`, and
 * for a generated case its seed and replay command; the rest counted), the groups again one line each, and a final
 * summary line. One failure repeated on every answer is one block, not thousands. Colours only on a terminal
 * (node:util `styleText`). Text that came from the target is made terminal-safe: a response cannot move the cursor
 * or recolour the terminal.
 * @module
 */
import { styleText } from "node:util";
import type { CaseFinished, FailureGroup, SuiteFinished } from "../core/events.ts";
import { isAssertion } from "../core/result.ts";
import { formatDuration } from "./_internals/durations.ts";
import {
  caseDetailLines,
  checkLines,
  type FailureTextOptions,
  failureLines,
  failuresByGroup,
  type GroupFailure,
  groupExamples,
  groupOperations,
  groupSize,
} from "./_internals/failure-text.ts";
import { RunRecord, type SuiteStatus, totalOf } from "./_internals/run-record.ts";
import { terminalSafe } from "./_internals/text.ts";
import { WaitingCases } from "./_internals/waiting-cases.ts";
import type { ConsoleReporterOptions, Reporter, ReporterOptions } from "./types.ts";

type Style = Parameters<typeof styleText>[0];

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

/** ` · labels <prefix>-*`, or nothing for a run that labels nothing (traffic judged by `proxy`, `verify`). */
function labelsText(prefix: string): string {
  return prefix === "" ? "" : ` · labels ${terminalSafe(prefix, true)}-*`;
}

/** ` · seed 42`, or nothing for traffic conform did not make (`proxy`, `verify`: no values were generated). */
function seedText(seed: number, prefix: string): string {
  return prefix === "" ? "" : ` · seed ${seed}`;
}

/** "1 suite", "3 cases". */
function counted(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
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

/** On the progress bar, a case is shown waiting once it has had no answer for this long. */
const barWaitMs = 3000;

export function createConsoleReporter(
  options: ReporterOptions,
  own: ConsoleReporterInternals = {},
): Reporter {
  const { stream } = options;
  const color = options.color ?? options.isTTY;
  const progressEnabled = options.isTTY && !options.ci;
  const maxGroups = own.maxGroups ?? 30;
  const examplesPerGroup = own.examplesPerGroup ?? 2;
  const summaryGroups = own.summaryGroups ?? 20;
  const interval = own.progressIntervalMs ?? 100;
  const delay = own.progressDelayMs ?? 1000;
  const now = own.now ?? Date.now;
  const noticeMs = own.waitNoticeMs ?? 60_000;
  const record = new RunRecord();
  const waiting = new WaitingCases();
  let waitTicker: ReturnType<typeof setInterval> | undefined;
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
    const slow = waiting.longest(time, barWaitMs);
    const where = slow
      ? paint("yellow", ` · ${terminalSafe(slow.label, true)}: no answer for ${formatDuration(slow.quietMs)}`)
      : currentSuite
        ? paint("gray", ` · ${terminalSafe(currentSuite, true)}`)
        : "";
    stream.write(`\r\u001b[2K${paint("cyan", bar)} ${doneCases}/${plannedCases} cases${failed}${where}`);
    barShown = true;
  };

  /** A case waiting on a slow answer shows: on the bar, or in a line per minute where there is no bar. */
  const showWaiting = (): void => {
    if (progressEnabled) {
      drawBar(true);
      return;
    }
    for (const slow of waiting.due(now(), noticeMs))
      print(
        paint(
          "gray",
          `⏳ still running: ${terminalSafe(slow.label, true)}: no answer for ${formatDuration(slow.quietMs)}`,
        ),
      );
  };

  const stopWaiting = (): void => {
    clearInterval(waitTicker);
    waitTicker = undefined;
    waiting.clear();
  };

  const countsText = (counts: {
    passed: number;
    failed: number;
    skipped: number;
    errored: number;
    interrupted: number;
  }): string => {
    const parts: string[] = [];
    if (counts.failed) parts.push(paint("red", `${counts.failed} failed`));
    if (counts.errored) parts.push(paint("red", `${counts.errored} errored`));
    parts.push(`${counts.passed} passed`);
    if (counts.skipped) parts.push(paint("yellow", `${counts.skipped} skipped`));
    if (counts.interrupted) parts.push(paint("yellow", `${counts.interrupted} interrupted`));
    return parts.join(", ");
  };

  const suiteLine = (event: SuiteFinished): string => {
    const suite = record.suites.get(event.suiteId);
    const { mark, style } = suiteMark[event.status];
    const title =
      suite && suite.title !== suite.id ? `  ${paint("gray", terminalSafe(suite.title, true))}` : "";
    return `${paint(style, mark)} ${paint("bold", terminalSafe(event.suiteId, true))}${title}  ${countsText(event.counts)}  ${paint("gray", `(${formatDuration(event.durationMs)})`)}`;
  };

  /** One gray line per reason a suite's cases were skipped, naming the first few: nothing left out unsaid. */
  const skipLines = (suiteId: string): string[] => {
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
  };

  const textOptions = (): FailureTextOptions => ({
    insecure: record.started?.target.embedded ?? false,
    maxBody: 300,
    maxValue: 300,
  });

  /** A failure line made terminal-safe and coloured, indented by `pad`. */
  const styled = (line: string, pad: string): string => {
    const safe = terminalSafe(line, true);
    if (safe.startsWith("✗ ")) return `${pad}${paint("red", "✗")}${safe.slice(1)}`;
    if (safe.startsWith("  reproduce: "))
      return `${pad}  reproduce: ${paint("cyan", safe.slice("  reproduce: ".length))}`;
    return `${pad}${safe}`;
  };

  const caseName = (event: CaseFinished): string =>
    `${paint("bold", terminalSafe(`${event.suiteId} › ${event.title}`, true))} ${paint("gray", `[${terminalSafe(event.caseId, true)}]`)}`;

  /** A case without a group (events from elsewhere than the engine): the case's failure in full. */
  const failureBlock = (event: CaseFinished): string[] => {
    const label = event.status === "errored" ? "ERROR" : "FAIL";
    const heading = `${paint(["red", "bold"], `── ${label}`)} ${caseName(event)}`;
    return ["", heading, ...failureLines(event, textOptions()).map((line) => styled(line, "  "))];
  };

  /** Cases whose logs and reproduction were printed already: a case in several groups tells them once. */
  const detailed = new Set<CaseFinished>();
  const exampleLines = (example: GroupFailure): string[] => {
    const { event, check } = example;
    const lines = check
      ? checkLines(check, textOptions())
      : [`error ${event.error?.code ?? "ERROR"}: ${event.error?.message ?? ""}`];
    // The case's logs tell about its own assertions and errors, not about a check's verdict on an exchange (a header
    // wrong on every answer would repeat the logs of every case it was found in).
    const logs = (!check || isAssertion(check.result.checkId)) && !detailed.has(event);
    if (logs) detailed.add(event);
    const details = caseDetailLines(event, textOptions(), logs);
    return [`  › ${caseName(event)}`, ...[...lines, ...details].map((line) => styled(line, "    "))];
  };

  const groupBlock = (group: FailureGroup, failures: readonly GroupFailure[]): string[] => {
    const errored = group.checkId.startsWith("error:");
    const heading = `${paint(["red", "bold"], `── ${errored ? "ERROR" : "FAIL"}`)} ${paint("bold", terminalSafe(group.checkId, true))}  ${groupSize(group)}  ${paint("gray", `[group ${group.id}]`)}`;
    const lines = ["", heading, `  ${paint("gray", "shape:")} ${terminalSafe(group.shape, true)}`];
    const operations = groupOperations(group);
    if (operations) lines.push(`  ${paint("gray", "operations:")} ${terminalSafe(operations, true)}`);
    const examples = groupExamples(failures, examplesPerGroup);
    for (const example of examples) lines.push(...exampleLines(example));
    const shownFailures = examples.reduce((sum, one) => sum + (one.check?.result.count ?? 1), 0);
    const shownCases = new Set(examples.map((one) => `${one.event.suiteId}\u0000${one.event.caseId}`));
    const moreFailures = group.failures - shownFailures;
    if (moreFailures > 0) {
      const moreCases = group.cases - shownCases.size;
      const named = group.firstCases
        .filter((one) => !shownCases.has(`${one.suiteId}\u0000${one.caseId}`))
        .map((one) => `${one.suiteId}/${one.caseId}`);
      const where =
        moreCases <= 0
          ? "in the same cases"
          : `in ${moreCases} more ${moreCases === 1 ? "case" : "cases"}${named.length ? `: ${named.join(", ")}${moreCases > named.length ? ", …" : ""}` : ""}`;
      lines.push(paint("gray", `  … and ${moreFailures} more ${where}`));
    }
    return lines;
  };

  const summarise = (): void => {
    if (summarised || !record.started) return;
    summarised = true;
    clearBar();
    const failures = record.failures();
    const groups = record.groups();
    const byGroup = failuresByGroup(failures);
    for (const group of groups.slice(0, maxGroups))
      for (const line of groupBlock(group, byGroup.get(group.id) ?? [])) print(line);
    if (groups.length > maxGroups) {
      print("");
      print(
        paint("gray", `… and ${groups.length - maxGroups} more failure groups: see the HTML or JSON report`),
      );
    }
    // Cases whose failures carry no group (events from elsewhere than the engine) are shown one by one.
    const ungrouped = failures.filter(
      (event) =>
        !event.errorGroup &&
        !event.results.some((result) => result.outcome.status === "failed" && result.group !== undefined),
    );
    for (const event of ungrouped) for (const line of failureBlock(event)) print(line);
    if (groups.length > 0) {
      print("");
      print(
        paint("bold", `${groups.length} failure ${groups.length === 1 ? "group" : "groups"}, largest first:`),
      );
      for (const group of groups.slice(0, summaryGroups)) {
        print(
          `  ${paint("red", `${group.failures}×`)} ${terminalSafe(group.checkId, true)}: ${terminalSafe(group.shape.length > 120 ? `${group.shape.slice(0, 120)}…` : group.shape, true)} ${paint("gray", `(${group.cases} ${group.cases === 1 ? "case" : "cases"}) [${group.id}]`)}`,
        );
      }
      if (groups.length > summaryGroups)
        print(paint("gray", `  … and ${groups.length - summaryGroups} more`));
    }
    const baseline = record.finished?.baseline;
    if (baseline) {
      print("");
      print(
        paint(
          "bold",
          `baseline ${terminalSafe(baseline.source, true)}: ${baseline.new.length} new, ${baseline.known.length} known, ${baseline.fixed.length} fixed`,
        ),
      );
      const byId = new Map(groups.map((group) => [group.id, group]));
      for (const id of baseline.new) {
        const group = byId.get(id);
        if (group)
          print(
            `  ${paint("red", "new")} ${terminalSafe(group.checkId, true)}: ${terminalSafe(group.shape, true)} [${id}]`,
          );
      }
      for (const group of baseline.fixed)
        print(
          `  ${paint("green", "fixed")} ${terminalSafe(group.checkId, true)}: ${terminalSafe(group.shape, true)} [${group.id}]`,
        );
      if (baseline.new.length === 0 && baseline.known.length > 0)
        print(paint("gray", "  only known failures: the exit code does not fail"));
    }
    const interrupted = record.allCases().filter((one) => one.status === "interrupted");
    const open = record.openCases;
    if (interrupted.length + open.length > 0) print("");
    for (const one of interrupted)
      print(`${paint("yellow", "■")} interrupted: ${terminalSafe(`${one.suiteId} › ${one.title}`, true)}`);
    if (open.length > 0) {
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
    // The run's end warnings (thin evidence) as one section, before the verdict; others were said as they came.
    const ending = record.warnings.filter((warning) => warning.startsWith("warning: "));
    if (ending.length > 0) {
      print("");
      print(paint("yellow", `Warnings (${ending.length}): the evidence is thinner than the verdict says`));
      for (const warning of ending)
        print(`  ${paint("yellow", "⚠")} ${terminalSafe(warning.slice(9), true)}`);
    }
    const status = record.status;
    const counts = record.counts;
    const verdict =
      status === "passed"
        ? paint(["green", "bold"], "✓ PASSED")
        : status === "interrupted"
          ? paint(["yellow", "bold"], record.ended ? "■ INTERRUPTED" : "■ STOPPED before the run finished")
          : paint(["red", "bold"], status === "errored" ? "✗ ERRORED" : "✗ FAILED");
    const latency = record.latency.summary();
    const facts = [
      `${countsText(counts)} (${counted(totalOf(counts), "case")})`,
      `${record.exchanges} exchanges${record.rateLimited ? `, ${record.rateLimited} × 429` : ""}${record.retries ? `, ${record.retries} retries` : ""}`,
      `${record.exercisedOperations()}/${record.coverage().total} operations`,
      ...(latency.p50Ms === null
        ? []
        : [`p50 ${formatDuration(latency.p50Ms)}, p99 ${formatDuration(latency.p99Ms ?? 0)}`]),
      ...(record.durationMs === undefined ? [] : [formatDuration(record.durationMs)]),
      ...(ending.length > 0 ? [counted(ending.length, "warning")] : []),
    ];
    print("");
    print(`${verdict}  ${facts.join(paint("gray", " · "))}`);
    const { runId, labelPrefix } = record.started;
    print(paint("gray", `run ${terminalSafe(runId, true)}${labelsText(labelPrefix)}`));
  };

  return {
    name: "console",
    files: [],
    ...record.hooks,
    "run-started": (event) => {
      record.hooks["run-started"](event);
      startedAt = now();
      plannedCases = event.suites.reduce((sum, suite) => sum + suite.cases, 0);
      waitTicker ??= setInterval(showWaiting, own.waitTickMs ?? 1000);
      // The run's own work keeps the process alive; this only watches it.
      waitTicker.unref?.();
      const target = `${terminalSafe(event.target.baseUrl, true)}${event.target.embedded ? " (embedded reference)" : ""}`;
      print(
        `${paint("bold", `conform ${terminalSafe(event.toolVersion, true)}`)} → ${target}  ${paint("gray", `spec ${terminalSafe(event.spec.version, true)}${seedText(event.seed, event.labelPrefix)} · ${counted(event.suites.length, "suite")}, ${counted(plannedCases, "case")} · run ${terminalSafe(event.runId, true)}${labelsText(event.labelPrefix)}`)}`,
      );
    },
    "suite-started": (event) => {
      record.hooks["suite-started"](event);
      currentSuite = event.suiteId;
    },
    "case-started": (event) => {
      record.hooks["case-started"](event);
      waiting.started(event.suiteId, event.caseId, event.title, now());
    },
    exchange: (event) => {
      record.hooks.exchange(event);
      waiting.heard(event.suiteId, event.caseId, now());
    },
    "case-finished": (event) => {
      record.hooks["case-finished"](event);
      waiting.finished(event.suiteId, event.caseId);
      doneCases += 1;
      if (event.status === "failed" || event.status === "errored") failedCases += 1;
      drawBar();
    },
    "suite-finished": (event) => {
      record.hooks["suite-finished"](event);
      print(suiteLine(event));
      for (const line of skipLines(event.suiteId)) print(line);
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
      // The run's end warnings are printed together in the summary's warnings section.
      if (event.message.startsWith("warning: ")) return;
      print(`${paint("yellow", "⚠")} ${terminalSafe(event.message, true)}`);
      drawBar(true);
    },
    "run-finished": (event) => {
      record.hooks["run-finished"](event);
      stopWaiting();
      summarise();
    },
    async close() {
      stopWaiting();
      summarise();
    },
  };
}
