/**
 * What the checks of the API's own conventions share: which answers are the API server's (an operation of the
 * description served under its servers, not the OAuth login server's, and not a CORS preflight), a header's
 * comma-separated list, and what credential a request carried.
 * Not a check: `src/checks/_internals/` holds no registered ids.
 * @module
 * @internal
 */
import type { OperationInfo } from "../../spec/types.ts";
import type { AnsweredExchange, CheckContext } from "../types.ts";

/** The operation when the exchange is an answer of the API server to a request other than OPTIONS. */
export function apiOperationOf(context: CheckContext, exchange: AnsweredExchange): OperationInfo | undefined {
  const { operation } = context;
  if (!operation || operation.serverUrl !== undefined) return undefined;
  return exchange.request.method.toUpperCase() === "OPTIONS" ? undefined : operation;
}

/** A header's comma-separated list (`Vary`, `Access-Control-Allow-*`), lower-cased and trimmed. */
export function headerList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/** The entries of `wanted` a listed header lacks (none when it is the wildcard `*`). */
export function missingFrom(value: string | undefined, wanted: readonly string[]): string[] {
  const listed = headerList(value);
  return listed.includes("*") ? [] : wanted.filter((entry) => !listed.includes(entry));
}

/**
 * The credential a request carried, as recorded (the token itself is redacted): `bearer` (`Bearer <token>`),
 * `none`, or `malformed` (another scheme, or a scheme with no token).
 */
export function credentialOf(exchange: AnsweredExchange): "bearer" | "none" | "malformed" {
  const value = exchange.request.headers.authorization;
  if (value === undefined) return "none";
  return /^bearer\s+\S+/i.test(value.trim()) ? "bearer" : "malformed";
}
