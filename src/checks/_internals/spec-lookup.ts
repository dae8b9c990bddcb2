/**
 * Small lookups that several checks share: which documented response a status falls under, and how to name a
 * request in a message.
 * Not a check: `src/checks/_internals/` holds no registered ids.
 * @module
 * @internal
 */
import { BoundedMemo } from "../../core/bounded-memo.ts";
import type { Exchange } from "../../core/exchange.ts";
import { describedErrorEnvelope } from "../../spec/conventions.ts";
import { responseForStatus } from "../../spec/operations.ts";
import type { OperationInfo, ResponseInfo } from "../../spec/types.ts";

/**
 * The documented response a status falls under: the exact code, then its range (`4XX`), then `default`
 * (OpenAPI 3.1 §4.8.16: an exact code takes precedence over a range, and `default` covers the rest).
 */
export function documentedResponse(operation: OperationInfo, status: number): ResponseInfo | undefined {
  // Most checks ask this of every answer: once per operation and status.
  let byStatus = documentedByStatus.get(operation);
  if (!byStatus) {
    byStatus = new BoundedMemo(1000);
    documentedByStatus.set(operation, byStatus);
  }
  return byStatus.get(status, (code) => responseForStatus(operation, code));
}

/** Per operation (weakly: a spec's operations go with it), by status: three-digit codes, at most 1,000. */
const documentedByStatus = new WeakMap<OperationInfo, BoundedMemo<number, ResponseInfo | undefined>>();

/** `GET /v4/nodebalancers/12` (path without query) for messages. */
export function requestLine(exchange: Exchange): string {
  const { method, url } = exchange.request;
  const path = URL.canParse(url) ? new URL(url).pathname : url.split("?")[0];
  return `${method.toUpperCase()} ${path}`;
}

/** HEAD answers carry the headers of a GET but never content (RFC 9110 §9.3.2). */
export function isHead(exchange: Exchange): boolean {
  return exchange.request.method.toUpperCase() === "HEAD";
}

/** The reason of the first `{errors: [{reason}]}` entry (in `envelope`'s names), if the body has that shape. */
export function firstErrorReason(body: unknown, envelope = describedErrorEnvelope): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const errors = (body as Record<string, unknown>)[envelope.list];
  if (!Array.isArray(errors)) return undefined;
  const first: unknown = errors[0];
  const reason =
    typeof first === "object" && first !== null
      ? (first as Record<string, unknown>)[envelope.reason]
      : undefined;
  return typeof reason === "string" && reason !== "" ? reason : undefined;
}

/** The fields the errors of a `{errors: [{field}]}` body (in `envelope`'s names) name, in order. */
export function errorFieldsOf(body: unknown, envelope = describedErrorEnvelope): string[] {
  if (typeof body !== "object" || body === null) return [];
  const errors = (body as Record<string, unknown>)[envelope.list];
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((error: unknown) => {
    const field =
      typeof error === "object" && error !== null
        ? (error as Record<string, unknown>)[envelope.field]
        : undefined;
    return typeof field === "string" && field !== "" ? [field] : [];
  });
}

/** The rules a generated request breaks, where, in one line (`body /port: violate-bound (above the maximum 65535)`). */
export function brokenRulesLine(exchange: Exchange): string {
  const broken = exchange.request.intent?.broken ?? [];
  return broken
    .map((rule) => {
      const where = rule.in === "body" ? `body ${rule.at || "(the whole body)"}` : `${rule.in} ${rule.at}`;
      return `${where}: ${rule.rule}${rule.detail ? ` (${rule.detail})` : ""}`;
    })
    .join("; ");
}
