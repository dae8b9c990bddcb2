/**
 * A failed case told as plain text, the same way in the console, JUnit and Markdown: for each failed check, its
 * message and expected vs actual; the operation and the response it judged (status and a body excerpt); the curl
 * line that reproduces the request; and for a generated case the seed, path, counterexample and replay command.
 * Also the failures of one group (the engine's grouping) found among the finished cases, for the group views.
 * @internal
 */
import type { CaseFinished, FailureGroup } from "../../core/events.ts";
import type { Exchange } from "../../core/exchange.ts";
import type { CheckResult, Reproduction } from "../../core/result.ts";
import { curlLine } from "./curl.ts";
import { excerpt, formatValue } from "./text.ts";

export interface FailedCheck {
  readonly result: CheckResult;
  readonly message: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly hasExpected: boolean;
  readonly hasActual: boolean;
  readonly exchange: Exchange | undefined;
}

export function failedChecks(event: CaseFinished): FailedCheck[] {
  return event.results.flatMap((result) => {
    const { outcome } = result;
    if (outcome.status !== "failed") return [];
    return [
      {
        result,
        message: outcome.message,
        expected: outcome.expected,
        actual: outcome.actual,
        hasExpected: "expected" in outcome,
        hasActual: "actual" in outcome,
        exchange: event.exchanges.find((one) => one.id === result.exchangeId),
      },
    ];
  });
}

/**
 * `check-id: message`; an assertion whose message is its own name (`t.expect(name, ok)` with no message of its
 * own) is said once: `assert:name`, not `assert:name: name`, and so is one whose message starts with its name (the
 * toolkit's `name: what came`): `assert:name: what came`.
 */
function saying(checkId: string, message: string): string {
  if (checkId === `assert:${message}`) return checkId;
  const named = checkId.startsWith("assert:") ? `${checkId.slice("assert:".length)}: ` : undefined;
  return named !== undefined && message.startsWith(named)
    ? `${checkId}: ${message.slice(named.length)}`
    : `${checkId}: ${message}`;
}

/** The first failure's message, as one summary line (`check-id: message`), or the error for an errored case. */
export function firstMessage(event: CaseFinished): string {
  const first = failedChecks(event)[0];
  if (event.status === "errored" && event.error) return `${event.error.code}: ${event.error.message}`;
  if (first) return saying(first.result.checkId, first.message);
  return event.skipReason ?? event.status;
}

/** `GET /v4/linode/instances/7 (getComputeInstance)` */
export function operationLine(exchange: Exchange): string {
  const { pathname, search } = URL.parse(exchange.request.url) ?? {
    pathname: exchange.request.url,
    search: "",
  };
  const operation = exchange.operationId ? ` (${exchange.operationId})` : "";
  return `${exchange.request.method.toUpperCase()} ${pathname}${search}${operation}`;
}

/** `502 text/html, 118 bytes: <excerpt>` or the transport error. */
export function responseLine(exchange: Exchange, maxBody = 300): string {
  const { response, error } = exchange;
  if (!response) return error ? `no response: ${error.code}: ${error.message}` : "no response";
  const type = response.headers["content-type"] ?? "no content-type";
  const cut = response.truncated ? " (truncated by the client)" : "";
  const body = response.text ? `: ${excerpt(response.text, maxBody)}` : "";
  return `${response.status} ${type}, ${response.bytes} bytes${cut}${body}`;
}

export interface FailureTextOptions {
  readonly insecure?: boolean;
  readonly maxBody?: number;
  readonly maxValue?: number;
  readonly indent?: string;
}

/** `(×12 in this case)` for a result standing for repeats of its group in its case, else "". */
export function repeatNote(result: CheckResult): string {
  return (result.count ?? 1) > 1 ? ` (×${result.count} in this case)` : "";
}

/** One failed check as lines: message, expected/actual, and the exchange it judged unless `shown` has it. */
export function checkLines(
  check: FailedCheck,
  options: FailureTextOptions = {},
  shown: Set<number> = new Set(),
): string[] {
  const indent = options.indent ?? "  ";
  const lines = [`✗ ${saying(check.result.checkId, check.message)}${repeatNote(check.result)}`];
  if (check.hasExpected) lines.push(`${indent}expected: ${formatValue(check.expected, options.maxValue)}`);
  if (check.hasActual) lines.push(`${indent}actual:   ${formatValue(check.actual, options.maxValue)}`);
  const { exchange } = check;
  if (exchange && !shown.has(exchange.id)) {
    shown.add(exchange.id);
    lines.push(`${indent}operation: ${operationLine(exchange)}`);
    lines.push(`${indent}response:  ${responseLine(exchange, options.maxBody)}`);
    lines.push(`${indent}reproduce: ${curlLine(exchange.request, { insecure: options.insecure })}`);
  }
  if (check.result.reproduction) lines.push(...reproductionLines(check.result.reproduction, options));
  return lines;
}

