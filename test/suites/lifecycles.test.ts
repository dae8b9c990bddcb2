/**
 * The lifecycle suite through the real runner against the embedded reference: green on the clean server, on the
 * bundled description and on one whose paths are all renamed (it finds the resources in the description alone),
 * with everything it made deleted; red with each lifecycle fault, on the step the fault breaks.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { lifecycleFaults } from "../../src/reference/faults/lifecycle-faults.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { describeProblems, expectFaultCaught, runSuites } from "../helpers/run-suites.ts";

const renaming: Record<string, string> = {
  nodebalancers: "balancers",
  configs: "profiles",
  compute: "machines",
};

function renamedDescription(): string {
  const document = parse(readFileSync(bundledSpecPath, "utf8")) as { paths: Record<string, unknown> };
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path
        .split("/")
        .map((segment) => renaming[segment] ?? segment)
        .join("/"),
      item,
    ]),
  );
  const file = join(mkdtempSync(join(tmpdir(), "conform-lifecycles-")), "renamed.yaml");
  writeFileSync(file, stringify(document));
  return file;
}

describe("lifecycles suite", () => {
  it.each([
    ["the bundled description", bundledSpecPath],
    ["a description with renamed paths", renamedDescription()],
  ])("is green on the clean reference with %s, and leaves nothing behind", async (_name, specPath) => {
    const run = await runSuites({ suites: ["lifecycles"], specPath });
    expect(describeProblems(run)).toBe("");
    expect(run.finished.counts.passed).toBe(1);
    expect(run.finished.cleanup.failed).toEqual([]);
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
