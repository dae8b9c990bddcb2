/**
 * `observed-read-back`: a create's or update's answer, and the next read of the same item, agree with what the
 * request wrote. Only fields the write's answer shows are judged (`root_pass`, `booted` never come back); a value
 * the API or a recorder redacted (`<REDACTED>`, `[REDACTED]`) is left to `secrets-not-returned`; a `null` written
 * means "none or the default" and is not compared; nor is a time written (a target may round or cap it: the real
 * service answers a token's `expiry` as it chose). Any other write at or under the item (an action, a child's
 * create) makes what was written unknown: the next read is then not judged. Per-run state: the items written
 * and not yet read back (bounded).
 * @module
 */
import { type CheckOutcome, failed, passed } from "../core/result.ts";
import { isAtOrUnder, isSuccess, isWrite, itemTouchOf, requestObject } from "./_internals/items.ts";
import { isObject, remember } from "./_internals/observed.ts";
import { requestLine } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

interface Written {
  /** The fields written that the write's answer showed, as written. */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly by: string;
}

/** The check's per-run state (exported: the registry's declared type names it). */
export interface ReadBacks {
  readonly pending: Map<string, Written>;
}

export const observedReadBack: CheckDefinition<ReadBacks> = {
  id: "observed-read-back",
  title: "A write's answer and the next read of the item agree with what was written",
  state: () => ({ pending: new Map() }),
  check(context, exchange, state) {
    const touch = itemTouchOf(context, exchange);
    const path = touch?.item ?? touch?.collection;
    if (!touch || path === undefined) return undefined;
    if (isWrite(exchange))
      for (const item of state.pending.keys()) if (isAtOrUnder(path, item)) state.pending.delete(item);
    if (!isSuccess(exchange) || touch.item === undefined) return undefined;
    if (touch.role === "read") return readBack(state, touch.item, exchange.response.json);
    if (touch.role !== "create" && touch.role !== "update") return undefined;
    const sent = requestObject(exchange);
    const answer = exchange.response.json;
    if (!sent || !isObject(answer)) return undefined;
    const fields = Object.fromEntries(
      Object.entries(sent).filter(
        ([name, value]) => Object.hasOwn(answer, name) && comparable(value, answer[name]),
      ),
    );
    if (Object.keys(fields).length === 0) return undefined;
    remember(state.pending, touch.item, { fields, by: requestLine(exchange) });
    const [name] = disagreeing(fields, answer);
    if (name === undefined) return passed;
    return failed(`the write's answer says ${name} is not what the request wrote`, {
      expected: { [name]: fields[name] },
      actual: { [name]: answer[name] },
    });
  },
};

/** The next read of a written item: its fields as written. */
function readBack(state: ReadBacks, item: string, body: unknown): CheckOutcome | undefined {
  const written = state.pending.get(item);
  if (!written || !isObject(body)) return undefined;
  state.pending.delete(item);
  const [name] = disagreeing(written.fields, body);
  if (name === undefined) return passed;
  return failed(`a read after ${written.by} says ${name} is not what was written`, {
    expected: { [name]: written.fields[name] },
    actual: { [name]: body[name] },
  });
}

const redacted = (value: unknown) => typeof value === "string" && value.includes("REDACTED");
const isTime = (value: unknown) => typeof value === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value);

/** A written value worth comparing: not null (none or the default), not a time, neither side redacted. */
const comparable = (written: unknown, answered: unknown) =>
  written !== null && !isTime(written) && !redacted(written) && !redacted(answered);

/** The written fields the body does not agree with, in the order written. */
function disagreeing(
  fields: Readonly<Record<string, unknown>>,
  body: Readonly<Record<string, unknown>>,
): string[] {
  return Object.keys(fields).filter((name) => !agrees(fields[name], body[name]));
}

/**
 * Does an answered value agree with a written one? Objects by the keys written (the answer adds its own); lists of
 * plain values as sets (a target may sort `tags`); the rest exactly.
 */
export function agrees(written: unknown, answered: unknown): boolean {
  if (Array.isArray(written)) {
    if (!Array.isArray(answered) || answered.length !== written.length) return false;
    if (written.every((value) => !isObject(value) && !Array.isArray(value)))
      return written.every((value) => answered.includes(value));
    return written.every((value, index) => agrees(value, answered[index]));
  }
  if (isObject(written))
    return isObject(answered) && Object.keys(written).every((key) => agrees(written[key], answered[key]));
  return Object.is(written, answered) || written === answered;
}
