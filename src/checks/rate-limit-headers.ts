/**
 * `rate-limit-headers`: `X-RateLimit-Limit`, `-Remaining` and `-Reset` are present, integers, and consistent:
 * 1 <= Limit, 0 <= Remaining <= Limit, and Reset (UTC epoch seconds, cloud-api-v4 "Limits") is neither in the past
 * nor more than a day ahead. Exact values differ per account and endpoint (facts.md "Conventions"), so only
 * presence, type and consistency are judged.
 *
 * "Now" is the answer's own `Date` where it carries a readable one, else the request's start for "past" and its
 * receipt for "ahead" (`answerInstants` in core): never the moment conform got round to judging it, so a stall on
 * our side (a busy event loop, a loaded machine, a slow network) never counts against the target; a second of skew
 * is allowed either way.
 *
 * Where they are required: on an answer whose response in the loaded description (matched by status: exact,
 * range, default) documents them; elsewhere their absence is skipped with the reason (a description that documents
 * them nowhere, an operation that documents no such answer, an answer documented without them), and so is the
 * absence of a header a recording never kept (an SDK's cassette filters `-Remaining` and `-Reset` out). Headers
 * that are present are always judged.
 * @module
 */
import { answerDate, answerInstants, answerSkewMs, describeEarliest } from "../core/answer-time.ts";
import { type CheckOutcome, failed, passed, skipped } from "../core/result.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { parseInteger } from "./_internals/http-values.ts";
import { documentedResponse, requestLine } from "./_internals/spec-lookup.ts";
import { type AnsweredExchange, type CheckContext, type CheckDefinition, notRecorded } from "./types.ts";

const names = {
  limit: "X-RateLimit-Limit",
  remaining: "X-RateLimit-Remaining",
  reset: "X-RateLimit-Reset",
} as const;
type Field = keyof typeof names;
const fields = Object.keys(names) as Field[];
const lowerNames = {
  limit: names.limit.toLowerCase(),
  remaining: names.remaining.toLowerCase(),
  reset: names.reset.toLowerCase(),
} as const;

const dayMs = 86_400_000;

type RawHeaders = Record<Field, string | undefined>;

export const rateLimitHeaders: CheckDefinition = {
  id: "rate-limit-headers",
  title: "X-RateLimit-Limit, -Remaining and -Reset are present and consistent",
  check(context, exchange) {
    const { headers } = exchange.response;
    // Every answer is judged here: the common one (all three present and consistent) allocates nothing.
    const limitText = headers[lowerNames.limit];
    const remainingText = headers[lowerNames.remaining];
    const resetText = headers[lowerNames.reset];
    if (consistent(limitText, remainingText, resetText, headers.date, context)) return passed;
    const raw: RawHeaders = { limit: limitText, remaining: remainingText, reset: resetText };
    const unrecorded = fields.filter(
      (field) => raw[field] === undefined && notRecorded(context, lowerNames[field]),
    );
    if (unrecorded.length === fields.length)
      return skipped(
        "the recording kept no X-RateLimit-* header on any of its answers: they cannot be judged",
      );
    // What the recording left out is neither missing nor judged; what it kept is judged as usual.
    const missing = fields.filter((field) => raw[field] === undefined && !unrecorded.includes(field));
    const absence = missingProblems(context, exchange, missing);
    if (!Array.isArray(absence)) return absence;
    const problems = [...absence, ...valueProblems(raw, headers.date, context)];
    if (problems.length === 0) return passed;
    return failed(problems.join("; "), {
      expected: `Limit >= 1, 0 <= Remaining <= Limit, Reset (epoch seconds) within a day after the answer's Date, or after the request's start without one (${answerSkewMs / 1000} s of skew allowed)`,
      actual: Object.fromEntries(fields.map((field) => [names[field], raw[field]])),
    });
  },
};

/** All three present, integers and consistent: the common answer, judged without allocating. */
function consistent(
  limitText: string | undefined,
  remainingText: string | undefined,
  resetText: string | undefined,
  dateText: string | undefined,
  { sentAt, receivedAt }: CheckContext,
): boolean {
  if (limitText === undefined || remainingText === undefined || resetText === undefined) return false;
  const limit = parseInteger(limitText);
  const remaining = parseInteger(remainingText);
  const reset = parseInteger(resetText);
  return (
    limit !== undefined &&
    remaining !== undefined &&
    reset !== undefined &&
    limit >= 1 &&
    remaining >= 0 &&
    remaining <= limit &&
    withinWindow(reset * 1000, dateText, sentAt, receivedAt)
  );
}

