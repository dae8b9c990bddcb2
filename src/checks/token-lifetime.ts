/**
 * `token-lifetime`: an access token the login server issues lasts what the description says, two hours
 * (cloud-api-v4.md "OAuth 2.0": `expires_in` 7200, in a code exchange's and a refresh's answer and in the implicit
 * flow's redirect, "valid two hours"). Judged on a success whose JSON holds an `access_token` and on a redirect whose
 * Location fragment does; a lifetime the answer leaves out is `body-matches-schema`'s.
 * @module
 */
import { failed, passed } from "../core/result.ts";
import { apiFacts } from "../spec/conventions.ts";
import { isObject } from "./_internals/observed.ts";
import type { AnsweredExchange, CheckDefinition } from "./types.ts";

/** The `expires_in` an answer gives with an access token (body or redirect fragment); undefined without both. */
function issuedLifetime(exchange: AnsweredExchange): { where: string; value: unknown } | undefined {
  const { status, json, headers } = exchange.response;
  if (status >= 200 && status < 300 && isObject(json) && typeof json.access_token === "string")
    return json.expires_in === undefined ? undefined : { where: "the token answer", value: json.expires_in };
  if (status < 300 || status >= 400 || headers.location === undefined) return undefined;
  const fragment = new URLSearchParams(headers.location.split("#")[1] ?? "");
  const value = fragment.get("expires_in");
  if (!fragment.has("access_token") || value === null) return undefined;
  return { where: "the redirect's fragment", value: Number(value) };
}

export const tokenLifetime: CheckDefinition = {
  id: "token-lifetime",
  title: "An access token is issued for the described two hours (expires_in 7200)",
  check(_context, exchange) {
    const issued = issuedLifetime(exchange);
    if (!issued) return undefined;
    const expected = apiFacts.accessTokenLifetimeSeconds;
    if (issued.value === expected) return passed;
    return failed(`${issued.where} gives expires_in ${String(issued.value)}, not ${expected}`, {
      expected,
      actual: issued.value,
    });
  },
};
