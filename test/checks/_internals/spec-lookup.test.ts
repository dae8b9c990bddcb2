import { describe, expect, it } from "vitest";
import { documentedResponse } from "../../../src/checks/_internals/spec-lookup.ts";
import type { OperationInfo, ResponseInfo } from "../../../src/spec/types.ts";

const response = (status: string) => ({ status }) as ResponseInfo;
const operation = (...statuses: string[]) =>
  ({ responses: statuses.map(response) }) as unknown as OperationInfo;

describe("documentedResponse", () => {
  const withRangeAndDefault = operation("200", "404", "4xx", "default");
  const exactOnly = operation("200", "201");

  it.each<[string, OperationInfo, number, string | undefined]>([
    ["the exact code first", withRangeAndDefault, 404, "404"],
    ["then its range (any case)", withRangeAndDefault, 418, "4xx"],
    ["then default", withRangeAndDefault, 503, "default"],
    ["an exact 2xx", withRangeAndDefault, 200, "200"],
    ["nothing when nothing covers it", exactOnly, 500, undefined],
    ["an exact code among several", exactOnly, 201, "201"],
  ])("%s: %s answers %i with %s, the first time and again", (_name, op, status, expected) => {
    expect(documentedResponse(op, status)?.status).toBe(expected);
    expect(documentedResponse(op, status)?.status).toBe(expected);
  });

  it("answers per operation: the same status under two operations is looked up in each", () => {
    expect(documentedResponse(withRangeAndDefault, 500)?.status).toBe("default");
    expect(documentedResponse(exactOnly, 500)).toBeUndefined();
  });
});