/** A generated failure's seed and path, its counterexample and the command that replays it, as lines. */
export function reproductionLines(reproduction: Reproduction, options: FailureTextOptions = {}): string[] {
  const indent = options.indent ?? "  ";
  const path = reproduction.path === undefined ? "" : `, path ${reproduction.path}`;
  const lines = [`generated case: seed ${reproduction.seed}${path}`];
  if (reproduction.counterexample !== undefined) {
    lines.push(`${indent}counterexample: ${formatValue(reproduction.counterexample, options.maxValue)}`);
  }
  if (reproduction.replay) lines.push(`${indent}replay: ${reproduction.replay}`);
  return lines;
}

/**
 * The whole failure as lines (without the case's heading). With `described`, a failed check whose group is in it
 * (told in full elsewhere) is one line: "same as group <id> (N×)".
 */
export function failureLines(
  event: CaseFinished,
  options: FailureTextOptions = {},
  described?: ReadonlyMap<string, FailureGroup>,
): string[] {
  const lines: string[] = [];
  if (event.status === "errored" && event.error)
    lines.push(`error ${event.error.code}: ${event.error.message}`);
  const shown = new Set<number>();
  for (const check of failedChecks(event)) {
    const group = check.result.group === undefined ? undefined : described?.get(check.result.group);
    if (group) lines.push(`✗ ${check.result.checkId}: ${sameAsGroup(group)}${repeatNote(check.result)}`);
    else lines.push(...checkLines(check, options, shown));
  }
  lines.push(...caseDetailLines(event, options));
  return lines;
}

/** `same as group 3fa2c1d9e0 (1979×): X-Spec-Version is <n>…` */
export function sameAsGroup(group: FailureGroup): string {
  return `same as group ${group.id} (${group.failures}×): ${group.shape}`;
}

/**
 * What reproduces a generated case and what the case logged (unless `logs` is false), as lines. The case's
 * reproduction only where no failed result carries its own (each of those is told with its failure).
 */
export function caseDetailLines(
  event: CaseFinished,
  options: FailureTextOptions = {},
  logs = true,
): string[] {
  const indent = options.indent ?? "  ";
  const lines: string[] = [];
  const toldWithFailures = event.results.some(
    (result) => result.outcome.status === "failed" && result.reproduction !== undefined,
  );
  if (event.reproduction && !toldWithFailures) lines.push(...reproductionLines(event.reproduction, options));
  if (logs) for (const log of event.logs ?? []) lines.push(`${indent}log: ${log}`);
  return lines;
}

/** One failure of a group: the case it happened in and the failed check (or, for an errored case, none). */
export interface GroupFailure {
  readonly event: CaseFinished;
  readonly check: FailedCheck | undefined;
}

/**
 * The finished cases' failures by group id, in the order the cases finished: a failed check under its result's
 * group, an errored case under its error's group.
 */
export function failuresByGroup(cases: readonly CaseFinished[]): Map<string, GroupFailure[]> {
  const byGroup = new Map<string, GroupFailure[]>();
  const add = (id: string, failure: GroupFailure) => {
    const list = byGroup.get(id);
    if (list) list.push(failure);
    else byGroup.set(id, [failure]);
  };
  for (const event of cases) {
    if (event.errorGroup) add(event.errorGroup, { event, check: undefined });
    for (const check of failedChecks(event))
      if (check.result.group) add(check.result.group, { event, check });
  }
  return byGroup;
}

/** A group's examples to show in full: those that kept their exchange first, then the others, at most `max`. */
export function groupExamples(failures: readonly GroupFailure[], max: number): GroupFailure[] {
  const withExchange = failures.filter((one) => one.check?.exchange !== undefined);
  const without = failures.filter((one) => one.check?.exchange === undefined);
  return [...withExchange, ...without].slice(0, max);
}

/** `12 failures in 3 cases` (a group's size). */
export function groupSize(group: FailureGroup): string {
  const failures = `${group.failures} ${group.failures === 1 ? "failure" : "failures"}`;
  return `${failures} in ${group.cases} ${group.cases === 1 ? "case" : "cases"}`;
}

/** `getComputeInstances (400), getRegions (3), … and 40 more operations`, or "" when none is known. */
export function groupOperations(group: FailureGroup): string {
  if (group.operations.length === 0) return "";
  const named = group.operations.map((one) => `${one.operationId} (${one.failures})`).join(", ");
  const more = group.operationCount - group.operations.length;
  return more > 0 ? `${named}, … and ${more} more operations` : named;
}
