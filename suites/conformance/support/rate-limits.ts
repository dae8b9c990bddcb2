/**
 * What the rate-limits suite judges with: the `X-RateLimit-*` headers of one answer (integers, Remaining within
 * Limit, Reset ahead but within the longest described window, of the answer's own instants), a 429's reason, shape
 * and `Retry-After`, and the drive: instance-creation requests every target refuses (400) with a minted token,
 * sent in a burst of Remaining + 2 to spend the dedicated limit.
 * @module
 */
import {
  answerInstants,
  answerSkewMs,
  apiFacts,
  type CaseContext,
  conventionsOf,
  describeEarliest,
  errorReasons,
  expectHeader,
  isErrorBody,
  type LiveResponse,
  type MintedToken,
  type Operation,
  retryAfterMs,
  sendProbe,
} from "../../../src/index.ts";

const { longestRateWindowMs, tooManyRequestsReason } = apiFacts;
/** The most requests a drive sends in one burst (the description's smallest dedicated limits are 2 to 25). */
const maxDrive = 60;
/** The longest `Retry-After` the suite waits. */
export const maxWaitMs = 60_000;

export type RateHeaders = { readonly limit: number; readonly remaining: number; readonly reset: number };

const integer = (value?: string) =>
  value !== undefined && /^-?\d+$/.test(value.trim()) ? Number(value) : undefined;

/** `X-RateLimit-Limit`, `-Remaining` and `-Reset` as sent. */
const rawRateHeaders = (response: LiveResponse) => ({
  limit: response.headers["x-ratelimit-limit"],
  remaining: response.headers["x-ratelimit-remaining"],
  reset: response.headers["x-ratelimit-reset"],
});

/** The three as integers, when all three are. */
export function rateHeaders(response: LiveResponse): RateHeaders | undefined {
  const [limit, remaining, reset] = Object.values(rawRateHeaders(response)).map(integer);
  const all = limit !== undefined && remaining !== undefined && reset !== undefined;
  return all ? { limit, remaining, reset } : undefined;
}

/** Judges one answer's headers on their own; answers them when present. */
export function judgeHeaders(t: CaseContext, what: string, response: LiveResponse): RateHeaders | undefined {
  const [headers, raw] = [rateHeaders(response), rawRateHeaders(response)];
  const message = `${what}: X-RateLimit headers missing or not integers`;
  const name = "X-RateLimit-Limit, -Remaining and -Reset are integers";
  if (!t.expect(name, headers !== undefined, { message, actual: raw, response }) || !headers)
    return undefined;
  const { limit, remaining, reset } = headers;
  // Judged against the answer's own Date, or the request's start: never when this line runs (a stall of ours).
  const { startedAt, totalMs } = response.exchange.timings;
  const instants = answerInstants(response.headers.date, startedAt, startedAt + totalMs);
  const window = longestRateWindowMs / 1000;
  t.expect("0 <= Remaining <= Limit", remaining >= 0 && remaining <= limit, {
    message: `${what}: Remaining ${remaining}, Limit ${limit}`,
    actual: raw,
    response,
  });
  t.expect("Reset is in the future", reset * 1000 >= instants.earliest - answerSkewMs, {
    message: `${what}: Reset ${reset} is ${Math.round(instants.earliest / 1000 - reset)} s before ${describeEarliest(instants)}`,
    actual: reset,
    response,
  });
  const within = "Reset is within the longest described window";
  t.expect(within, reset * 1000 <= instants.latest + longestRateWindowMs + answerSkewMs, {
    message: `${what}: Reset ${reset} is ${Math.round(reset - instants.latest / 1000)} s ahead${instants.dated ? " of the answer's own Date" : ""}, beyond ${window} s`,
    expected: `at most ${window} s ahead`,
    actual: reset,
    response,
  });
  return headers;
}

/** Judges a 429 answer: reason, error shape, Retry-After, Remaining 0. */
export function judgeRefusal(t: CaseContext, response: LiveResponse): void {
  const reasons = errorReasons(t, response);
  t.expect(`429 says ${tooManyRequestsReason}`, reasons.includes(tooManyRequestsReason), {
    expected: tooManyRequestsReason,
    actual: reasons,
    response,
  });
  const envelope = conventionsOf(t.spec).errorEnvelope;
  t.expect("429 has the error shape", isErrorBody(t, response), {
    expected: `{${envelope.list}: [{${envelope.reason}}]}`,
    actual: response.text.slice(0, 200),
    response,
  });
  const readable = (value?: string) => retryAfterMs(value, Date.now()) !== undefined;
  const where = { where: "a 429", expected: "Retry-After: <seconds> or an HTTP-date" };
  expectHeader(t, "429 carries Retry-After", response, "Retry-After", readable, where);
  const remaining = integer(response.headers["x-ratelimit-remaining"]);
  if (remaining !== undefined) {
    t.expect("429 says Remaining 0", remaining === 0, { expected: 0, actual: remaining, response });
  }
}

export interface Drive {
  readonly token: MintedToken;
  /** Instance creation: the operation with a dedicated limit the drive spends. */
  readonly operation: Operation;
}

/** One creation request every target refuses (400), with the drive's token, never retried. */
export function refusedCreate(t: CaseContext, drive: Drive): Promise<LiveResponse> {
  // Unpaced: the client's pacer would otherwise hold the requests past the limit until the window resets.
  return sendProbe(t, drive.operation, drive.token.token, { retry: false, pace: false })!;
}

export interface Spent {
  readonly announced: number;
  readonly burst: readonly LiveResponse[];
  readonly refused: readonly LiveResponse[];
  readonly lowestRemaining: number | undefined;
}

/** Reads the window's Remaining, then sends Remaining + 2 requests at once. */
export async function spend(t: CaseContext, drive: Drive): Promise<Spent | undefined> {
  const first = await refusedCreate(t, drive);
  const headers = rateHeaders(first);
  const id = drive.operation.operationId;
  if (!headers) return t.skip(`${id} answers no X-RateLimit headers: there is no limit to drive by`);
  if (headers.remaining + 2 > maxDrive) {
    return t.skip(
      `${id} allows ${headers.remaining} more requests in this window: beyond this suite's budget of ${maxDrive}`,
    );
  }
  const burst =
    first.status === 429
      ? [first]
      : await Promise.all(Array.from({ length: headers.remaining + 2 }, () => refusedCreate(t, drive)));
  const remainders = burst.map((response) => rateHeaders(response)?.remaining).filter((n) => n !== undefined);
  return {
    announced: headers.remaining,
    burst,
    refused: burst.filter((response) => response.status === 429),
    lowestRemaining: remainders.length > 0 ? Math.min(...remainders) : undefined,
  };
}
