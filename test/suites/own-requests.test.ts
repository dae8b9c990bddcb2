/**
 * No suite sends an invalid request as a valid one: a full embedded run (every suite) has no errored case, so no
 * request meant to be valid broke the description (such a request errors its case with SUITE_REQUEST_INVALID and
 * is never sent); the deliberately invalid ones the suites send say what they break.
 */
import { describe, expect, it } from "vitest";
import { describeProblems, runSuites } from "../helpers/run-suites.ts";

describe("the suites' own requests on a full embedded run", async () => {
  const run = await runSuites({});

  it("errors no case: every request meant to be valid follows the description", () => {
    const errored = run.problems.filter((event) => event.status === "errored");
    expect(describeProblems({ ...run, problems: errored })).toBe("");
    expect(run.finished.counts.errored).toBe(0);
    expect(run.finished.counts.passed).toBeGreaterThan(0);
  });

  it("sends deliberately invalid requests saying what they break (bodies, media types, page sizes, filters)", () => {
    const marks = new Set(
      run.events.flatMap((event) =>
        event.type === "exchange" && event.exchange.request.breaks !== undefined
          ? [event.exchange.request.breaks.split(":")[0]]
          : [],
      ),
    );
    for (const mark of ["body", "content-type", "query.page_size", "address", "X-Filter"]) {
      expect([...marks]).toContain(mark);
    }
  });
});
