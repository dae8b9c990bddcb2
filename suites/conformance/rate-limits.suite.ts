/**
 * Rate limits as the description gives them ("Limits"):
 * - `X-RateLimit-Limit`, `-Remaining` and `-Reset` on answers are integers and consistent: 0 <= Remaining <=
 *   Limit, Remaining decreases from one answer to the next within a window (same Reset), Reset is in the future and
 *   no further than the longest window the description names (two minutes), both of the answer's own `Date` (or of
 *   the request's start without one: `answerInstants`), never of when the suite judges it; by token and by client
 *   address;
 * - driving an endpoint past its limit answers 429 with reason `Too many requests`, `Retry-After` and the error
 *   shape, accepting no more requests than `Remaining` announced; after waiting `Retry-After` requests succeed
 *   again; the dedicated limit of instance creation (createComputeInstance) is spent without touching the general one.
 *
 * The drive uses its own minted token and instance-creation requests whose body every target refuses (400), so it
 * creates nothing; it needs the target to count refused requests, as the embedded reference does. The embedded
 * target gives minted tokens the description's limits in windows shrunk by its time scale, so the drive takes a
 * second. Against a real target it spends the account's creation limit for up to a window (30 s): it runs only
 * with --allow-writes, warns first, and is tagged `costly`.
 */
import {
  answerInstants,
  answerSkewMs,
  apiFacts,
  type CaseContext,
  conventionsOf,
  defineSuite,
  describeEarliest,
  errorReasons,
  expectHeader,
  expectStatus,
  isErrorBody,
  type LiveResponse,
  type MintedToken,
  mintOrSkip,
  type Operation,
  pathOf,
  pause,
  plainRead,
  publicRead,
  requireDocumentedHeader,
  requireOperation,
  requireWrites,
  retryAfterMs,
  sendProbe,
} from "../../src/index.ts";

const { everyScope, longestRateWindowMs, tooManyRequestsReason } = apiFacts;
/** The most requests a drive sends in one burst (the description's smallest dedicated limits are 2 to 25). */
const maxDrive = 60;
/** The longest `Retry-After` the suite waits. */
const maxWaitMs = 60_000;

type RateHeaders = { readonly limit: number; readonly remaining: number; readonly reset: number };

const integer = (value?: string) =>
  value !== undefined && /^-?\d+$/.test(value.trim()) ? Number(value) : undefined;

/** `X-RateLimit-Limit`, `-Remaining` and `-Reset` as sent. */
const rawRateHeaders = (response: LiveResponse) => ({
  limit: response.headers["x-ratelimit-limit"],
  remaining: response.headers["x-ratelimit-remaining"],
  reset: response.headers["x-ratelimit-reset"],
});

/** The three as integers, when all three are. */
function rateHeaders(response: LiveResponse): RateHeaders | undefined {
  const [limit, remaining, reset] = Object.values(rawRateHeaders(response)).map(integer);
  const all = limit !== undefined && remaining !== undefined && reset !== undefined;
  return all ? { limit, remaining, reset } : undefined;
}

