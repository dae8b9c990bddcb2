/**
 * A failed case told as plain text, the same way in the console, JUnit and Markdown: for each failed check, its
 * message and expected vs actual; the operation and the response it judged (status and a body excerpt); the curl
 * line that reproduces the request; and for a generated case the seed, path, counterexample and replay command.
 * @internal
 */
import type { CaseFinished } from "../../core/events.ts";
import type { Exchange } from "../../core/exchange.ts";
import type { CheckResult } from "../../core/result.ts";
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

/** The first failure's message, as one summary line (`check-id: message`), or the error for an errored case. */
export function firstMessage(event: CaseFinished): string {
  const first = failedChecks(event)[0];
  if (event.status === "errored" && event.error) return `${event.error.code}: ${event.error.message}`;
  if (first) return `${first.result.checkId}: ${first.message}`;
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

/** The whole failure as lines (without the case's heading). */
export function failureLines(event: CaseFinished, options: FailureTextOptions = {}): string[] {
  const indent = options.indent ?? "  ";
  const lines: string[] = [];
  if (event.status === "errored" && event.error)
    lines.push(`error ${event.error.code}: ${event.error.message}`);
  const shown = new Set<number>();
  for (const check of failedChecks(event)) {
    lines.push(`✗ ${check.result.checkId}: ${check.message}`);
    if (check.hasExpected) lines.push(`${indent}expected: ${formatValue(check.expected, options.maxValue)}`);
    if (check.hasActual) lines.push(`${indent}actual:   ${formatValue(check.actual, options.maxValue)}`);
    const { exchange } = check;
    if (exchange && !shown.has(exchange.id)) {
      shown.add(exchange.id);
      lines.push(`${indent}operation: ${operationLine(exchange)}`);
      lines.push(`${indent}response:  ${responseLine(exchange, options.maxBody)}`);
      lines.push(`${indent}reproduce: ${curlLine(exchange.request, { insecure: options.insecure })}`);
    }
  }
  const reproduction = event.reproduction;
  if (reproduction) {
    const path = reproduction.path === undefined ? "" : `, path ${reproduction.path}`;
    lines.push(`generated case: seed ${reproduction.seed}${path}`);
    if (reproduction.counterexample !== undefined) {
      lines.push(`${indent}counterexample: ${formatValue(reproduction.counterexample, options.maxValue)}`);
    }
    if (reproduction.replay) lines.push(`${indent}replay: ${reproduction.replay}`);
  }
  for (const log of event.logs ?? []) lines.push(`${indent}log: ${log}`);
  return lines;
}
