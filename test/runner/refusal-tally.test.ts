/**
 * The refusal tally behind "judged on refusals": only the run's own valid requests count; a request meant to be
 * refused (it breaks a rule, its path was drawn, it went with another credential, a case asserted a refusal) does not.
 */
import { describe, expect, it } from "vitest";
import type { Exchange, RecordedRequest } from "../../src/core/exchange.ts";
import { expectsRefusal, RefusalTally } from "../../src/runner/refusal-tally.ts";
import { exchange } from "../helpers/exchanges.ts";

let nextId = 1;
function sent(status: number, request: Partial<RecordedRequest> = {}): Exchange {
  const made = exchange({ status });
  return { ...made, id: nextId++, request: { ...made.request, ...request } };
}

const intent = { operationId: "deleteNodeBalancer", scenario: "s" } as const;

describe("refusal tally", () => {
  it.each([
    ["a valid request of the run's", sent(404), false, { total: 1, refused: 1 }],
    ["a success", sent(200), false, { total: 1, refused: 0 }],
    ["a request that breaks a rule", sent(404, { breaks: "an unknown id" }), false, undefined],
    [
      "a generated request breaking a rule",
      sent(404, { intent: { ...intent, mode: "negative", broken: [] } }),
      false,
      undefined,
    ],
    [
      "a generated request on a drawn path",
      sent(404, { intent: { ...intent, mode: "positive", drawnPath: ["nodeBalancerId"] } }),
      false,
      undefined,
    ],
    ["a request with another credential", sent(401), true, undefined],
  ])("%s", (_name, one, foreign, counts) => {
    const tally = new RefusalTally();
    tally.observe(one, "deleteNodeBalancer", one.response!.status, foreign);
    expect(tally.counts().get("deleteNodeBalancer")).toEqual(counts);
  });

  it("takes back a refusal a case asserted, and nothing else", () => {
    const tally = new RefusalTally();
    const [gone, refused, success] = [sent(404), sent(403), sent(200)];
    for (const one of [gone, refused, success])
      tally.observe(one, "getNodeBalancer", one.response!.status, false);
    tally.takeBack(gone.id);
    tally.takeBack(gone.id);
    tally.takeBack(success.id);
    expect(tally.counts().get("getNodeBalancer")).toEqual({ total: 2, refused: 1 });
  });

  it.each([
    [404, true],
    [[401, 403], true],
    [200, false],
    ["2xx", false],
    [[404, 200], false],
    [[], false],
    [undefined, false],
  ])("an assertion expecting %j expects a refusal: %s", (expected, expects) => {
    expect(expectsRefusal(expected)).toBe(expects);
  });
});
