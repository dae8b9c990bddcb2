import { describe, expect, it } from "vitest";
import type { CaseContext } from "../../src/runner/suite-api.ts";
import type { Resource } from "../../src/spec/resources.ts";
import { Chain, differing, holds } from "../../src/toolkit/lifecycle.ts";

describe("holds: what a read back must show of what was sent", () => {
  it.each([
    ["equal scalars", "a", "a", true],
    ["another scalar", 1, "1", false],
    ["a null sent asks for no value", null, [], true],
    ["an object by the keys sent", { port: 80 }, { port: 80, id: 3 }, true],
    ["an object missing a key sent", { port: 80 }, { id: 3 }, false],
    ["arrays item by item", ["a", "b"], ["a", "b"], true],
    ["arrays in another order", ["a", "b"], ["b", "a"], false],
    ["an array of another length", ["a"], ["a", "a"], false],
  ])("%s", (_name, sent, answered, expected) => {
    expect(holds(sent, answered)).toBe(expected);
  });

  it("differing names the fields an item does not hold", () => {
    expect(
      differing(["label", "tags", "region"], { label: "x", tags: ["t"], region: "r" }, { label: "x" }),
    ).toEqual(["tags", "region"]);
  });
});

/** A chain over a context that records its assertions. */
function chainRecording() {
  const recorded: { name: string; ok: boolean; actual?: unknown }[] = [];
  const t = {
    expect: (name: string, ok: boolean, details: { actual?: unknown } = {}) => {
      recorded.push({ name, ok, actual: details.actual });
      return ok;
    },
  } as unknown as CaseContext;
  return { chain: new Chain(t, { name: "things" } as Resource), recorded };
}

describe("a chain's verdicts", () => {
  it("are each step's own when only one side fails (a fault: the delete keeps the item)", () => {
    const { chain, recorded } = chainRecording();
    chain.judge("the update is kept", true, {}, "kept");
    chain.judge("a read after the delete is 404", false, { actual: 200 }, "gone");
    chain.judge("the list lacks it after the delete", false, {}, "gone");
    chain.conclude();
    expect(recorded.map((each) => `${each.name} ${each.ok}`)).toEqual([
      "things: the update is kept true",
      "things: a read after the delete is 404 false",
      "things: the list lacks it after the delete false",
    ]);
  });

  it("are one when what is kept and what is deleted both fail (a stateless mock)", () => {
    const { chain, recorded } = chainRecording();
    chain.judge("the update is kept", false, {}, "kept");
    chain.judge("a new create gets a new id, not the deleted one", false, {}, "kept");
    chain.judge("a read after the delete is 404", false, { actual: 200 }, "gone");
    chain.conclude();
    expect(recorded).toEqual([
      {
        name: "things: the target keeps what it is given",
        ok: false,
        actual:
          "the target does not keep what it is given: the update is kept; a new create gets a new id, not the deleted one; a read after the delete is 404",
      },
    ]);
  });
});
