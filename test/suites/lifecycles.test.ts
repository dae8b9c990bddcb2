/**
 * The lifecycle suite through the real runner against the embedded reference: green on the clean server, on the
 * bundled description and on one whose paths are all renamed (it finds the resources in the description alone),
 * with everything it made deleted and every resource's chain judged to its end (load-balancer profiles and nodes
 * too); red with each lifecycle fault, on the step the fault breaks.
 */
import { describe, expect, it } from "vitest";
import { lifecycleFaults } from "../../src/reference/faults/lifecycle-faults.ts";
import { runConfigDefaults } from "../../src/runner/config.ts";
import { planSelection } from "../../src/runner/run.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { renamedDescription } from "../helpers/renamed-spec.ts";
import { describeProblems, expectFaultCaught, runSuites } from "../helpers/run-suites.ts";

const renaming: Record<string, string> = {
  nodebalancers: "balancers",
  configs: "profiles",
  compute: "machines",
};

describe("lifecycles suite", () => {
  it.each([
    ["the embedded server's default selection runs it", {}, true],
    ["--exclude-tag costly leaves it out (it creates billed resources)", { excludeTags: ["costly"] }, false],
    ["--tag costly takes it", { tags: ["costly"] }, true],
  ])("%s", async (_name, selection, selected) => {
    const planned = await planSelection({ ...runConfigDefaults, specPath: bundledSpecPath, ...selection });
    expect(planned.suites.selected.map((suite) => suite.id).includes("lifecycles")).toBe(selected);
  });

  it.each([
    ["the bundled description", bundledSpecPath],
    ["a description with renamed paths", renamedDescription(renaming)],
  ])("is green on the clean reference with %s, and leaves nothing behind", async (_name, specPath) => {
    const run = await runSuites({ suites: ["lifecycles"], specPath });
    expect(describeProblems(run)).toBe("");
    expect(run.finished.counts.passed).toBe(1);
    expect(run.finished.cleanup.failed).toEqual([]);
    // Every chain is judged to its end: profiles and nodes too (a node's address made from an instance).
    const logs = run.events.flatMap((event) => (event.type === "case-finished" ? (event.logs ?? []) : []));
    expect(logs.filter((line) => line.includes("is not judged"))).toEqual([]);
    expect(logs).toContain("6 of 6 chains went through to the delete");
  });

  it.each(lifecycleFaults.map((fault) => [fault.id, fault] as const))("catches %s", async (_id, fault) => {
    const check = fault.detectedBy.checks![0]!;
    await expectFaultCaught(
      "lifecycles",
      fault,
      new RegExp(`^${check.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
    );
  });
});
