/** A run's label prefix (printed, stored in report.json, derived by `conform cleanup --run`) and its labels. */
import { describe, expect, it } from "vitest";
import { LabelMaker, labelPrefixOf } from "../../src/runner/labels.ts";

describe("labels", () => {
  it.each([
    ["conform", "20261123T021500Z-3fa0", "conform-0z3fa0"],
    ["conform", "run-8ZE180", "conform-8ze180"],
    ["My Team!", "abc", "my-team-abc"],
    ["", "20261123T021500Z-3fa0", "conform-0z3fa0"],
  ])("prefix %j and run %s give %s, the stem of every label", (prefix, runId, expected) => {
    expect(labelPrefixOf(prefix, runId)).toBe(expected);
    const maker = new LabelMaker(prefix, runId);
    expect(maker.stem).toBe(expected);
    expect(maker.make("web").startsWith(`${expected}-`)).toBe(true);
  });
});
