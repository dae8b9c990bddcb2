/**
 * Self time per function from a V8 CPU profile: samples last until the next one, a function's time is summed
 * over the places it appears in the call tree, locations are made relative to the project.
 */
import { describe, expect, it } from "vitest";
import { type CpuProfile, type CpuProfileNode, selfTimes } from "../../bench/cpu-profile.ts";

const root = "file:///work/project/";

const node = (id: number, functionName: string, url = "", lineNumber = 0): CpuProfileNode => ({
  id,
  callFrame: { functionName, url, lineNumber },
});

const nodes = [
  node(1, "(root)"),
  node(2, "(idle)"),
  node(3, "attempt", `${root}src/runner/http-client.ts`, 200),
  // The same function under another caller: a second node, one function.
  node(4, "attempt", `${root}src/runner/http-client.ts`, 200),
  node(5, "", `${root}src/spec/compile.ts`, 103),
  node(6, "parse", "node:internal/url", 877),
  node(7, "writeLatin1String"),
];

const profile = (samples: number[], timeDeltas: number[], endTime: number): CpuProfile => ({
  nodes,
  startTime: 1000,
  endTime,
  samples,
  timeDeltas,
});

describe("selfTimes", () => {
  it.each([
    {
      name: "a sample lasts until the next one, the last until the end",
      input: profile([3, 2, 7], [10, 30, 60], 1200),
      total: 190,
      expected: [
        ["attempt", "src/runner/http-client.ts:201", 30],
        ["(idle)", "", 60],
        ["writeLatin1String", "", 100],
      ],
    },
    {
      name: "one function under two callers is summed",
      input: profile([3, 4, 3, 6], [0, 10, 10, 10], 1040),
      total: 40,
      expected: [
        ["attempt", "src/runner/http-client.ts:201", 30],
        ["parse", "node:internal/url:878", 10],
      ],
    },
    {
      name: "an unnamed function is (anonymous), located by its file and 1-based line",
      input: profile([5], [5], 1025),
      total: 20,
      expected: [["(anonymous)", "src/spec/compile.ts:104", 20]],
    },
    {
      name: "a profile without samples spends nothing",
      input: { nodes, startTime: 0, endTime: 100 },
      total: 0,
      expected: [],
    },
  ])("$name", ({ input, total, expected }) => {
    const result = selfTimes(input, root);
    expect(result.totalUs).toBe(total);
    const got = result.functions.map((fn) => [fn.name, fn.location, fn.selfUs]);
    expect(got).toEqual(expect.arrayContaining(expected));
    expect(got).toHaveLength(expected.length);
  });

  it("lists the largest first", () => {
    const result = selfTimes(profile([3, 7, 2], [0, 10, 100], 1500), root);
    expect(result.functions.map((fn) => fn.selfUs)).toEqual([390, 100, 10]);
    expect(result.functions[0]?.name).toBe("(idle)");
  });

  it("keeps a location outside the project as it is", () => {
    const result = selfTimes(profile([6], [0], 10), "file:///elsewhere/");
    expect(result.functions[0]?.location).toBe("node:internal/url:878");
  });
});
