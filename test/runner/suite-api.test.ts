import { describe, expect, it } from "vitest";
import { defineSuite, type Suite } from "../../src/runner/suite-api.ts";

const run = () => {};
const good = { id: "mine", title: "Mine", tags: ["read-only"], cases: [{ id: "one", title: "One", run }] };

/** A suite run from .ts is only type-stripped: what its author left out reaches defineSuite as is. */
const shapes: [string, Record<string, unknown>, RegExp][] = [
  ["no tags", { ...good, tags: undefined }, /tags must be a list/],
  ["tags as one string", { ...good, tags: "read-only" }, /tags must be a list/],
  ["no cases", { ...good, cases: undefined }, /cases must be a list of cases/],
  ["an empty case list", { ...good, cases: [] }, /it has no cases/],
  ["a case without run", { ...good, cases: [{ id: "one", title: "One" }] }, /case one has no run function/],
  [
    "a case's tags as a string",
    { ...good, cases: [{ id: "one", title: "One", run, tags: "x" }] },
    /case one: tags must be a list/,
  ],
  ["a case id twice", { ...good, cases: [good.cases[0], good.cases[0]] }, /case id "one" is used twice/],
];

describe("defineSuite", () => {
  it("accepts a well-formed suite", () => {
    expect(defineSuite(good as Suite).id).toBe("mine");
  });

  it.each(shapes)("refuses %s with a TypeError naming the suite and the problem", (_name, shape, problem) => {
    expect(() => defineSuite(shape as unknown as Suite)).toThrow(TypeError);
    expect(() => defineSuite(shape as unknown as Suite)).toThrow(problem);
    expect(() => defineSuite(shape as unknown as Suite)).toThrow(/^suite mine: /);
  });
});
