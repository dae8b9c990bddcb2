/**
 * `vary-header`: every success of the API names in `Vary` the request headers that shape it, `Authorization` and
 * `X-Filter` (the description's "Other response headers"; facts.md: `Vary: Authorization, X-Filter`), or `*`.
 * Error answers are not judged: the real service's recorded 400s and 404s carry no `Vary`. A recording that kept
 * `Vary` on none of its answers is skipped, and so is another API's description (its own title).
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { apiFacts, conventionsOf } from "../spec/conventions.ts";
import { apiOperationOf, missingFrom } from "./_internals/api-answer.ts";
import { type CheckDefinition, notRecorded } from "./types.ts";

export const varyHeader: CheckDefinition = {
  id: "vary-header",
  title: "Every success's Vary names Authorization and X-Filter",
  check(context, exchange) {
    const { status } = exchange.response;
    if (!apiOperationOf(context, exchange) || status < 200 || status >= 300) return undefined;
    const { otherApi } = conventionsOf(context.spec);
    if (otherApi)
      return skipped(`the description is another API's (${otherApi}): this API's Vary is not its`);
    const value = exchange.response.headers.vary;
    if (value === undefined && notRecorded(context, "vary"))
      return skipped("the recording kept Vary on none of its answers: it cannot be judged");
    const missing = missingFrom(value, apiFacts.vary);
    if (value !== undefined && missing.length === 0) return passed;
    return failed(`Vary ${value === undefined ? "is missing" : `lacks ${missing.join(", ")}`}`, {
      expected: apiFacts.vary.join(", "),
      actual: value,
    });
  },
};
