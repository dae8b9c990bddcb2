/**
 * `cors-headers`: every answer of the API carries the CORS headers the description lists ("Other response
 * headers"; facts.md: `Access-Control-Allow-*` on real answers): `Access-Control-Allow-Origin`, and `-Allow-Methods`
 * and `-Allow-Headers` naming what the description says (or `*`); a success also `-Expose-Headers` (the real
 * service's recorded 400s leave that one off). The first header wrong is the verdict. A header a recording kept
 * on none of its answers is skipped: the recording, not the target, left it out. Another API's description
 * (its own title) is not held to these lists.
 * @module
 */
import { failed, passed, skipped } from "../core/result.ts";
import { apiFacts, conventionsOf } from "../spec/conventions.ts";
import { apiOperationOf, missingFrom } from "./_internals/api-answer.ts";
import { type CheckDefinition, notRecorded } from "./types.ts";

const { cors } = apiFacts;
/** Each list header and what it must name. */
const onEveryAnswer: readonly (readonly [string, readonly string[]])[] = [
  ["access-control-allow-methods", cors.methods],
  ["access-control-allow-headers", cors.requestHeaders],
];
const onSuccesses = [...onEveryAnswer, ["access-control-expose-headers", cors.exposed] as const];
const allowOrigin = "access-control-allow-origin";

export const corsHeaders: CheckDefinition = {
  id: "cors-headers",
  title: "Every answer carries the description's CORS headers",
  check(context, exchange) {
    if (!apiOperationOf(context, exchange)) return undefined;
    const { otherApi } = conventionsOf(context.spec);
    if (otherApi)
      return skipped(`the description is another API's (${otherApi}): this API's CORS lists are not its`);
    const { headers, status } = exchange.response;
    const listed = status >= 200 && status < 300 ? onSuccesses : onEveryAnswer;
    const unrecorded = [allowOrigin, ...listed.map(([name]) => name)].filter((name) =>
      notRecorded(context, name),
    );
    if (unrecorded.length > 0)
      return skipped(
        `the recording kept ${unrecorded.join(", ")} on none of its answers: CORS cannot be judged`,
      );
    if (headers[allowOrigin] === undefined)
      return failed("Access-Control-Allow-Origin is missing", {
        expected: "* or an origin",
        actual: undefined,
      });
    for (const [name, wanted] of listed) {
      const value = headers[name];
      const missing = missingFrom(value, wanted);
      if (value === undefined || missing.length > 0)
        return failed(`${name} ${value === undefined ? "is missing" : `lacks ${missing.join(", ")}`}`, {
          expected: wanted.join(", "),
          actual: value,
        });
    }
    return passed;
  },
};
