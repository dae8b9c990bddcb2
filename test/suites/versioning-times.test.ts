/**
 * Issue 31: a stale token time (written in UTC, but not the moment it names) is not labelled "times are UTC";
 * the profile's local time written as UTC still is.
 */
import { describe, expect, it } from "vitest";
import { judgeTime } from "../../suites/conformance/support/utc-times.ts";
import { fakeCase, liveResponse, specWith } from "../helpers/fake-case.ts";

const spec = await specWith();
const now = Date.parse("2026-11-27T12:00:00Z");
const window = { earliest: now - 60_000, latest: now + 60_000 };
const utcName = "a time written under a non-UTC profile is UTC";
const timeName = "a new token's created is the time it names";

describe("judgeTime", () => {
  it.each<[string, string, Record<string, boolean>]>([
    ["the moment, in UTC", "2026-11-27T12:00:10", { [utcName]: true, [timeName]: true }],
    ["a stale UTC time (3 days old)", "2026-11-24T12:00:00", { [utcName]: true, [timeName]: false }],
    ["the profile's local time (Tokyo, +9 h) written as UTC", "2026-11-27T21:00:00", { [utcName]: false }],
    ["another offset's designator", "2026-11-27T21:00:00+09:00", { [utcName]: false }],
  ])("%s", (_name, value, verdicts) => {
    const fake = fakeCase(spec);
    const response = liveResponse({ status: 200, json: { created: value } });
    judgeTime(fake.t, { zone: "Asia/Tokyo", field: "created", value, ...window, response });
    expect(Object.fromEntries(fake.expectations.map((entry) => [entry.name, entry.ok]))).toEqual(verdicts);
  });
});
