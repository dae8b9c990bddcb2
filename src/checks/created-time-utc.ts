/**
 * `created-time-utc`: a create's answer says when it was made in UTC (cloud-api-v4 "General facts": all times are
 * UTC whatever the profile's timezone), in the service's form (`YYYY-MM-DDTHH:MM:SS`, an explicit `Z` or `+00:00`
 * allowed: the description's `UtcDateTime`). The top-level `created` of a 2xx answer to a POST on a list's path is
 * the moment of the request, so it must fall within a few minutes of the answer's own `Date` (else of when the
 * request was sent and answered): a time written in another zone is off by at least half an hour. The minutes
 * allowed keep a target's clock that is merely off by seconds from failing. A recording without `Date` is not
 * judged (its timings may not be when the request was made).
 * @module
 */
import { answerInstants } from "../core/answer-time.ts";
import { failed, passed, skipped } from "../core/result.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";
import { apiOperationOf } from "./_internals/api-answer.ts";
import { isObject } from "./_internals/observed.ts";
import type { CheckDefinition } from "./types.ts";

/** How far `created` may lie from the answer's instants: clocks that differ a little, never a time zone. */
export const createdToleranceMs = 5 * 60_000;
const utcForm = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|\+00:00)?$/;

export const createdTimeUtc: CheckDefinition = {
  id: "created-time-utc",
  title: "A create's created time is now, written in UTC",
  check(context, exchange) {
    const operation = apiOperationOf(context, exchange);
    const { response } = exchange;
    if (!operation || !isCreate(context.spec, operation) || response.status < 200 || response.status >= 300)
      return undefined;
    const created = isObject(response.json) ? response.json.created : undefined;
    if (created === undefined || created === null) return undefined;
    const form = typeof created === "string" ? utcForm.exec(created) : null;
    const at = form?.[1] ? Date.parse(`${form[1]}Z`) : Number.NaN;
    if (!Number.isFinite(at))
      return failed(`created ${JSON.stringify(created)} is not a UTC time in the service's form`, {
        expected: "YYYY-MM-DDTHH:MM:SS (Z or +00:00 allowed)",
        actual: created,
      });
    const date = response.headers.date;
    if (date === undefined && context.recording)
      return skipped("the recording kept no Date on this answer: when it was made is unknown");
    const { earliest, latest, dated } = answerInstants(date, context.sentAt, context.receivedAt);
    const offMs = at < earliest ? at - earliest : at > latest ? at - latest : 0;
    if (Math.abs(offMs) <= createdToleranceMs) return passed;
    const hours = Math.round((offMs / 3_600_000) * 100) / 100;
    return failed(
      `created ${created} is ${hours} h off ${dated ? "the answer's own Date" : "when it was asked"}: not the moment of the create in UTC (another time zone?)`,
      { expected: `a UTC time near ${new Date(latest).toISOString()}`, actual: created },
    );
  },
};

/** A POST on the path of a list: the create of an item of that list. */
function isCreate(spec: ApiSpec, operation: OperationInfo): boolean {
  let answer = creates.get(operation);
  if (answer === undefined) {
    answer =
      operation.method === "post" &&
      spec.operations
        .all()
        .some(
          (other) =>
            other.method === "get" && other.paginated && other.pathTemplate === operation.pathTemplate,
        );
    creates.set(operation, answer);
  }
  return answer;
}

/** Per operation (weakly: a description's operations go with it). */
const creates = new WeakMap<OperationInfo, boolean>();
