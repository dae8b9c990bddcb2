import { describe, expect, it } from "vitest";
import { selectSuites } from "../../src/runner/selection.ts";
import type { Suite } from "../../src/runner/suite-api.ts";

/** Only what selection reads: ids and tags, a suite's and its cases'. */
function suite(id: string, tags: string[], caseTags: string[] = []): Suite {
  return {
    id,
    title: id,
    tags,
    cases: [{ id: "c", title: "c", tags: caseTags, run: async () => {} }],
  } as unknown as Suite;
}

const all = [suite("catalogue", ["read-only"]), suite("workflow", ["writes", "costly"], ["data-plane"])];
const base = { suites: [], tags: [], excludeTags: [], allowWrites: false, embedded: true };

describe("suite selection", () => {
  it.each([
    ["a suite's tag", { tags: ["costly"] }, ["workflow"]],
    ["an excluded suite tag", { excludeTags: ["costly"] }, ["catalogue"]],
    [
      "a case's tag (its cases are skipped by the engine, the suite stays)",
      { excludeTags: ["data-plane"] },
      ["catalogue", "workflow"],
    ],
    ["nothing asked", {}, ["catalogue", "workflow"]],
  ])("selects by %s", (_name, asked, ids) => {
    expect(selectSuites(all, { ...base, ...asked }).selected.map((one) => one.id)).toEqual(ids);
  });

  it.each([
    [
      "--exclude-tag",
      { excludeTags: ["slowww"] },
      /unknown tag slowww \(--exclude-tag\); tags of the suites and their cases: costly, data-plane, read-only, writes/,
    ],
    ["--tag", { tags: ["slow"] }, /unknown tag slow \(--tag\)/],
    ["--suite", { suites: ["nope"] }, /unknown suite nope; known suites: catalogue, workflow/],
  ])("refuses what names nothing (%s)", (_option, asked, said) => {
    expect(() => selectSuites(all, { ...base, ...asked })).toThrow(said);
  });

  it("refuses writing suites against a real target unless allowed, saying why", () => {
    const selection = selectSuites(all, { ...base, embedded: false });
    expect(selection.selected.map((one) => one.id)).toEqual(["catalogue"]);
    expect(selection.refused.map((one) => one.suite.id)).toEqual(["workflow"]);
  });
});