/** Judges one answer's headers on their own; answers them when present. */
function judgeHeaders(t: CaseContext, what: string, response: LiveResponse): RateHeaders | undefined {
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
function judgeRefusal(t: CaseContext, response: LiveResponse): void {
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

interface Drive {
  readonly token: MintedToken;
  /** Instance creation: the operation with a dedicated limit the drive spends. */
  readonly operation: Operation;
}

function driveFrom(t: CaseContext): Drive {
  const drive = t.shared.get("drive") as Drive | undefined;
  return drive ?? t.skip("no minted token to drive with: the limit-enforced case did not run");
}

/** One creation request every target refuses (400), with the drive's token, never retried. */
function refusedCreate(t: CaseContext, drive: Drive): Promise<LiveResponse> {
  // Unpaced: the client's pacer would otherwise hold the requests past the limit until the window resets.
  return sendProbe(t, drive.operation, drive.token.token, { retry: false, pace: false })!;
}

interface Spent {
  readonly announced: number;
  readonly burst: readonly LiveResponse[];
  readonly refused: readonly LiveResponse[];
  readonly lowestRemaining: number | undefined;
}

/** Reads the window's Remaining, then sends Remaining + 2 requests at once. */
async function spend(t: CaseContext, drive: Drive): Promise<Spent | undefined> {
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

export default defineSuite({
  id: "rate-limits",
  title: "Rate limits: consistent headers, 429 past a limit, recovery, a dedicated limit apart",
  description:
    "X-RateLimit-* consistency by token and by address; driving instance creation past its limit with a minted " +
    "token (refused bodies, nothing created); on real targets only with --allow-writes.",
  tags: ["costly"],
  cases: [
    {
      id: "headers-consistent",
      title:
        "X-RateLimit-* are integers, Remaining decreases within a window, Reset is ahead within two minutes",
      run: async (t) => {
        requireDocumentedHeader(t, "X-RateLimit-Remaining");
        const read = plainRead(t);
        const open = publicRead(t);
        if (!read && !open) return t.skip("the spec has no read without path parameters");
        // A minted token is this case's alone: nothing else spends its window between two answers.
        const token =
          read && t.target.writesAllowed
            ? (await mintOrSkip(t, "rate-headers", read.security.scopes[0] ?? everyScope)).token
            : undefined;
        const series: [string, Operation | undefined, string | null | undefined][] = [
          ["by token", read, token],
          ["by address", open, null],
        ];
        let compared = 0;
        for (const [what, operation, bearer] of series) {
          if (!operation) continue;
          const at = `${operation.operationId} ${what}`;
          let previous: RateHeaders | undefined;
          for (let index = 0; index < 6; index += 1) {
            const response = await t.api.get(pathOf(operation), {
              token: bearer,
              retry: false,
              ...(operation.paginated ? { query: { page_size: conventionsOf(t.spec).pageSize.min } } : {}),
            });
            const headers = judgeHeaders(t, at, response);
            if (headers && previous && headers.limit === previous.limit && headers.reset === previous.reset) {
              compared += 1;
              t.expect("Remaining decreases within a window", headers.remaining < previous.remaining, {
                message: `${at}: Remaining went ${previous.remaining} -> ${headers.remaining} within the window resetting at ${headers.reset}`,
                expected: `below ${previous.remaining}`,
                actual: headers.remaining,
                response,
              });
            }
            previous = headers;
          }
        }
        if (compared === 0)
          t.log("every pair of answers straddled a window reset: Remaining could not be compared");
      },
    },
    {
      id: "limit-enforced",
      title: "Past the instance-creation limit: 429 Too many requests with Retry-After and the error shape",
      run: async (t) => {
        requireWrites(t, "driving past a limit spends the account's instance-creation limit for a window");
        const operation = requireOperation(t, "createComputeInstance");
        const read = plainRead(t);
        if (!t.target.embedded) {
          t.log(
            `WARNING: driving ${operation.operationId} past its rate limit on ${t.target.baseUrl} with refused requests: this account's instance creation may be refused for up to a window (30 s)`,
          );
        }
        const scopes = new Set(
          [operation.security.scopes[0] ?? everyScope, read?.security.scopes[0]].filter(Boolean),
        );
        const token = await mintOrSkip(t, "rate-drive", [...scopes].join(" "));
        const drive: Drive = { token, operation };
        t.shared.set("drive", drive);
        const spent = await spend(t, drive);
        if (!spent) return;
        if (
          spent.refused.length === 0 &&
          !t.target.embedded &&
          (spent.lowestRemaining ?? 0) >= spent.announced
        ) {
          return t.skip(
            "this target does not count refused (400) creations against the limit; driving past it would need real instances",
          );
        }
        const accepted = spent.burst.length - spent.refused.length;
        const last = spent.burst.at(-1);
        t.expect("past the limit, requests answer 429", spent.refused.length > 0, {
          message: `${spent.burst.length} requests at once with Remaining ${spent.announced}: none answered 429`,
          expected: "at least one 429",
          actual: spent.burst.map((response) => response.status),
          response: last,
        });
        t.expect("no more requests are accepted than Remaining announced", accepted <= spent.announced, {
          expected: `at most ${spent.announced}`,
          actual: accepted,
          response: last,
        });
        const refusal = spent.refused[0];
        if (!refusal) return;
        judgeRefusal(t, refusal);
        t.shared.set("refusal", refusal);
      },
    },
    {
      id: "dedicated-limit-separate",
      title: "A spent instance-creation limit leaves the general limit of the same token alone",
      run: async (t) => {
        const drive = driveFrom(t);
        const read = plainRead(t) ?? t.skip("the spec has no plain read to try under the general limit");
        let refused = await refusedCreate(t, drive);
        // The window reset since the last case: spend it again (once).
        if (refused.status !== 429) refused = (await spend(t, drive))?.refused[0] ?? refused;
        if (refused.status !== 429)
          return t.skip("the creation limit could not be spent: see limit-enforced");
        const general = await t.api.get(pathOf(read), {
          token: drive.token.token,
          retry: false,
          pace: false,
        });
        const message = `${read.operationId} with the same token answered ${general.status} right after ${drive.operation.operationId} answered 429`;
        expectStatus(t, "a spent dedicated limit leaves the general one alone", general, 200, message);
        const headers = rateHeaders(general);
        if (headers) {
          t.expect("the general limit still has room", headers.remaining > 0, {
            actual: headers.remaining,
            response: general,
          });
        }
        t.shared.set("refusal", refused);
      },
    },
    {
      id: "recovery",
      title: "After waiting Retry-After, requests succeed again",
      run: async (t) => {
        const drive = driveFrom(t);
        const refusal = t.shared.get("refusal") as LiveResponse | undefined;
        if (!refusal) return t.skip("no 429 was seen: nothing to recover from");
        const reset = rateHeaders(refusal)?.reset;
        const waitMs =
          retryAfterMs(refusal.headers["retry-after"], Date.now()) ??
          (reset !== undefined ? Math.max(0, reset * 1000 - Date.now()) : 1000);
        if (waitMs > maxWaitMs) {
          return t.skip(`Retry-After asks for ${Math.round(waitMs / 1000)} s: longer than this suite waits`);
        }
        await pause(waitMs + (t.target.embedded ? 100 : 1000), t.signal);
        const after = await refusedCreate(t, drive);
        t.expect("after waiting Retry-After, requests succeed again", after.status !== 429, {
          message: `${drive.operation.operationId} still answered 429 ${Math.round(waitMs / 1000)} s later`,
          expected: "not 429",
          actual: after.status,
          response: after,
        });
      },
    },
  ],
});
