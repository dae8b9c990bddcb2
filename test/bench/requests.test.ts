/**
 * Section 7's pure parts: duplicate GETs counted per caller and listed with the suites that sent them; the
 * figures and the goal judged from what the worker saw.
 */
import { describe, expect, it } from "vitest";
import {
  type ChildOutput,
  duplicateGets,
  requestsBaseline,
  requestsGoal,
  requestsResult,
  type SentRequest,
} from "../../bench/requests.ts";

const get = (path: string, caller = "a1", headers: Record<string, string> = {}): SentRequest => ({
  method: "GET",
  path,
  headers: { accept: "application/json", ...headers },
  caller,
});
const by = (path: string, suiteId: string, headers: Record<string, string> = {}) => ({
  method: "GET",
  path,
  headers: { accept: "application/json", ...headers },
  suiteId,
});

describe("duplicateGets", () => {
  it.each<[string, SentRequest[], number]>([
    ["the same GET twice by one caller: one duplicate", [get("/regions"), get("/regions")], 1],
    ["the same GET by two callers: none", [get("/regions", "a1"), get("/regions", "b2")], 0],
    ["another query: none", [get("/regions?page=1"), get("/regions?page=2")], 0],
    [
      "another X-Filter: none",
      [get("/types", "a1", { "x-filter": '{"a":1}' }), get("/types", "a1", { "x-filter": '{"a":2}' })],
      0,
    ],
    [
      "a write is never a duplicate",
      [
        { ...get("/things"), method: "POST" },
        { ...get("/things"), method: "POST" },
      ],
      0,
    ],
    ["three times: two duplicates", [get("/profile"), get("/profile"), get("/profile")], 2],
  ])("%s", (_name, wire, duplicates) => {
    expect(duplicateGets(wire, []).duplicates).toBe(duplicates);
  });

  it("lists the most sent first, with every suite that sent them", () => {
    const wire = [get("/a"), get("/a"), get("/b"), get("/b"), get("/b"), get("/c")];
    const sentBy = [by("/a", "lists"), by("/b", "filters"), by("/b", "catalogue"), by("/b", "filters")];
    expect(duplicateGets(wire, sentBy).top).toEqual([
      { request: "GET /b", count: 3, suites: ["catalogue", "filters"] },
      { request: "GET /a", count: 2, suites: ["lists"] },
    ]);
  });

  it("names the headers that set a request apart, not the usual Accept", () => {
    const wire = [get("/t", "a1", { "x-filter": "{}" }), get("/t", "a1", { "x-filter": "{}" })];
    expect(duplicateGets(wire, []).top[0]?.request).toBe("GET /t [x-filter: {}]");
  });
});

const output = (faults?: ChildOutput["faults"]): ChildOutput => ({
  clean: {
    durationMs: 1,
    exitCode: 0,
    counts: { passed: 1 },
    exchanges: 3,
    wire: [get("/a"), get("/a"), get("/a"), { ...get("/x"), method: "DELETE" }],
    sentBy: [by("/a", "lists")],
  },
  ...(faults ? { faults } : {}),
});
const matrix = (sums: (number | null)[]): ChildOutput["faults"] => ({
  rows: sums.map((requestsToDetection, index) => ({
    id: `f${index}`,
    caught: requestsToDetection !== null,
    requestsToDetection,
    requests: 10,
  })),
  cleanRequests: 5,
  cleanPassed: true,
  caught: sums.filter((sum) => sum !== null).length,
  total: sums.length,
});

describe("requestsResult and its goal", () => {
  it("sums requests to detection over the faults detected", () => {
    const result = requestsResult(output(matrix([4, 6, null])), true);
    expect(result.faults).toMatchObject({ detected: 2, sumToDetection: 10, caught: 2, total: 3 });
    expect(result.clean).toMatchObject({ requests: 3, wireRequests: 4, gets: 3, duplicateGets: 2 });
    expect(result.problems).toEqual(["fault matrix: 2/3 caught"]);
  });

  it("fewer requests on the wire than exchanges is an invalid measurement", () => {
    const seen = output();
    const result = requestsResult({ ...seen, clean: { ...seen.clean, exchanges: 9 } }, true);
    expect(result.problems).toEqual([
      "the wire saw 4 requests, fewer than the 9 exchanges the engine recorded",
    ]);
  });

  it.each<[string, ChildOutput, boolean, boolean | null]>([
    ["the whole matrix, within every bound: met", output(matrix([1, 2])), true, true],
    ["some faults only: not judged", output(matrix([1, 2])), false, null],
    ["no matrix: not judged", output(), true, null],
    [
      "more requests to detection than before: missed",
      output(matrix([requestsBaseline.sumToDetection, 1])),
      true,
      false,
    ],
  ])("%s", (_name, seen, whole, met) => {
    expect(requestsGoal(requestsResult(seen, whole)).met).toBe(met);
  });

  it("is not judged when the section did not run", () => {
    expect(requestsGoal(undefined)).toMatchObject({ section: 7, measured: "not run", met: null });
  });
});