/**
 * The missing headers the description requires on this answer, or the skip saying why none is required (the
 * description documents none, no operation matches, the answer is documented without them).
 */
function missingProblems(
  context: CheckContext,
  exchange: AnsweredExchange,
  missing: readonly Field[],
): string[] | CheckOutcome {
  const { spec, operation } = context;
  const status = exchange.response.status;
  const none = missing.length === fields.length;
  // A description that documents no rate-limit header does not promise them (its conventions are its own).
  if (none && !fields.some((field) => documented(spec, field)))
    return skipped("the description documents no X-RateLimit-* header on the API's answers");
  if (missing.length === 0) return [];
  // Without an operation we cannot tell which answer of the description this is.
  if (!operation) return none ? skipped(`no operation in the spec for ${requestLine(exchange)}`) : [];
  const answer = documentedResponse(operation, status);
  const declared = answer?.headers ?? [];
  const required = missing.filter((field) => declared.some((h) => h.name === names[field].toLowerCase()));
  if (required.length > 0) return [`missing ${required.map((field) => names[field]).join(", ")}`];
  if (!none) return [];
  return skipped(
    answer
      ? `the ${answer.status} answer of ${operation.operationId} documents no X-RateLimit-* header`
      : `${operation.operationId} documents no ${status} answer, so no X-RateLimit-* header on it`,
  );
}

/** What is wrong with the headers present: not integers, Limit below 1, Remaining out of range, Reset outside its window. */
function valueProblems(raw: RawHeaders, dateText: string | undefined, { sentAt, receivedAt }: CheckContext) {
  const problems: string[] = [];
  const value: Partial<Record<Field, number>> = {};
  for (const field of fields) {
    const text = raw[field];
    if (text === undefined) continue;
    const parsed = parseInteger(text);
    if (parsed === undefined) problems.push(`${names[field]} "${text}" is not an integer`);
    else value[field] = parsed;
  }
  const { limit, remaining, reset } = value;
  if (limit !== undefined && limit < 1) problems.push(`${names.limit} ${limit} is below 1`);
  if (remaining !== undefined && remaining < 0) problems.push(`${names.remaining} ${remaining} is negative`);
  if (limit !== undefined && remaining !== undefined && remaining > limit)
    problems.push(`${names.remaining} ${remaining} exceeds ${names.limit} ${limit}`);
  const problem = reset === undefined ? undefined : resetProblem(reset, dateText, sentAt, receivedAt);
  if (problem) problems.push(problem);
  return problems;
}

/** {@link answerInstants} without the object: every answer passes here. */
function withinWindow(resetMs: number, dateText: string | undefined, sentAt: number, receivedAt: number) {
  const date = answerDate(dateText);
  return resetMs >= (date ?? sentAt) - answerSkewMs && resetMs <= (date ?? receivedAt) + dayMs + answerSkewMs;
}

function resetProblem(
  reset: number,
  dateText: string | undefined,
  sentAt: number,
  receivedAt: number,
): string | undefined {
  const resetMs = reset * 1000;
  const instants = answerInstants(dateText, sentAt, receivedAt);
  if (resetMs < instants.earliest - answerSkewMs) {
    const hint = reset < 1e9 ? " (seconds until the reset instead of epoch seconds?)" : "";
    return `${names.reset} ${reset} is ${seconds(instants.earliest - resetMs)} before ${describeEarliest(instants)}${hint}`;
  }
  if (resetMs > instants.latest + dayMs + answerSkewMs) {
    const hint = reset > 1e11 ? " (milliseconds instead of epoch seconds?)" : "";
    const ahead = instants.dated ? " of the answer's own Date" : "";
    return `${names.reset} ${reset} is more than a day ahead${ahead}${hint}`;
  }
  return undefined;
}

function documented(spec: CheckContext["spec"], field: Field): boolean {
  return conventionsOf(spec).documentedHeaders.has(names[field].toLowerCase());
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
}
