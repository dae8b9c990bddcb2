/**
 * Reading and asserting answers the way every suite does: the error envelope (read from the loaded description),
 * success, "refused with 400 naming field F", header lists and scope sets.
 * @module
 */
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { headerNotDocumented } from "../spec/operations.ts";

export interface ErrorEntry {
  readonly reason?: unknown;
  readonly field?: unknown;
}

/** 2xx (a status or an answer). */
export function isSuccess(answer: number | LiveResponse): boolean {
  const status = typeof answer === "number" ? answer : answer.status;
  return status >= 200 && status < 300;
}

/**
 * A sample's name for reports: what was asked and the status that came back (`an unknown path, answered 200`), so
 * a label never claims the status the request was meant to get.
 */
export function answeredLabel(what: string, response: LiveResponse): string {
  return `${what}, answered ${response.status}`;
}

/** The entries of an error body as the description's envelope names them (empty when it is not one). */
export function errorsOf(t: CaseContext, response: LiveResponse): ErrorEntry[] {
  const envelope = conventionsOf(t.spec).errorEnvelope;
  const list = (response.json as Record<string, unknown> | undefined)?.[envelope.list];
  if (!Array.isArray(list)) return [];
  return list.map((entry) => {
    const error = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    return {
      ...(envelope.reason in error ? { reason: error[envelope.reason] } : {}),
      ...(envelope.field in error ? { field: error[envelope.field] } : {}),
    };
  });
}

/** The reasons of an error body (empty when none). */
export function errorReasons(t: CaseContext, response: LiveResponse): string[] {
  return errorsOf(t, response)
    .map((error) => error.reason)
    .filter((reason): reason is string => typeof reason === "string");
}

/** The fields of an error body (empty when none). */
export function errorFields(t: CaseContext, response: LiveResponse): string[] {
  return errorsOf(t, response)
    .map((error) => error.field)
    .filter((field): field is string => typeof field === "string");
}

/** True for the API's error envelope: a non-empty list of errors, each with a string reason. */
export function isErrorBody(t: CaseContext, response: LiveResponse): boolean {
  const errors = errorsOf(t, response);
  return errors.length > 0 && errors.every((error) => typeof error.reason === "string");
}

/** Asserts a 2xx answer under `name`; answers whether it was one. */
export function expectSuccess(t: CaseContext, name: string, response: LiveResponse): boolean {
  return t.expect(name, isSuccess(response), {
    expected: "2xx",
    actual: response.status,
    message: `${name}: answered ${response.status}${isSuccess(response) ? "" : `: ${response.text.slice(0, 200)}`}`,
    response,
  });
}

/**
 * Asserts a refusal: `<name> is refused with 400`, then (only when it was a 400) `<name>: the error names
 * <field>`. Answers whether both held.
 */
export function expectRefusal(t: CaseContext, name: string, response: LiveResponse, field: string): boolean {
  const refused = t.expect(`${name} is refused with 400`, response.status === 400, {
    expected: 400,
    actual: response.status,
    response,
  });
  if (!refused) return false;
  return t.expect(`${name}: the error names ${field}`, errorFields(t, response).includes(field), {
    expected: `an error with field ${field}`,
    actual: response.json,
    response,
  });
}

/** A header's comma-separated list (`Vary`, `Access-Control-Allow-*`), lower-cased and trimmed. */
export function headerList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/** A scope header (`X-OAuth-Scopes`, `X-Accepted-OAuth-Scopes`) as a set: space- or comma-separated. */
export function scopeSet(value: string | undefined): Set<string> {
  return new Set((value ?? "").split(/[\s,]+/).filter(Boolean));
}

export function sameScopes(a: string | undefined, b: string | undefined): boolean {
  const left = scopeSet(a);
  const right = scopeSet(b);
  return left.size === right.size && [...left].every((scope) => right.has(scope));
}

/** The id of what a 2xx answer created (an integer `id`), or undefined. */
export function createdId(response: LiveResponse): number | undefined {
  const id = (response.json as { id?: unknown } | undefined)?.id;
  return isSuccess(response) && typeof id === "number" ? id : undefined;
}

/** Asserts under `name` that `response` answered `status` (`message`: what failed); answers whether it did. */
export function expectStatus(
  t: CaseContext,
  name: string,
  response: LiveResponse,
  status: number,
  message?: string,
): boolean {
  return t.expect(name, response.status === status, {
    expected: status,
    actual: response.status,
    response,
    message,
  });
}

/** Asserts under `name` that `actual === expected` (pointing at the case's latest answer); answers whether it is. */
export function expectSame(t: CaseContext, name: string, actual: unknown, expected: unknown): boolean {
  return t.expect(name, actual === expected, { expected, actual });
}

/**
 * Asserts under `name` that header `header` (as the description spells it) of `response` passes `accept`; on
 * failure the message says `<where>: <header> is <value, or missing>`. Answers whether it passed.
 */
export function expectHeader(
  t: CaseContext,
  name: string,
  response: LiveResponse,
  header: string,
  accept: (value: string | undefined) => boolean,
  context: { readonly where: string; readonly expected?: unknown },
): boolean {
  const value = response.headers[header.toLowerCase()];
  const message = `${context.where}: ${header} is ${value ?? "missing"}`;
  return t.expect(name, accept(value), { message, expected: context.expected, actual: value, response });
}

/**
 * {@link expectHeader} for a header the description documents per answer (`X-OAuth-Scopes`, ...): asserted only
 * where the loaded description documents it on that answer (its operation and status); elsewhere nothing is
 * asserted and the log says why. Answers whether it passed (true when it was not promised).
 */
export function expectDocumentedHeader(
  t: CaseContext,
  name: string,
  response: LiveResponse,
  header: string,
  accept: (value: string | undefined) => boolean,
  context: { readonly where: string; readonly expected?: unknown },
): boolean {
  const operationId = response.exchange?.operationId;
  const operation = operationId ? t.spec.operations.byId(operationId) : undefined;
  const notDocumented = operation ? headerNotDocumented(operation, response.status, header) : undefined;
  if (notDocumented) {
    logOncePerCase(t, header, `${context.where}: ${header} not judged: ${notDocumented}`);
    return true;
  }
  return expectHeader(t, name, response, header, accept, context);
}

const loggedReasons = new WeakMap<CaseContext, Set<string>>();

/**
 * Logs `line` the first time a case meets `key` (a header); later ones are not logged: on a large description one
 * case meets an undocumented header on thousands of answers (2,271 lines once), and the first says what happens.
 */
function logOncePerCase(t: CaseContext, key: string, line: string): void {
  let seen = loggedReasons.get(t);
  if (!seen) {
    seen = new Set();
    loggedReasons.set(t, seen);
  }
  if (seen.has(key)) return;
  seen.add(key);
  t.log(`${line} (said once per case: later answers without it are not logged)`);
}

/**
 * Skips the case when the loaded description documents `header` on none of the API's answers: its conventions
 * do not promise it, so its absence is no failure (the checks skip it the same way).
 */
export function requireDocumentedHeader(t: CaseContext, header: string): void {
  if (!conventionsOf(t.spec).documentedHeaders.has(header.toLowerCase()))
    t.skip(`the description documents no ${header} header on the API's answers`);
}
