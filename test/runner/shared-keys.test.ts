/**
 * What cases of one suite share (`t.shared` by typed key) and the standard skip of a case whose earlier case did
 * not share what it needs (`t.needs`), through the real runner and on one context.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CaseFinished, RunEvent } from "../../src/core/events.ts";
import { type CaseContextDeps, CaseSkipped, createCaseContext } from "../../src/runner/case-context.ts";
import { runConfigDefaults } from "../../src/runner/config.ts";
import { runConformance } from "../../src/runner/run.ts";
import { type CaseContext, neededReason, type SharedName, sharedKey } from "../../src/runner/suite-api.ts";
import { bundledSpecPath } from "../../src/spec/bundled.ts";
import { specWith } from "../helpers/fake-case.ts";

const fixtures = join(import.meta.dirname, "../fixtures/suites");
const spec = await specWith();

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

/** A context over `store` (one suite's shared values), enough for t.shared and t.needs. */
function contextOver(store: Map<string, unknown>, caseId = "case") {
  const recorder = {
    onExchange: () => {},
    assert: () => {},
    lastExchange: undefined,
    reproduction: undefined,
    logs: [],
  };
  const target = { baseUrl: "https://127.0.0.1:1/v4", authUrl: "https://127.0.0.1:1" };
  const deps = { shared: store, suiteId: "suite", caseId, target, spec } as unknown as CaseContextDeps;
  return createCaseContext(deps, recorder);
}

describe("shared keys", () => {
  const balancer = sharedKey<{ id: number }>("balancer", {
    what: "the load balancer",
    from: "create-balancer",
  });

  it("hand a value from one case to a later one of the same suite, typed, by the key's name", () => {
    const store = new Map<string, unknown>();
    const value = { id: 7 };
    contextOver(store, "create-balancer").shared.set(balancer, value);
    const later = contextOver(store, "add-profile");
    expect(later.needs(balancer)).toBe(value);
    expect(later.shared.get(sharedKey<{ id: number }>("balancer"))).toBe(value);
    later.shared.delete(balancer);
    expect(later.shared.has(balancer)).toBe(false);
  });

  const memo = sharedKey<string>("memo");
  it.each<[string, SharedName, (t: CaseContext) => unknown, string]>([
    [
      "from a named case",
      balancer,
      (t) => t.needs(balancer),
      'needs the load balancer from the earlier case "create-balancer", which did not share it',
    ],
    [
      "from no named case",
      memo,
      (t) => t.needs(memo),
      "needs memo, which no earlier case of the suite shared",
    ],
  ])(
    "without the value, skip the case saying what it needs and from which case (%s)",
    (_, key, needs, reason) => {
      expect(neededReason(key)).toBe(reason);
      expect(() => needs(contextOver(new Map()))).toThrow(new CaseSkipped(reason));
    },
  );

  it("refuse a value of another type at compile time", () => {
    const t = contextOver(new Map());
    // @ts-expect-error a key of one type is no key of another
    t.shared.set(balancer, "seven");
    // @ts-expect-error nor is a plain string a key
    t.shared.get("balancer");
    expect(t.shared.get(balancer)).toBe("seven");
  });
});

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
