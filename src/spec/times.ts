/**
 * Times as the API writes them (cloud-api-v4.md "General facts", the description's `UtcDateTime`): UTC whatever
 * the profile's timezone, `YYYY-MM-DDTHH:MM:SS` with no zone designator. JavaScript's `Date.parse` reads such a
 * time as local time, so every comparison of the API's times goes through {@link utcInstant}, which reads it as
 * UTC; an explicit offset (`Z`, `+00:00`, `+02:00`) is honoured as written.
 * @module
 */

/** A date and time with no zone designator (fractions of a second allowed). */
const withoutDesignator = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?$/;

/** A time written in UTC: no designator, `Z`, or `+00:00` (RFC 3339's `-00:00` says the offset is unknown). */
const writtenInUtc = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|\+00:00)?$/;

/** The instant (epoch ms) `text` names, a time without designator read as UTC; undefined when it is no time. */
export function utcInstant(text: string): number | undefined {
  const instant = Date.parse(withoutDesignator.test(text) ? `${text}Z` : text);
  return Number.isNaN(instant) ? undefined : instant;
}

/** Is `text` a time written in UTC (no designator, `Z` or `+00:00`), as the API writes every time? */
export function isWrittenInUtc(text: string): boolean {
  return writtenInUtc.test(text) && utcInstant(text) !== undefined;
}
