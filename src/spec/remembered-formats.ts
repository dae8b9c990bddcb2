/**
 * Remembers what each string format said about a value. A run meets the same values again and again (a
 * resource's `created` and `updated`, its addresses and host name, in every list page and every read of it),
 * and the exact format checks are the dearest part of validating a body: ajv-formats' full `date-time` parses
 * the date and the time, its `ipv6` is a regular expression of some 1,500 characters. A remembered answer is the
 * same answer: formats are pure functions of the string.
 * @module
 * @internal
 */
import type { Ajv, Format, FormatDefinition } from "ajv";
import { BoundedMemo } from "../core/bounded-memo.ts";

export interface RememberOptions {
  /** Answers kept per format; the memory is emptied when full (bounded, and cheap to keep). */
  readonly maxEntries: number;
  /** Longer values are checked each time (they rarely repeat, and would hold memory). */
  readonly maxLength: number;
}

export const rememberDefaults: RememberOptions = { maxEntries: 4096, maxLength: 256 };

type StringCheck = (value: string) => boolean;

function remembering(check: StringCheck, options: RememberOptions): StringCheck {
  const answers = new BoundedMemo<string, boolean>(options.maxEntries);
  return (value) => (value.length > options.maxLength ? check(value) : answers.get(value, check));
}

/**
 * Replaces every synchronous string format of `ajv` with one that remembers its answers. Call it after the
 * formats are added and before any schema is compiled (compiled code holds the format it was compiled with).
 */
export function rememberFormats(ajv: Ajv, options: RememberOptions = rememberDefaults): void {
  for (const [name, format] of Object.entries(ajv.formats) as [string, Format][]) {
    if (format instanceof RegExp) {
      ajv.addFormat(name, { type: "string", validate: remembering((value) => format.test(value), options) });
    } else if (typeof format === "function") {
      ajv.addFormat(name, { type: "string", validate: remembering(format, options) });
    } else if (
      typeof format === "object" &&
      format.async !== true &&
      (format.type ?? "string") === "string"
    ) {
      const { validate: check, compare } = format as FormatDefinition<string>;
      const test: StringCheck =
        check instanceof RegExp ? (value) => check.test(value) : (check as StringCheck);
      ajv.addFormat(name, {
        type: "string",
        validate: remembering(test, options),
        ...(compare ? { compare } : {}),
      });
    }
  }
}
