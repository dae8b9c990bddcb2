/**
 * When an answer speaks of: the instants a time in it (`X-RateLimit-Reset`) is judged against. Its own `Date`
 * (RFC 9110 §6.6.1: when the target made it, on the clock that wrote the rest) where it carries a readable one;
 * else the request's start (the answer cannot predate it) and its receipt (it cannot come later). Never the moment
 * conform got round to judging it: a stall on our side (a busy event loop, a loaded machine) is not the target's.
 * @module
 */

/** How far a time may stray past the instant it is judged against: `Date`'s one-second resolution, or the
 * difference between the target's clock and ours. */
export const answerSkewMs = 1000;

export interface AnswerInstants {
  /** The earliest instant the answer can speak of (epoch ms): a time it says has passed must not be before it. */
  readonly earliest: number;
  /** The latest instant (epoch ms): how far ahead a time it gives lies is measured from here. */
  readonly latest: number;
  /** Whether both are the answer's own `Date`. */
  readonly dated: boolean;
}

/** The instants an answer with `dateHeader`, to a request sent at `sentAt` and received whole at `receivedAt`, speaks of. */
export function answerInstants(
  dateHeader: string | undefined,
  sentAt: number,
  receivedAt: number,
): AnswerInstants {
  const date = answerDate(dateHeader);
  return date === undefined
    ? { earliest: sentAt, latest: receivedAt, dated: false }
    : { earliest: date, latest: date, dated: true };
}

/** The earliest instant in words, after "before": "the answer's own Date" or "the request was sent". */
export function describeEarliest(instants: AnswerInstants): string {
  return instants.dated ? "the answer's own Date" : "the request was sent";
}

/** IMF-fixdate, the form a sender must generate (RFC 9110 §5.6.7); the obsolete forms fall back to the request. */
const imfFixdate =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** One answer's Date is most often the previous one's (a second holds many answers): read once. */
let lastDate: { readonly text: string; readonly ms: number | undefined } = { text: "", ms: undefined };

/** An answer's `Date` in epoch ms, when it is a readable IMF-fixdate. Allocates nothing for the last one read. */
export function answerDate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (text !== lastDate.text) {
    const ms = imfFixdate.test(text) ? Date.parse(text) : Number.NaN;
    lastDate = { text, ms: Number.isNaN(ms) ? undefined : ms };
  }
  return lastDate.ms;
}
