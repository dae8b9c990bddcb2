/**
 * Waiting for several things at once (issue 31): one deadline for all of them, not one each in a row; what did not
 * happen is one failure listing it; when nothing happened at all the failure says the target shows no sign of
 * delivering, so a suite can stop waiting for more of the same.
 */
import { describe, expect, it } from "vitest";
import type { LiveResponse } from "../../src/runner/contracts.ts";
import { type AwaitedThing, waitFor, waitForAll } from "../../src/toolkit/waits.ts";
import { fakeCase, specWith } from "../helpers/fake-case.ts";

const spec = await specWith();
// A short deadline and poll (the fake target answers at once).
const options = { workflows: { deadlineMs: 300, pollMs: 20 } };

/** A thing that happens on its `at`-th poll (never when undefined), counting its polls. */
function thing(key: string, at: number | undefined, polls: Map<string, number>): AwaitedThing {
  return {
    key,
    poll: async () => {
      polls.set(key, (polls.get(key) ?? 0) + 1);
      return { status: polls.get(key) === at ? 200 : 404, headers: {} } as unknown as LiveResponse;
    },
    accept: (response) => response.status === 200,
    describe: (response) => `HTTP ${response?.status ?? "none"}`,
  };
}

describe("waitForAll", () => {
  it("waits for all under one deadline, stopping polling each as it happens", async () => {
    const fake = fakeCase(spec, undefined, { options, embedded: false, baseUrl: "https://127.0.0.1:1/v4" });
    const polls = new Map<string, number>();
    const things = [thing("a", 1, polls), thing("b", 3, polls), thing("c", 2, polls)];
    const waited = await waitForAll(fake.t, "all happen", things);
    expect([...waited.happened.keys()].sort()).toEqual(["a", "b", "c"]);
    expect(waited.missed).toEqual([]);
    expect(Object.fromEntries(polls)).toEqual({ a: 1, b: 3, c: 2 });
    expect(fake.expectations).toEqual([]);
    expect(fake.logs.map((line) => line.replace(/after .*/, "after"))).toEqual([
      "all happen: a after",
      "all happen: c after",
      "all happen: b after",
    ]);
  });

  it("ends after one deadline when some never happen, one failure naming them", async () => {
    const fake = fakeCase(spec, undefined, { options, embedded: false });
    const polls = new Map<string, number>();
    const order: string[] = [];
    const things = [
      thing("a", 1, polls),
      thing("never-1", undefined, polls),
      thing("never-2", undefined, polls),
    ].map((each) => ({
      ...each,
      poll: () => {
        order.push(each.key);
        return each.poll();
      },
    }));
    const waited = await waitForAll(fake.t, "all happen", things);
    // Polled together in rounds (in a row, never-2 would be polled only after never-1's deadline).
    expect(order.indexOf("never-2")).toBeLessThan(order.lastIndexOf("never-1"));
    expect(polls.get("never-1")).toBe(polls.get("never-2"));
    expect(waited.missed).toEqual(["never-1", "never-2"]);
    expect(waited.noneHappened).toBe(false);
    expect(fake.expectations).toHaveLength(1);
    expect(fake.expectations[0]?.ok).toBe(false);
    expect(fake.expectations[0]?.details?.message).toMatch(
      /^all happen: 2 of 3 did not happen within 300 ms \(\d+ rounds of polls\): never-1: HTTP 404; never-2: HTTP 404$/,
    );
  });

  it("says when none happened: the target shows no sign of delivering them", async () => {
    const fake = fakeCase(spec, undefined, { options, embedded: false });
    const polls = new Map<string, number>();
    const waited = await waitForAll(fake.t, "events", [
      thing("x", undefined, polls),
      thing("y", undefined, polls),
    ]);
    expect(waited.noneHappened).toBe(true);
    expect(fake.expectations).toHaveLength(1);
    expect(fake.expectations[0]?.details?.message).toMatch(
      /none of the 2 happened within 300 ms .*no sign of delivering them, all judged absent together/,
    );
  });
});

describe("a suite stops waiting once its target showed it does not change", () => {
  /** Answers with a body and an X-RateLimit-Remaining that counts down when `live`, stays when not. */
  const answers = (live: boolean) => {
    let remaining = 100;
    return async () => {
      if (live) remaining -= 1;
      return {
        status: 200,
        headers: { "x-ratelimit-remaining": String(remaining) },
        text: '{"status":"Unknown"}',
      } as unknown as LiveResponse;
    };
  };

  it.each([
    ["a static mock: the second wait is judged on one answer", false, 1],
    ["a live server (its counter moves): the second wait waits its deadline", true, 2],
  ])("%s", async (_name, live, minimumPolls) => {
    const shared = new Map<string, unknown>();
    const first = fakeCase(spec, undefined, { options, embedded: false, shared, caseId: "first" });
    const poll = answers(live);
    const never = () => false;
    await waitFor(first.t, "nodes checked", poll, never, () => "Unknown", { required: false });
    const second = fakeCase(spec, undefined, { options, embedded: false, shared, caseId: "second" });
    let polls = 0;
    const counted = () => {
      polls += 1;
      return poll();
    };
    await waitFor(second.t, "up 1, down 1", counted, never, () => "Unknown");
    expect(second.expectations).toHaveLength(1);
    if (live) {
      expect(polls).toBeGreaterThanOrEqual(minimumPolls);
      expect(second.expectations[0]?.details?.message).toMatch(/not within 300 ms/);
    } else {
      expect(polls).toBe(minimumPolls);
      expect(second.expectations[0]?.details?.message).toMatch(
        /^up 1, down 1: not waited for: during "nodes checked" the target answered the same/,
      );
    }
  });
});
