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
  apiFacts,
  conventionsOf,
  defineSuite,
  expectStatus,
  type LiveResponse,
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
  sharedKey,
} from "../../src/index.ts";
import {
  type Drive,
  judgeHeaders,
  judgeRefusal,
  maxWaitMs,
  type RateHeaders,
  rateHeaders,
  refusedCreate,
  spend,
} from "./support/rate-limits.ts";

const { everyScope } = apiFacts;
/** The drive's token and operation, and the 429 to recover from: both the limit-enforced case's. */
const driveKey = sharedKey<Drive>("drive", { what: "a minted token to drive with", from: "limit-enforced" });
const refusalKey = sharedKey<LiveResponse>("refusal", {
  what: "a 429 to recover from",
  from: "limit-enforced",
});

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
        t.shared.set(driveKey, drive);
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
        t.shared.set(refusalKey, refusal);
      },
    },
    {
      id: "dedicated-limit-separate",
      title: "A spent instance-creation limit leaves the general limit of the same token alone",
      run: async (t) => {
        const drive = t.needs(driveKey);
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
        t.shared.set(refusalKey, refused);
      },
    },
    {
      id: "recovery",
      title: "After waiting Retry-After, requests succeed again",
      run: async (t) => {
        const drive = t.needs(driveKey);
        const refusal = t.needs(refusalKey);
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
