/**
 * The headers and versioning suites through the real runner: green on the clean reference, red against each fault
 * they claim (and the workflow area's deprecated-alias fault, which versioning also catches), naming the assertion
 * or check that caught it.
 */
import { describe, expect, it } from "vitest";
import { runSuites } from "../helpers/run-suites.ts";
import { cases, expectCaught, expectGreen, faultsClaimedBy } from "./protocol-faults.ts";

describe("headers suite", () => {
  it("passes on the clean reference", async () => {
    const run = await runSuites({ suites: ["headers"] });
    expectGreen(run);
    expect(cases(run).map((event) => event.caseId)).toEqual([
      "content-type",
      "cors-on-answers",
      "cors-preflight",
      "vary",
      "strict-transport-security",
      "head",
    ]);
  });

  it("claims the header faults", () => {
    expect(faultsClaimedBy("headers").sort()).toEqual([
      "content-type-wrong",
      "cors-missing",
      "hsts-missing",
      "vary-missing",
    ]);
  });

  it.concurrent.each(faultsClaimedBy("headers"))("catches %s", async (faultId) => {
    await expectCaught(["headers"], faultId);
  });
});

describe("versioning suite", () => {
  it("passes on the clean reference, no case skipped", async () => {
    const run = await runSuites({ suites: ["versioning"] });
    expectGreen(run);
    // The deprecated call needed a load balancer and an instance, the times case a token: all deleted at the end.
    expect(run.finished.cleanup.deleted).toBe(3);
    expect(cases(run).find((event) => event.caseId === "times-utc")?.status).toBe("passed");
  });

  it("claims the version faults", () => {
    expect(faultsClaimedBy("versioning").sort()).toEqual([
      "profile-timezone-in-times",
      "spec-version-missing",
      "spec-version-wrong",
    ]);
  });

  it.concurrent.each(faultsClaimedBy("versioning"))("catches %s", async (faultId) => {
    await expectCaught(["versioning"], faultId);
  });

  it("also catches the workflow area's deprecated-alias-answers-200", async () => {
    await expectCaught(["versioning"], "deprecated-alias-answers-200", [
      "assert:a deprecated operation answers 299",
      "status-code-documented",
    ]);
  });
});
