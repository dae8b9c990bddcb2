import { describe, expect, it } from "vitest";
import type { AnsweredExchange, CheckDefinition } from "../../src/checks/types.ts";
import { SecretValues } from "../../src/core/redact.ts";
import { type CheckResult, failed, passed, skipped } from "../../src/core/result.ts";
import { CaseTally } from "../../src/runner/case-tally.ts";
import { ExchangeJudge, transportResultId } from "../../src/runner/exchange-judge.ts";
import { exchange, operation, stubSpec, transportFailure } from "../helpers/exchanges.ts";

const checks: CheckDefinition[] = [
  { id: "always-passes", title: "", check: () => passed },
  {
    id: "fails-on-500",
    title: "",
    check: (_context, answered) => (answered.response.status >= 500 ? failed("server error") : passed),
  },
  { id: "never-applies", title: "", check: () => skipped("does not apply") },
  {
    id: "crashes",
    title: "",
    check: () => {
      throw new Error("boom");
    },
  },
];

function judged(exchanges: Parameters<ExchangeJudge["judge"]>[0][]) {
  const judge = new ExchangeJudge(stubSpec({ operations: [operation()] }), checks);
  const tally = new CaseTally(new SecretValues());
  const recorded: CheckResult[] = [];
  for (const one of exchanges)
    judge.judge(one, tally, (result, about) => {
      expect(about).toBe(one);
      recorded.push(result);
      tally.add(result, about);
    });
  return { judge, tally, recorded };
}

