/**
 * `not-a-server-error`: the target did not answer with a server error. A 5xx means the server failed to fulfil a
 * request that may well be valid (RFC 9110 §15.6), whatever the request was: the one check that needs no operation.
 * The message quotes the first error's reason, read in the description's error envelope.
 * @module
 */
import { failed, passed } from "../core/result.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { firstErrorReason } from "./_internals/spec-lookup.ts";
import type { CheckDefinition } from "./types.ts";

export const notAServerError: CheckDefinition = {
  id: "not-a-server-error",
  title: "The response is not a server error (5xx)",
  check({ spec }, exchange) {
    const { response } = exchange;
    if (response.status < 500) return passed;
    const reason = firstErrorReason(response.json, conventionsOf(spec).errorEnvelope);
    return failed(`server error ${response.status}${reason ? `: ${reason}` : ""}`, {
      expected: "< 500",
      actual: response.status,
    });
  },
};
