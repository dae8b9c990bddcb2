/**
 * Times stay UTC whatever the profile's timezone ("General facts"): the versioning suite sets the profile to a
 * zone far from UTC, mints a token and judges the times of its answer.
 * @module
 */
import {
  type CaseContext,
  call,
  expectStatus,
  isWrittenInUtc,
  type LiveResponse,
  mintToken,
  requireOperation,
  requireWrites,
  runTokenScopes,
  utcInstant,
} from "../../../src/index.ts";

/** How far a fresh `created` may be from this machine's clock (the target's clock may drift a little). */
const clockSlackMs = 60_000;
const day = 86_400_000;

/** How far `zone`'s clock is ahead of UTC at `at` (ms; negative west of Greenwich). */
function zoneOffsetMs(zone: string, at: number): number {
  const wall = (timeZone: string) =>
    Date.parse(`${new Date(at).toLocaleString("sv-SE", { timeZone }).replace(" ", "T")}Z`);
  return wall(zone) - wall("UTC");
}

/**
 * Judges one time of the token's answer: written in UTC (the designator, and not shifted by the zone's offset:
 * the profile's local time written as UTC is no UTC), then at the moment it names. A time that is merely off (a
 * target's clock, a stale record) is not labelled a time-zone failure: it fails as a wrong time.
 */
export function judgeTime(
  t: CaseContext,
  seen: {
    zone: string;
    field: string;
    value: unknown;
    earliest: number;
    latest: number;
    response: LiveResponse;
  },
): void {
  const { zone, field, value, earliest, latest, response } = seen;
  const at = typeof value === "string" ? utcInstant(value) : undefined;
  const window = `between ${new Date(earliest).toISOString()} and ${new Date(latest).toISOString()}`;
  const reads = `with the profile's timezone ${zone}, ${field} reads ${JSON.stringify(value)}`;
  const shifted =
    at !== undefined &&
    Math.abs(at - zoneOffsetMs(zone, at) - (earliest + latest) / 2) <= (latest - earliest) / 2 + 1_000;
  const utc =
    typeof value === "string" &&
    isWrittenInUtc(value) &&
    at !== undefined &&
    !(shifted && (at < earliest || at > latest));
  t.expect("a time written under a non-UTC profile is UTC", utc, {
    message: shifted ? `${reads}: the profile's local time (${zone}), not UTC` : reads,
    expected: `a UTC time (no designator, Z or +00:00) ${window}`,
    actual: value,
    response,
  });
  if (!utc) return;
  t.expect(`a new token's ${field} is the time it names`, at >= earliest && at <= latest, {
    message: `${field} reads ${JSON.stringify(value)}, ${Math.round((at - (earliest + latest) / 2) / 60_000)} min off ${window} (a UTC time, but not this moment: the target's clock or a stale record?)`,
    expected: `a time ${window}`,
    actual: value,
    response,
  });
}

/**
 * With the profile's timezone set to a zone far from UTC, mints a token (expiring in a day, sent as `...Z`) and
 * judges the times of its answer: each written in UTC, `created` within a minute of now, `expiry` the instant
 * sent. The timezone is set back whatever happens.
 */
export async function timesUnderAnotherZone(t: CaseContext): Promise<void> {
  requireOperation(t, "updateProfile");
  requireOperation(t, "createPersonalAccessToken");
  requireWrites(t, "setting the profile's timezone changes the account");
  const profile = await call(t, "getProfile");
  if (!expectStatus(t, "setup: read the profile", profile, 200)) return;
  const original = (profile.json as { timezone?: unknown } | undefined)?.timezone;
  if (typeof original !== "string") return t.skip("the profile shows no timezone to set back afterwards");
  if (profile.headers["x-oauth-scopes"] === undefined)
    return t.skip(
      "the target does not say the run token's scopes (X-OAuth-Scopes): a new token's are unknowable",
    );
  // Garbage there is the target's failure (asserted), not a request of ours to error on.
  const scopes = runTokenScopes(t, profile);
  if (!scopes) return;
  const zone = original === "America/New_York" ? "Asia/Tokyo" : "America/New_York";
  const set = await call(t, "updateProfile", { json: { timezone: zone } });
  try {
    if (!expectStatus(t, `setup: set the profile's timezone to ${zone}`, set, 200)) return;
    const expiry = `${new Date(Date.now() + day).toISOString().slice(0, 19)}Z`;
    const before = Date.now();
    const outcome = await mintToken(t, "utc-times", scopes, expiry);
    const after = Date.now();
    if (!outcome.ok) {
      expectStatus(t, "setup: create a personal access token", outcome.response, 200);
      return;
    }
    const { response } = outcome;
    const body = (response.json ?? {}) as { created?: unknown; expiry?: unknown };
    const times: [string, unknown, number, number][] = [
      ["created", body.created, before - clockSlackMs, after + clockSlackMs],
      ["expiry", body.expiry, Date.parse(expiry), Date.parse(expiry)],
    ];
    for (const [field, value, earliest, latest] of times)
      judgeTime(t, { zone, field, value, earliest, latest, response });
  } finally {
    const restored = await call(t, "updateProfile", { json: { timezone: original } });
    expectStatus(t, `cleanup: set the profile's timezone back to ${original}`, restored, 200);
  }
}
