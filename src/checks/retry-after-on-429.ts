/**
 * `retry-after-on-429`: a 429 carries `Retry-After` (cloud-api-v4 "Error body"), and any `Retry-After` is
 * delay-seconds (a non-negative integer) or an HTTP-date (RFC 9110 §10.2.3).
 *
 * Any other status passes rather than skips: the check still judges it (a `Retry-After` it carries, as a 503 or a
 * 3xx may, must be well formed) and without one the property holds. A skip would say "could not judge", which is
 * not the case, and would fill every report with a skip per exchange. A 429 without it in a recording that kept
 * `Retry-After` on none of its answers (an SDK's cassette filters it out) is skipped.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { parseHttpDate } from "./_internals/http-values.ts";
import { type CheckDefinition, notRecorded } from "./types.ts";

export const retryAfterOn429: CheckDefinition = {
  id: "retry-after-on-429",
  title: "A 429 carries a valid Retry-After",
  check(context, exchange) {
    const { receivedAt } = context;
    const { response } = exchange;
    const value = response.headers["retry-after"]?.trim();
    if (value === undefined) {
      if (response.status === 429 && notRecorded(context, "retry-after"))
        return skipped("the recording kept Retry-After on none of its answers: this 429 cannot be judged");
      return response.status === 429
        ? failed("429 without Retry-After", { expected: "Retry-After: <seconds>", actual: undefined })
        : passed;
    }
    if (/^\d+$/.test(value) || parseHttpDate(value, receivedAt) !== undefined) return passed;
    return failed(`Retry-After "${value}" is neither a non-negative number of seconds nor an HTTP-date`, {
      expected: "delay-seconds or HTTP-date (RFC 9110 §10.2.3)",
      actual: value,
    });
  },
};
