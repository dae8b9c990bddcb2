import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { describe, expect, it } from "vitest";
import { rememberFormats } from "../../src/spec/remembered-formats.ts";

const addFormats = addFormatsPlugin.default;

function ajvWith(remember: boolean, options?: Parameters<typeof rememberFormats>[1]) {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv, { mode: "full" });
  if (remember) rememberFormats(ajv, options);
  return ajv;
}

const cases: [format: string, value: unknown][] = [
  ["date-time", "2026-11-23T03:44:36Z"],
  ["date-time", "2026-02-30T03:44:36Z"],
  ["date-time", "2024-02-29T23:59:60+01:00"],
  ["date-time", "2026-11-23 03:44:36"],
  ["date", "2024-02-29"],
  ["date", "2023-02-29"],
  ["time", "25:00:00Z"],
  ["ipv4", "198.18.0.2"],
  ["ipv4", "256.1.1.1"],
  ["ipv6", "2001:db8:bb::2"],
  ["ipv6", "2001:db8:::2"],
  ["hostname", "nb-198-18-0-2.us-east.nodebalancer.example.net"],
  ["hostname", "-bad-.example"],
  ["uri", "https://example.net/a?b=c"],
  ["uri", "not a uri"],
  ["regex", "^[a-z]+$"],
  ["regex", "(unclosed"],
  ["email", "a@example.net"],
  ["uuid", "0c8f8e2a-5a3b-4c1d-9e2f-1a2b3c4d5e6f"],
  ["int32", 2 ** 31],
  ["int32", 7],
  ["date-time", 42],
];

describe("remembered formats", () => {
  const plain = ajvWith(false);
  const remembered = ajvWith(true);

  it.each(cases)("%s %j: the same answer as ajv-formats, the first time and again", (format, value) => {
    const expected = plain.validate({ format }, value);
    for (let time = 0; time < 3; time += 1) expect(remembered.validate({ format }, value)).toBe(expected);
  });

  it("stays right when its memory fills and is emptied, and for values too long to keep", () => {
    const small = ajvWith(true, { maxEntries: 2, maxLength: 12 });
    const validate = small.compile({ type: "string", format: "date" });
    const values = ["2024-02-29", "2023-02-29", "2024-13-01", "2024-01-31", "2024-02-29", "2023-02-29"];
    expect(values.map((value) => validate(value))).toEqual([true, false, false, true, true, false]);
    const longTime = small.compile({ type: "string", format: "date-time" });
    expect([longTime("2026-11-23T03:44:36Z"), longTime("2026-11-23T03:44:66Z")]).toEqual([true, false]);
  });
});
