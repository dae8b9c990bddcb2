/**
 * The workflow suites choose their region and instance type through the description's lists: on a description
 * without a regions list, the case that needs one skips saying which fixture it lacked for which body, and none
 * fails.
 */
import { describe, expect, it } from "vitest";
import { descriptionWithout } from "../helpers/descriptions.ts";
import { describeProblems, runSuites } from "../helpers/run-suites.ts";

describe("workflow fixtures found through the description", () => {
  it.each([
    ["workflow-balancer", "create-balancer"],
    ["workflow-back-ends", "balancer"],
  ])("%s/%s skips naming the region its create lacks", async (suite, caseId) => {
    const run = await runSuites({ suites: [suite], specPath: descriptionWithout("/regions") });
    expect(run.problems, describeProblems(run)).toEqual([]);
    const finished = run.events.find((event) => event.type === "case-finished" && event.caseId === caseId);
    expect(finished).toMatchObject({
      status: "skipped",
      skipReason: "no list in the description offers a `region` for POST /nodebalancers's body",
    });
  });
});
