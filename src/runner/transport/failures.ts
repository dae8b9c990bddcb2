/**
 * What the transport's steps hand their caller besides an answer, kept apart from the steps themselves: the
 * package's declarations reach these through `http-client.ts`, and a user's TypeScript project without Node's
 * types must not have to read undici's (the steps' types name its Dispatcher and Buffer).
 * @module
 */
import type { Exchange } from "../../core/exchange.ts";

/** No answer came (or not a whole one within the bounds): the code, the words, and the recorded exchange. */
export class TransportError extends Error {
  readonly code: string;
  readonly exchange: Exchange;
  constructor(code: string, message: string, exchange: Exchange) {
    super(message);
    this.code = code;
    this.exchange = exchange;
  }
}

/** `Retry-After` in ms: delta-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
