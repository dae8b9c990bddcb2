/**
 * Small helpers every resource handler uses: typed path parameters, timestamps, list replies, lookups that
 * answer 404 `Not found`.
 * @module
 */
import type { HandlerContext } from "../context.ts";
import { isoSeconds } from "../events.ts";
import { ok, type Reply } from "../http/reply.ts";

/** An integer path parameter (the spec's matcher already typed it). */
export function intParam(context: HandlerContext, name: string): number {
  return Number(context.params[name]);
}

export function stringParam(context: HandlerContext, name: string): string {
  return String(context.params[name]);
}

/** The current time as the API writes it (UTC, no zone designator: see `isoSeconds`). */
export function timestamp(context: HandlerContext): string {
  return isoSeconds(context.clock.now());
}

/** The list envelope of a whole collection, filtered, ordered and sliced per the request. */
export function listReply(context: HandlerContext, items: readonly object[]): Reply {
  return ok(context.behaviour.paginate(items, context.list, context.behaviour));
}

/** The validated JSON body as an object (the spec validated its shape; absent bodies become `{}`). */
export function bodyOf(context: HandlerContext): Readonly<Record<string, unknown>> {
  const body = context.body;
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** True when the body carries this field (own property, not inherited). */
export function has(body: Readonly<Record<string, unknown>>, field: string): boolean {
  return Object.hasOwn(body, field) && body[field] !== undefined;
}
