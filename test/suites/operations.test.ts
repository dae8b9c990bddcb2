/**
 * The generic layer's suite through the real runner: green on the clean reference, with every operation of the
 * description requested and the generated requests carrying their intent; red, through the generic checks, where
 * the reference accepts what it must refuse (a body, a page size out of range).
 */
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.ts";
import { runSuites } from "../helpers/run-suites.ts";
import { expectCaught, expectGreen } from "./protocol-faults.ts";

describe("operations suite", () => {
  it("passes on the clean reference, every API operation requested with its intent", async () => {
    const run = await runSuites({ suites: ["operations"] });
    expectGreen(run);
    const intents = run.events.flatMap((event: RunEvent) =>
      event.type === "exchange" && event.exchange.request.intent ? [event.exchange.request.intent] : [],
    );
    const requested = new Set(intents.map((intent) => intent.operationId));
    const api = run.finished.coverage.filter((operation) => !operation.path.startsWith("/oauth"));
    expect(api.filter((operation) => !requested.has(operation.operationId))).toEqual([]);
    expect(
      intents.some(
        (intent) => intent.mode === "negative" && intent.broken?.some((rule) => rule.in === "query"),
      ),
    ).toBe(true);
    expect(
      intents.some(
        (intent) => intent.mode === "negative" && intent.broken?.some((rule) => rule.in === "body"),
      ),
    ).toBe(true);
    // Bounded: a few requests per operation, whatever the description's size.
    expect(intents.length).toBeLessThanOrEqual(6 * requested.size);
  });

  // Not page-size-out-of-range-accepted: a list gets one URL rule broken alone per run, drawn by the seed (a page
  // below 1, a page_size of the wrong type...), so whether one of them is a page_size out of range is chance; the
  // pagination suite, which claims that fault, walks those edges on purpose.
  it("catches invalid-body-accepted through invalid-request-refused", async () => {
    await expectCaught(["operations"], "invalid-body-accepted", ["invalid-request-refused"]);
  });

  it("catches client-secret-shown through secrets-not-returned: a client read back shows its secret", async () => {
    await expectCaught(["operations"], "client-secret-shown", ["secrets-not-returned"]);
  });
});
