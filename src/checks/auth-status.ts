/**
 * `auth-status`: the status conventions of authentication (cloud-api-v4 "Status codes": 401 authentication
 * failed, 403 authenticated but not permitted; facts.md: a 401's reason is `Invalid Token`). A request with no
 * token or a malformed one (not `Bearer <token>`) to an operation that needs a token is answered 401, never 403
 * nor a success; any 401 of the API names `Invalid Token`. A 429 (limits apply before the token is read) and a 5xx
 * (not-a-server-error's) are not judged. A recording may have filtered the Authorization header out: unless it shows
 * the header on some request (`authorizationKept`), a request it shows without one, or with one it cannot read,
 * is skipped.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { apiFacts, conventionsOf } from "../spec/conventions.ts";
import { apiOperationOf, credentialOf } from "./_internals/api-answer.ts";
import { isObject } from "./_internals/observed.ts";
import type { AnsweredExchange, CheckContext, CheckDefinition } from "./types.ts";

export const authStatus: CheckDefinition = {
  id: "auth-status",
  title: "No or a malformed token is answered 401 Invalid Token, never 403",
  check(context, exchange) {
    const operation = apiOperationOf(context, exchange);
    if (!operation) return undefined;
    const { status } = exchange.response;
    if (status === 401) return invalidTokenReason(context, exchange);
    const credential = credentialOf(exchange);
    if (operation.security.public || credential === "bearer") return undefined;
    if (status === 429 || status >= 500) return undefined;
    if (context.recording && !context.recording.authorizationKept)
      return skipped(
        "the recording may have left the request's Authorization header out: its token is unknown",
      );
    const sent = credential === "none" ? "no token" : "a malformed Authorization header";
    if (status === 403)
      return failed(
        `${operation.operationId} with ${sent} was answered 403: that is for a token without the scope`,
        {
          expected: 401,
          actual: 403,
        },
      );
    return failed(`${operation.operationId} needs a token: with ${sent} it was answered ${status}`, {
      expected: 401,
      actual: status,
    });
  },
};

/** A 401 names the reason the description's service gives: `Invalid Token`. */
function invalidTokenReason(context: CheckContext, exchange: AnsweredExchange) {
  const { response } = exchange;
  if (response.truncated) return skipped("the body was cut: the 401's reason cannot be read");
  const { errorEnvelope: envelope, otherErrorShape } = conventionsOf(context.spec);
  if (otherErrorShape)
    return skipped(`the description's errors are not an array of reasons (${otherErrorShape})`);
  const errors = isObject(response.json) ? response.json[envelope.list] : undefined;
  const reasons = Array.isArray(errors) ? errors.filter(isObject).map((error) => error[envelope.reason]) : [];
  if (reasons.includes(apiFacts.invalidTokenReason)) return passed;
  return failed(`a 401 does not name the reason ${apiFacts.invalidTokenReason}`, {
    expected: `${envelope.list}: [{${envelope.reason}: "${apiFacts.invalidTokenReason}"}]`,
    actual: reasons.length > 0 ? reasons : response.text.slice(0, 200),
  });
}
