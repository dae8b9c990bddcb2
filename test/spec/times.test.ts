import { describe, expect, it } from "vitest";
import { isWrittenInUtc, utcInstant } from "../../src/spec/times.ts";
import { inLocalTimeZone } from "../helpers/local-time-zone.ts";

const fifth = Date.UTC(2018, 0, 2, 3, 4, 5);

describe("utcInstant", () => {
  // A machine whose local time is not UTC: `Date.parse` would read a time without designator as local time.
  inLocalTimeZone();
  it.each<[string, number | undefined]>([
    ["2018-01-02T03:04:05", fifth],
    ["2018-01-02T03:04:05.250", fifth + 250],
    ["2018-01-02T03:04:05Z", fifth],
    ["2018-01-02T03:04:05+00:00", fifth],
    ["2018-01-02T05:04:05+02:00", fifth],
    ["2018-01-01T22:04:05-05:00", fifth],
    ["yesterday", undefined],
    ["2018-13-02T03:04:05", undefined],
  ])("%s", (text, instant) => {
    expect(utcInstant(text)).toBe(instant);
  });
});

describe("isWrittenInUtc", () => {
  it.each<[string, boolean]>([
    ["2018-01-02T03:04:05", true],
    ["2018-01-02T03:04:05Z", true],
    ["2018-01-02T03:04:05+00:00", true],
    ["2018-01-02T03:04:05+02:00", false],
    ["2018-01-02T03:04:05-00:00", false],
    ["2018-01-02 03:04:05", false],
    ["2018-13-02T03:04:05", false],
  ])("%s: %s", (text, utc) => {
    expect(isWrittenInUtc(text)).toBe(utc);
  });
});
