/**
 * The rate-limits suite through the real runner against the embedded target's rate-limit settings: green on the
 * clean reference (it drives instance creation past its limit with a minted token in about a second), red against
 * each rate-limit fault, naming the assertion or check that caught it; and the run's own token is never limited.
 */
import { describe, expect, it } from "vitest";
import { runSuites } from "../helpers/run-suites.ts";
import { cases, expectCaught, expectGreen, faultsClaimedBy } from "./protocol-faults.ts";

const suites = ["rate-limits"];

describe("rate-limits suite", () => {
  it("passes on the clean reference, driving past the creation limit without creating anything", async () => {
    const run = await runSuites({ suites });
    expectGreen(run);
    expect(cases(run).map((event) => [event.caseId, event.status])).toEqual([
      ["headers-consistent", "passed"],
      ["limit-enforced", "passed"],
      ["dedicated-limit-separate", "passed"],
      ["recovery", "passed"],
    ]);
    // The 429s the drive provoked were its own, answered at once: the client retried none of them.
    expect(run.finished.rateLimited).toBeGreaterThan(0);
    expect(run.finished.retries).toBe(0);
    // Two minted tokens, revoked; no instance was created, so nothing else to delete.
    expect(run.finished.cleanup.deleted).toBe(2);
  });

  it("claims the rate-limit faults", () => {
    expect(faultsClaimedBy("rate-limits").sort()).toEqual([
      "rate-limit-not-enforced",
      "rate-limit-remaining-frozen",
      "retry-after-missing",
    ]);
  });

  it.concurrent.each(faultsClaimedBy("rate-limits"))("catches %s", async (faultId) => {
    await expectCaught(suites, faultId);
  });

  it("runs beside the auth suite: no request of either is retried for the other's spent limits", async () => {
    // Both use instance creation, with different tokens; the drive spends only its own token's window.
    const run = await runSuites({ suites: ["rate-limits", "auth"] });
    expectGreen(run);
    expect(run.finished.retries).toBe(0);
  });
});
