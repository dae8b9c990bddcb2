/**
 * What cases of one suite share (`t.shared` by typed key) and the standard skip of a case whose earlier case did
 * not share what it needs (`t.needs`), through the real runner (one context's: test/runner/case-context.test.ts).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CaseFinished, RunEvent } from "../../src/core/events.ts";
import { runConfigDefaults } from "../../src/runner/config.ts";
import { runConformance } from "../../src/runner/run.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";

const fixtures = join(import.meta.dirname, "../fixtures/suites");

async function casesOf(suiteOptions: Record<string, unknown>) {
  const events: RunEvent[] = [];
  await runConformance(
    {
      ...runConfigDefaults,
      specPath: bundledSpecPath,
      seed: 1,
      reporters: [],
      suitePaths: [fixtures],
      suites: ["shared-keys"],
      suiteOptions,
    },
    {
      runId: "20261127T000000Z-keys",
      listeners: [(event) => void events.push(event)],
      signal: new AbortController().signal,
      toolVersion: "test",
    },
  );
  return events.filter((event): event is CaseFinished => event.type === "case-finished");
}

describe("a suite handing values on through the runner", () => {
  it("the later case reads what the earlier one shared", async () => {
    const cases = await casesOf({ share: true });
    expect(cases.map((event) => [event.caseId, event.status])).toEqual([
      ["share", "passed"],
      ["use", "passed"],
      ["memo", "skipped"],
    ]);
  });

  it("a case whose earlier case shared nothing is skipped with the standard reason, never errored", async () => {
    const cases = await casesOf({});
    expect(cases.map((event) => [event.caseId, event.status, event.skipReason])).toEqual([
      ["share", "skipped", "not asked to share"],
      ["use", "skipped", 'needs the count from the earlier case "share", which did not share it'],
      ["memo", "skipped", "needs the memo, which no earlier case of the suite shared"],
    ]);
  });
});