describe("exchange judge", () => {
  it("counts passes, records failures, skips and crashes with the check's id", () => {
    const { judge, tally, recorded } = judged([exchange({ status: 200 }), exchange({ status: 503 })]);
    expect(judge.exchanges).toBe(2);
    expect(tally.passed).toBe(3);
    expect(recorded.map((result) => [result.checkId, result.outcome.status])).toEqual([
      ["never-applies", "skipped"],
      ["crashes", "failed"],
      ["fails-on-500", "failed"],
      ["never-applies", "skipped"],
      ["crashes", "failed"],
    ]);
    expect(recorded[1]?.outcome).toMatchObject({ message: "check crashes crashed: boom" });
  });

  it("judges a transport failure once, before any check, saying why nothing was judged", () => {
    const { judge, tally, recorded } = judged([transportFailure("UND_ERR_SOCKET", "other side closed")]);
    expect(judge.exchanges).toBe(1);
    expect(tally.passed).toBe(0);
    expect(recorded).toEqual([
      {
        checkId: transportResultId,
        exchangeId: 1,
        outcome: {
          status: "skipped",
          reason: "no response (UND_ERR_SOCKET: other side closed): the checks had nothing to judge",
        },
      },
    ]);
  });

  it("covers every operation of the description with the statuses seen", () => {
    const answered = (status: number) => ({ ...exchange({ status }), operationId: "getNodeBalancers" });
    const { judge } = judged([answered(404), answered(200), answered(404), exchange({ status: 500 })]);
    const [only] = judge.coverage();
    expect(only?.statuses).toEqual([200, 404]);
  });

  it("gives a stateful check its per-run state, in order, and the caller when the feeder knows it", () => {
    const seenBy: string[] = [];
    const counting: CheckDefinition<{ answers: number }> = {
      id: "counts-answers",
      title: "",
      state: () => ({ answers: 0 }),
      check: (context, _answered, state) => {
        state.answers += 1;
        seenBy.push(context.caller ?? "unknown");
        return state.answers === 2 ? failed("second answer") : undefined;
      },
    };
    const judge = new ExchangeJudge(stubSpec({ operations: [operation()] }), [counting]);
    const tally = new CaseTally(new SecretValues());
    const recorded: CheckResult[] = [];
    const record = (result: CheckResult) => recorded.push(result);
    judge.judge(exchange(), tally, record, { caller: "token-a" });
    judge.judge(exchange(), tally, record);
    judge.judge(exchange(), tally, record);
    expect(seenBy).toEqual(["token-a", "unknown", "unknown"]);
    // No outcome: not an exchange it is about, neither counted nor kept.
    expect(tally.passed).toBe(0);
    expect(recorded.map((result) => result.outcome.status)).toEqual(["failed"]);
    // A second judge (another run) starts from a fresh state.
    const again = new ExchangeJudge(stubSpec({ operations: [operation()] }), [counting]);
    again.judge(exchange(), tally, record);
    expect(recorded).toHaveLength(1);
  });

  it("calls the end-of-run hooks once with the run's state, a crash reported as the check's failure", () => {
    const open = exchange();
    const pending: CheckDefinition<Set<AnsweredExchange>> = {
      id: "pending",
      title: "",
      state: () => new Set(),
      check: (_context, answered, state) => {
        state.add(answered);
        return undefined;
      },
      end: (state) => [...state].map((about) => ({ outcome: failed("never settled"), exchange: about })),
    };
    const crashing: CheckDefinition = {
      id: "crashes-at-end",
      title: "",
      check: () => undefined,
      end: () => {
        throw new Error("boom");
      },
    };
    const judge = new ExchangeJudge(stubSpec({ operations: [operation()] }), [pending, crashing]);
    const tally = new CaseTally(new SecretValues());
    judge.judge(open, tally, () => {});
    // About no exchange yet (none answered anything): no warning, until the end judges.
    expect(judge.checksNeverJudged().size).toBe(0);
    const recorded: [CheckResult, unknown][] = [];
    judge.end(() => ({ tally, record: (result, about) => recorded.push([result, about]) }));
    expect(recorded).toEqual([
      [{ checkId: "pending", exchangeId: open.id, outcome: failed("never settled") }, open],
      [
        {
          checkId: "crashes-at-end",
          exchangeId: undefined,
          outcome: failed("check crashes-at-end crashed: boom"),
        },
        undefined,
      ],
    ]);
    expect(judge.checksNeverJudged().size).toBe(0);
  });

  describe("a JSON body labelled otherwise is judged for what it holds (the label is content-type-json's)", () => {
    const deep = `${"[".repeat(300)}${"]".repeat(300)}`;
    it.each<[string, { text: string; headers?: Record<string, string>; truncated?: boolean }, unknown]>([
      [
        "JSON labelled text/plain",
        { text: '{"errors":[]}', headers: { "content-type": "text/plain" } },
        { errors: [] },
      ],
      ["JSON with no label", { text: " [1, 2]", headers: { "content-type": "" } }, [1, 2]],
      [
        "HTML labelled text/html",
        { text: "<html></html>", headers: { "content-type": "text/html" } },
        undefined,
      ],
      [
        "cut JSON labelled text/plain",
        { text: '{"a":', headers: { "content-type": "text/plain" } },
        undefined,
      ],
      [
        "a body cut by the client's cap",
        { text: "{}", headers: { "content-type": "text/plain" }, truncated: true },
        undefined,
      ],
      [
        "JSON deeper than the recorder's bound",
        { text: deep, headers: { "content-type": "text/plain" } },
        undefined,
      ],
      [
        "a JSON label whose body did not parse",
        { text: "{nope", headers: { "content-type": "application/json" } },
        undefined,
      ],
    ])("%s", (_name, body, seen) => {
      let read: unknown = "not called";
      const reader: CheckDefinition = {
        id: "reads-json",
        title: "",
        check: (_context, answered) => {
          read = answered.response.json;
          return passed;
        },
      };
      const judge = new ExchangeJudge(stubSpec({ operations: [operation()] }), [reader]);
      const answered = exchange({ status: 400, ...body });
      judge.judge(answered, new CaseTally(new SecretValues()), () => {});
      expect(read).toEqual(seen);
      // What is recorded stays as it came.
      expect(answered.response.json).toBeUndefined();
    });
  });

  it("warns of a check that skipped every exchange it was about, not of one no exchange was about", () => {
    const situational: CheckDefinition = { id: "situational", title: "", check: () => undefined };
    const judge = new ExchangeJudge(stubSpec({ operations: [operation()] }), [...checks, situational]);
    const tally = new CaseTally(new SecretValues());
    judge.judge(transportFailure("UND_ERR_SOCKET", "other side closed"), tally, () => {});
    // No answer came at all: every check is listed, whatever it would have said.
    expect([...judge.checksNeverJudged().keys()]).toContain("situational");
    judge.judge(exchange(), tally, () => {});
    expect(judge.checksNeverJudged()).toEqual(new Map([["never-applies", "does not apply"]]));
  });
});
