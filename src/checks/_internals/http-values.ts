/**
 * Parsers for the header values checks judge: media types, integers, HTTP-dates. Each returns `undefined` for
 * a value it cannot read, never throws.
 * @module
 * @internal
 */
import { BoundedMemo } from "../../core/bounded-memo.ts";

export interface MediaType {
  /** Lower-cased `type/subtype` without parameters (the "essence"). */
  readonly essence: string;
  /** Parameter names lower-cased, values unquoted (RFC 9110 §8.3.1). */
  readonly parameters: Readonly<Record<string, string>>;
}

/** Parsed values remembered: several checks parse every answer's Content-Type, and a run sees few distinct ones. */
const parsedMediaTypes = new BoundedMemo<string, MediaType | undefined>(1024);

/** Parses a Content-Type value: `application/json; charset=utf-8`. */
export function parseMediaType(value: string | undefined): MediaType | undefined {
  if (value === undefined) return undefined;
  return parsedMediaTypes.get(value, readMediaType);
}

function readMediaType(value: string): MediaType | undefined {
  const [head = "", ...rest] = value.split(";");
  const essence = head.trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/.test(essence)) return undefined;
  const parameters: Record<string, string> = {};
  for (const part of rest) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const name = part.slice(0, at).trim().toLowerCase();
    const raw = part.slice(at + 1).trim();
    parameters[name] = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw;
  }
  // Frozen: the same object is handed to every caller.
  return Object.freeze({ essence, parameters: Object.freeze(parameters) });
}

/** `application/json` or a structured `+json` type (RFC 6839 §3.1). */
export function isJsonMediaType(type: string): boolean {
  const essence = parseMediaType(type)?.essence ?? type.toLowerCase();
  return essence === "application/json" || /^[a-z]+\/[^;]+\+json$/.test(essence);
}

/** A decimal integer, optionally negative (so callers can say "negative" rather than "not an integer"). */
export function parseInteger(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^-?\d+$/.test(trimmed)) return undefined;
  const number = Number(trimmed);
  return Number.isSafeInteger(number) ? number : undefined;
}

/** A JSON-style decimal number. */
export function parseNumber(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(trimmed)) return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const day = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const longDay = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const month = `(${months.join("|")})`;
const time = "(\\d{2}):(\\d{2}):(\\d{2})";
/** IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const imfFixdate = new RegExp(`^${day}, (\\d{2}) ${month} (\\d{4}) ${time} GMT$`);
/** Obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const rfc850Date = new RegExp(`^${longDay}, (\\d{2})-${month}-(\\d{2}) ${time} GMT$`);
/** Obsolete asctime form: `Sun Nov  6 08:49:37 1994`. */
const asctimeDate = new RegExp(`^${day} ${month} ([ \\d]\\d) ${time} (\\d{4})$`);

interface DateParts {
  readonly day: string;
  readonly month: string;
  readonly year: number;
  readonly hour: string;
  readonly minute: string;
  readonly second: string;
}

function dateParts(value: string, now: number): DateParts | undefined {
  const imf = imfFixdate.exec(value);
  if (imf) {
    const [, day = "", month = "", year = "", hour = "", minute = "", second = ""] = imf;
    return { day, month, year: Number(year), hour, minute, second };
  }
  const rfc850 = rfc850Date.exec(value);
  if (rfc850) {
    const [, day = "", month = "", yy = "", hour = "", minute = "", second = ""] = rfc850;
    // A two-digit year more than 50 years ahead is read as the most recent past year with those digits (§5.6.7).
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(yy);
    if (year > thisYear + 50) year -= 100;
    return { day, month, year, hour, minute, second };
  }
  const asctime = asctimeDate.exec(value);
  if (asctime) {
    const [, month = "", day = "", hour = "", minute = "", second = "", year = ""] = asctime;
    return { day: day.trim(), month, year: Number(year), hour, minute, second };
  }
  return undefined;
}

/** Parses an HTTP-date in any of the three forms a recipient must accept (RFC 9110 §5.6.7) to epoch ms. */
export function parseHttpDate(value: string, now = Date.now()): number | undefined {
  const parts = dateParts(value, now);
  if (!parts) return undefined;
  const monthIndex = months.indexOf(parts.month);
  const [date, hour, minute, second] = [parts.day, parts.hour, parts.minute, parts.second].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  // A leap second (60) is allowed by the grammar (RFC 9110 §5.6.7); other fields must name a real instant.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const epoch = Date.UTC(parts.year, monthIndex, date, hour, minute, Math.min(second, 59));
  const instant = new Date(epoch);
  if (instant.getUTCDate() !== date || instant.getUTCMonth() !== monthIndex) return undefined;
  return epoch;
}
