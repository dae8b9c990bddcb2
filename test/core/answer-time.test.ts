import { describe, expect, it } from "vitest";
import { answerInstants, describeEarliest } from "../../src/core/answer-time.ts";

const sentAt = Date.UTC(2026, 10, 27, 15, 56, 15);
const receivedAt = Date.UTC(2026, 10, 27, 15, 57, 37);

describe("answerInstants: what an answer speaks of", () => {
  it.each<[string, string | undefined, { earliest: number; latest: number; dated: boolean }, string]>([
    [
      "its own Date, both ways",
      "Fri, 27 Nov 2026 15:56:42 GMT",
      {
        earliest: Date.UTC(2026, 10, 27, 15, 56, 42),
        latest: Date.UTC(2026, 10, 27, 15, 56, 42),
        dated: true,
      },
      "the answer's own Date",
    ],
    [
      "without a Date: the request's start and its receipt",
      undefined,
      { earliest: sentAt, latest: receivedAt, dated: false },
      "the request was sent",
    ],
    [
      "an unreadable Date: the same",
      "yesterday",
      { earliest: sentAt, latest: receivedAt, dated: false },
      "the request was sent",
    ],
    [
      "an obsolete form (RFC 850): the same",
      "Friday, 27-Nov-26 15:56:42 GMT",
      { earliest: sentAt, latest: receivedAt, dated: false },
      "the request was sent",
    ],
  ])("%s", (_name, date, instants, words) => {
    const said = answerInstants(date, sentAt, receivedAt);
    expect(said).toEqual(instants);
    expect(describeEarliest(said)).toBe(words);
  });
});
