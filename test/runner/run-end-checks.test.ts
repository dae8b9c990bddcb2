/**
 * The checks' end-of-run hooks: `conform run` adds one more case for what they found, only when they found something,
 * and the traffic session (proxy, verify) records their findings in the last source's case before it ends.
 */
import { describe, expect, it } from "vitest";
import type { AnsweredExchange, CheckDefinition } from "../../src/checks/types.ts";
import type { RunEvent } from "../../src/core/events.ts";
import { SecretValues } from "../../src/core/redact.ts";
import { failed, passed } from "../../src/core/result.ts";
import { CaseTally } from "../../src/runner/case-tally.ts";
import { EventBus } from "../../src/runner/event-bus.ts";
import { ExchangeJudge } from "../../src/runner/exchange-judge.ts";
import { FailureGroups } from "../../src/runner/failure-groups.ts";
import { judgeRunEnd, runEndSuite } from "../../src/runner/run-end-checks.ts";
import { TrafficSession } from "../../src/traffic/session.ts";
import { exchange, operation, stubSpec } from "../helpers/exchanges.ts";

/** Remembers every exchange; at the end, fails each one whose answer was a 202 (work it never saw finish). */
const unsettled: CheckDefinition<AnsweredExchange[]> = {
  id: "unsettled",
  title: "",
  state: () => [],
  check: (_context, answered, state) => {
    state.push(answered);
    return undefined;
  },
  end: (state) =>
    state.map((about) => ({
      outcome: about.response.status === 202 ? failed("never settled") : passed,
      exchange: about,
    })),
};
const plain: CheckDefinition = { id: "plain", title: "", check: () => passed };

function collected() {
  const bus = new EventBus();
  const events: RunEvent[] = [];
  bus.subscribe((event) => void events.push(event));
  return { bus, events };
}

function endOfRun(statuses: number[], aborted = false) {
  const spec = stubSpec({ operations: [operation()] });
  const checks = [plain, unsettled];
  const judge = new ExchangeJudge(spec, checks);
  const { bus, events } = collected();
  const signal = AbortSignal.abort();
  const tally = new CaseTally(new SecretValues());
  for (const status of statuses) judge.judge(exchange({ status }), tally, () => {});
  const status = judgeRunEnd({
    judge,
    checks,
    bus,
    groups: new FailureGroups(),
    secrets: new SecretValues(),
    signal: aborted ? signal : new AbortController().signal,
  });
  return { status, events };
}

describe("end-of-run hooks in a run", () => {
  it("adds nothing when no enabled check has a hook", () => {
    const judge = new ExchangeJudge(stubSpec(), [plain]);
    const { bus, events } = collected();
    const none = judgeRunEnd({
      judge,
      checks: [plain],
      bus,
      groups: new FailureGroups(),
      secrets: new SecretValues(),
      signal: new AbortController().signal,
    });
    expect(none).toBeUndefined();
    expect(events).toEqual([]);
  });

  it.each([{ name: "a finding fails the case", statuses: [200, 202], status: "failed", checks: 1 }])(
    "$name",
    ({ statuses, status, checks }) => {
      const { status: ended, events } = endOfRun(statuses);
      expect(ended).toBe(status);
      expect(events.map((event) => event.type)).toEqual([
        "suite-started",
        "case-started",
        ...Array<string>(checks).fill("check"),
        "case-finished",
        "suite-finished",
      ]);
      const finished = events.find((event) => event.type === "case-finished");
      expect(finished).toMatchObject({ suiteId: runEndSuite.id, status });
    },
  );

  it.each([
    { name: "nothing found adds no case: a run looks as one without hooks", statuses: [], aborted: false },
    { name: "passes only add no case either", statuses: [200, 200], aborted: false },
    { name: "an interrupted run judges nothing open", statuses: [202], aborted: true },
  ])("$name", ({ statuses, aborted }) => {
    expect(endOfRun(statuses, aborted)).toEqual({ status: undefined, events: [] });
  });
});

describe("end-of-run hooks in a traffic session", () => {
  it("records the findings in the last source's case before it ends", () => {
    const { bus, events } = collected();
    const session = new TrafficSession(
      {
        runId: "20261127T000000Z-end",
        spec: stubSpec({ operations: [operation()] }),
        checks: [plain, unsettled],
        bus,
        target: "http://127.0.0.1:1/v4",
        toolVersion: "test",
        keptBodyBytes: 1024,
        keptReportBytes: 64 * 1024,
      },
      [
        { id: "first.har", title: "first" },
        { id: "second.har", title: "second" },
      ],
    );
    session.add("first.har", { ...exchange({ status: 202 }), operationId: operation().operationId });
    session.finishSource("first.har");
    session.add("second.har", { ...exchange({ status: 200 }), operationId: operation().operationId });
    const finished = session.finish();
    expect(finished.exitCode).toBe(1);
    const cases = events.filter((event) => event.type === "case-finished");
    expect(cases.map((event) => [event.suiteId, event.status])).toEqual([
      ["first.har", "passed"],
      ["second.har", "failed"],
    ]);
    expect(cases[1]?.results.map((result) => [result.checkId, result.outcome.status])).toEqual([
      ["unsettled", "failed"],
    ]);
  });
});
