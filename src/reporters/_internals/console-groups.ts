/**
 * The console's failure groups at the end of a run: a block per group, largest first (the check, the message's
 * shape, "N failures in M cases", the operations, the first few failures in full with their case, reproduction and
 * logs; the rest counted), a block per failing case without a group, then the groups again one line each. Pure:
 * lines from the record's groups and failing cases.
 * @internal
 */
import type { CaseFinished, FailureGroup } from "../../core/events.ts";
import { isAssertion } from "../../core/result.ts";
import type { Paint } from "./console-paint.ts";
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
} from "./failure-text.ts";
import { terminalSafe } from "./text.ts";

export interface GroupSectionInput {
  /** The run's groups, largest first. */
  readonly groups: readonly FailureGroup[];
  /** The cases that failed or errored, in order. */
  readonly failures: readonly CaseFinished[];
  /** Whether the target is the embedded server (its curl lines need `--insecure`). */
  readonly embedded: boolean;
  readonly maxGroups: number;
  readonly examplesPerGroup: number;
  readonly summaryGroups: number;
}

/** A failure line made terminal-safe and coloured, indented by `pad`. */
function styled(line: string, pad: string, paint: Paint): string {
  const safe = terminalSafe(line, true);
  if (safe.startsWith("✗ ")) return `${pad}${paint("red", "✗")}${safe.slice(1)}`;
  if (safe.startsWith("  reproduce: "))
    return `${pad}  reproduce: ${paint("cyan", safe.slice("  reproduce: ".length))}`;
  return `${pad}${safe}`;
}

function caseName(event: CaseFinished, paint: Paint): string {
  return `${paint("bold", terminalSafe(`${event.suiteId} › ${event.title}`, true))} ${paint("gray", `[${terminalSafe(event.caseId, true)}]`)}`;
}

/** What the section's examples share: options, colours, and the cases whose logs were told already. */
interface Writer {
  readonly text: FailureTextOptions;
  readonly paint: Paint;
  /** A case in several groups tells its logs and reproduction once. */
  readonly detailed: Set<CaseFinished>;
}

function exampleLines(example: GroupFailure, writer: Writer): string[] {
  const { event, check } = example;
  const lines = check
    ? checkLines(check, writer.text)
    : [`error ${event.error?.code ?? "ERROR"}: ${event.error?.message ?? ""}`];
  // The case's logs tell about its own assertions and errors, not about a check's verdict on an exchange (a header
  // wrong on every answer would repeat the logs of every case it was found in).
  const logs = (!check || isAssertion(check.result.checkId)) && !writer.detailed.has(event);
  if (logs) writer.detailed.add(event);
  const details = caseDetailLines(event, writer.text, logs);
  return [
    `  › ${caseName(event, writer.paint)}`,
    ...[...lines, ...details].map((line) => styled(line, "    ", writer.paint)),
  ];
}

/** "… and 3 more in 2 more cases: suite/case, …" after a group's examples, or nothing when all were shown. */
function moreLine(group: FailureGroup, examples: readonly GroupFailure[], paint: Paint): string[] {
  const shownFailures = examples.reduce((sum, one) => sum + (one.check?.result.count ?? 1), 0);
  const shownCases = new Set(examples.map((one) => `${one.event.suiteId}\u0000${one.event.caseId}`));
  const moreFailures = group.failures - shownFailures;
  if (moreFailures <= 0) return [];
  const moreCases = group.cases - shownCases.size;
  const named = group.firstCases
    .filter((one) => !shownCases.has(`${one.suiteId}\u0000${one.caseId}`))
    .map((one) => `${one.suiteId}/${one.caseId}`);
  const where =
    moreCases <= 0
      ? "in the same cases"
      : `in ${moreCases} more ${moreCases === 1 ? "case" : "cases"}${named.length ? `: ${named.join(", ")}${moreCases > named.length ? ", …" : ""}` : ""}`;
  return [paint("gray", `  … and ${moreFailures} more ${where}`)];
}

function groupBlock(
  group: FailureGroup,
  failures: readonly GroupFailure[],
  examplesPerGroup: number,
  writer: Writer,
): string[] {
  const { paint } = writer;
  const errored = group.checkId.startsWith("error:");
  const heading = `${paint(["red", "bold"], `── ${errored ? "ERROR" : "FAIL"}`)} ${paint("bold", terminalSafe(group.checkId, true))}  ${groupSize(group)}  ${paint("gray", `[group ${group.id}]`)}`;
  const lines = ["", heading, `  ${paint("gray", "shape:")} ${terminalSafe(group.shape, true)}`];
  const operations = groupOperations(group);
  if (operations) lines.push(`  ${paint("gray", "operations:")} ${terminalSafe(operations, true)}`);
  const examples = groupExamples(failures, examplesPerGroup);
  for (const example of examples) lines.push(...exampleLines(example, writer));
  return [...lines, ...moreLine(group, examples, paint)];
}

/** A case without a group (events from elsewhere than the engine): the case's failure in full. */
function ungroupedBlock(event: CaseFinished, writer: Writer): string[] {
  const label = event.status === "errored" ? "ERROR" : "FAIL";
  const heading = `${writer.paint(["red", "bold"], `── ${label}`)} ${caseName(event, writer.paint)}`;
  return ["", heading, ...failureLines(event, writer.text).map((line) => styled(line, "  ", writer.paint))];
}

/** The groups one line each, largest first. */
function groupList(groups: readonly FailureGroup[], shown: number, paint: Paint): string[] {
  if (groups.length === 0) return [];
  const lines = [
    "",
    paint("bold", `${groups.length} failure ${groups.length === 1 ? "group" : "groups"}, largest first:`),
  ];
  for (const group of groups.slice(0, shown)) {
    const shape = group.shape.length > 120 ? `${group.shape.slice(0, 120)}…` : group.shape;
    lines.push(
      `  ${paint("red", `${group.failures}×`)} ${terminalSafe(group.checkId, true)}: ${terminalSafe(shape, true)} ${paint("gray", `(${group.cases} ${group.cases === 1 ? "case" : "cases"}) [${group.id}]`)}`,
    );
  }
  if (groups.length > shown) lines.push(paint("gray", `  … and ${groups.length - shown} more`));
  return lines;
}

export function groupSectionLines(input: GroupSectionInput, paint: Paint): string[] {
  const { groups, maxGroups } = input;
  const writer: Writer = {
    text: { insecure: input.embedded, maxBody: 300, maxValue: 300 },
    paint,
    detailed: new Set(),
  };
  const byGroup = failuresByGroup(input.failures);
  const lines = groups
    .slice(0, maxGroups)
    .flatMap((group) => groupBlock(group, byGroup.get(group.id) ?? [], input.examplesPerGroup, writer));
  if (groups.length > maxGroups)
    lines.push(
      "",
      paint("gray", `… and ${groups.length - maxGroups} more failure groups: see the HTML or JSON report`),
    );
  // Cases whose failures carry no group (events from elsewhere than the engine) are shown one by one.
  const ungrouped = input.failures.filter(
    (event) =>
      !event.errorGroup &&
      !event.results.some((result) => result.outcome.status === "failed" && result.group !== undefined),
  );
  for (const event of ungrouped) lines.push(...ungroupedBlock(event, writer));
  return [...lines, ...groupList(groups, input.summaryGroups, paint)];
}
