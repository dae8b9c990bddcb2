/** Section 8's goal is judged from the medians: --version at most 2x a bare Node start, never judged when invalid. */
import { describe, expect, it } from "vitest";
import { summarize } from "../../bench/measure.ts";
import { renderStartUp, type StartUpResult, startUpGoalOf } from "../../bench/start-up.ts";

function result(version: number[], problems: string[] = []): StartUpResult {
  return {
    bareMs: summarize([40, 42, 41]),
    versionMs: summarize(version),
    helpMs: summarize([120]),
    specMs: summarize([300]),
    firstRequestMs: summarize([500]),
    cutShort: false,
    problems,
  };
}

describe("the start-up goal", () => {
  it.each([
    ["met at 2x", [82, 80, 81], true],
    ["missed above 2x", [90, 85, 88], false],
    ["not judged when a start failed", [60], null, ["node bin/conform.js spec exited 2"]],
    ["not judged without a figure", [], null],
  ] as const)("%s", (_name, version, met, problems: readonly string[] = []) => {
    expect(startUpGoalOf(result([...version], [...problems])).met).toBe(met);
  });

  it("is not judged when the section did not run, and the table says so", () => {
    expect(startUpGoalOf(undefined)).toMatchObject({ section: 8, measured: "not run", met: null });
    expect(renderStartUp(undefined).join("\n")).toContain("not run");
    expect(renderStartUp(result([80])).join("\n")).toMatch(/conform --version .* 1\.95x/);
  });
});
