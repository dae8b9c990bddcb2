/**
 * Times are written in the profile's display timezone instead of UTC (cloud-api-v4.md "General facts": all times
 * are UTC regardless of the profile's `timezone`). The shape is unchanged (`YYYY-MM-DDTHH:MM:SS`, no designator),
 * so only a case that sets a non-UTC timezone and compares a fresh `created` with the UTC clock can tell.
 */
import type { Fault } from "./types.ts";

/** A time as the clean server writes it: UTC, seconds precision, no zone designator. */
const utcTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** `utc` (a UTC time as the server writes it) as the wall-clock time in `timeZone`, in the same shape. */
export function wallClockIn(utc: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(new Date(`${utc}Z`))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** `value` with every UTC time in it (at any depth) shifted to `timeZone`'s wall clock. */
function shiftTimes(value: unknown, timeZone: string): unknown {
  if (typeof value === "string") return utcTime.test(value) ? wallClockIn(value, timeZone) : value;
  if (Array.isArray(value)) return value.map((item) => shiftTimes(item, timeZone));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shiftTimes(item, timeZone)]));
  }
  return value;
}

export const profileTimezoneInTimes: Fault = {
  id: "profile-timezone-in-times",
  description: "times in answers are written in the profile's timezone instead of UTC",
  detectedBy: {
    suites: ["versioning"],
    checks: ["assert:a time written under a non-UTC profile is UTC", "created-time-utc"],
  },
  apply: (target) =>
    target.rewriteReplies((outgoing) => {
      const { timezone } = target.state.profile;
      if (timezone === "UTC" || outgoing.raw !== undefined) return outgoing;
      return { ...outgoing, body: shiftTimes(outgoing.body, timezone), raw: undefined };
    }),
};
