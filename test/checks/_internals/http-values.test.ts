import { describe, expect, it } from "vitest";
import { isJsonMediaType, parseInteger, parseMediaType } from "../../../src/checks/_internals/http-values.ts";

describe("parseMediaType", () => {
  it.each<[string | undefined, { essence: string; parameters: Record<string, string> } | undefined]>([
    ["application/json", { essence: "application/json", parameters: {} }],
    ["Application/JSON; charset=UTF-8", { essence: "application/json", parameters: { charset: "UTF-8" } }],
    ['text/html; charset="utf-8"; q', { essence: "text/html", parameters: { charset: "utf-8" } }],
    ["application/problem+json", { essence: "application/problem+json", parameters: {} }],
    ["json", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%j, the first time and again", (value, expected) => {
    expect(parseMediaType(value)).toEqual(expected);
    expect(parseMediaType(value)).toEqual(expected);
  });

  it("hands every caller the same frozen value", () => {
    const first = parseMediaType("application/json; charset=utf-8");
    expect(parseMediaType("application/json; charset=utf-8")).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.parameters)).toBe(true);
  });
});

describe("isJsonMediaType and parseInteger", () => {
  it.each([
    ["application/json", true],
    ["application/vnd.api+json; charset=utf-8", true],
    ["text/html", false],
    ["application/jsonp", false],
  ])("%s is JSON: %s", (value, expected) => {
    expect(isJsonMediaType(value)).toBe(expected);
  });

  it.each([
    ["42", 42],
    [" -7 ", -7],
    ["4.2", undefined],
    ["9007199254740993", undefined],
    ["", undefined],
  ])("%j reads as %s", (value, expected) => {
    expect(parseInteger(value)).toBe(expected);
  });
});
