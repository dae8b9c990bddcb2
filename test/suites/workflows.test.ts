/**
 * The workflow suites through the real runner against the embedded reference: green on the clean server (every
 * case passes, nothing left behind), and red with each workflow fault, failing the step (case and assertion)
 * that the fault breaks.
 */
import { describe, expect, it } from "vitest";
import type { CaseFinished } from "../../src/core/events.ts";
import { workflowFaults } from "../../src/reference/faults/workflow-faults.ts";
import { describeProblems, runSuites, type SuiteRun } from "../helpers/run-suites.ts";

const suites = ["workflow-balancer", "workflow-back-ends"];
/** A failing wait gives up after 2 s instead of the embedded default (5 s). */
const quick = { workflows: { deadlineMs: 2_000 } };

function cases(run: SuiteRun): CaseFinished[] {
  return run.events.filter((event): event is CaseFinished => event.type === "case-finished");
}

function statuses(run: SuiteRun): Record<string, string> {
  return Object.fromEntries(cases(run).map((event) => [`${event.suiteId}/${event.caseId}`, event.status]));
}

/** Which step each fault must fail: the case, and the assertion within it. */
const steps: Record<string, { readonly step: string; readonly check: string }> = {
  "balancer-starts-with-profile": {
    step: "workflow-balancer/create-balancer",
    check: "assert:a new load balancer has no configuration profiles",
  },
  "port-shared-by-profiles": {
    step: "workflow-balancer/add-profile",
    check: "assert:a second profile on port 80 is refused with 400",
  },
  "blank-subject-accepted": {
    step: "workflow-balancer/https",
    check: "assert:a certificate with a blank subject is refused with 400",
  },
  "ssl-key-echoed": {
    step: "workflow-balancer/https",
    check: "assert:the switch: the answer does not echo ssl_key",
  },
  "root-pass-echoed": {
    step: "workflow-back-ends/instances",
    check: "secrets-not-returned",
  },
  "unbooted-instance-boots": {
    step: "workflow-back-ends/instances",
    check: "assert:an instance created with booted false is not started",
  },
  "duplicate-node-label-accepted": {
    step: "workflow-back-ends/nodes",
    check: "assert:a node with a label already used in the profile is refused with 400",
  },
  "node-other-region-accepted": {
    step: "workflow-back-ends/nodes",
    check: "assert:a node on an instance in another region is refused with 400",
  },
  "deprecated-alias-answers-200": {
    step: "workflow-back-ends/nodes",
    check: "assert:the deprecated node path answers 299",
  },
  "node-up-without-listener": {
    step: "workflow-back-ends/nodes-down",
    check: "assert:with nothing listening nodes_status reads up 0, down 2",
  },
  "nodes-status-swapped": {
    step: "workflow-back-ends/nodes-down",
    check: "assert:with nothing listening nodes_status reads up 0, down 2",
  },
  "nodes-never-up": {
    step: "workflow-back-ends/nodes-up",
    check: "assert:nodes_status eventually reads up 1, down 1",
  },
  "port-never-listens": {
    step: "workflow-balancer/port-listens",
    check: "assert:the load balancer accepts a connection on the profile's port",
  },
  "balancer-wrong-port": {
    step: "workflow-balancer/port-moves",
    check: "assert:the load balancer accepts a connection on the profile's new port",
  },
  "balancer-forwards-to-down-nodes": {
    step: "workflow-back-ends/plane-skips-down-node",
    check: "assert:every request through the load balancer is answered while a node is up",
  },
  "https-keeps-old-certificate": {
    step: "workflow-balancer/https-certificate",
    check: "assert:the handshake on port 443 presents the uploaded certificate",
  },
  "profile-protocol-kept": {
    step: "workflow-balancer/https",
    check: "assert:the switched profile: protocol is https",
  },
};

describe("workflow suites on the clean reference", () => {
  it("pass every case of workflows 1 to 6 and leave nothing behind", async () => {
    const run = await runSuites({ suites, suiteOptions: quick });
    expect(describeProblems(run)).toBe("");
    expect(statuses(run)).toEqual({
      "workflow-balancer/create-balancer": "passed",
      "workflow-balancer/add-profile": "passed",
      "workflow-balancer/port-listens": "passed",
      "workflow-balancer/port-moves": "passed",
      "workflow-balancer/https": "passed",
      "workflow-balancer/https-certificate": "passed",
      "workflow-back-ends/balancer": "passed",
      "workflow-back-ends/instances": "passed",
      "workflow-back-ends/nodes": "passed",
      "workflow-back-ends/nodes-down": "passed",
      "workflow-back-ends/plane-none-up": "passed",
      "workflow-back-ends/nodes-up": "passed",
      "workflow-back-ends/plane-both-nodes": "passed",
      "workflow-back-ends/node-goes-down": "passed",
      "workflow-back-ends/plane-skips-down-node": "passed",
    });
    expect(run.finished.exitCode).toBe(0);
    expect(run.finished.cleanup.failed).toEqual([]);
    // 2 load balancers, 3 profiles (one deleted by the https step), 3 instances, 3 nodes (one deleted early).
    expect(run.finished.cleanup.deleted).toBeGreaterThanOrEqual(8);
  });

  it("tags the up-to-down step beyond-description, and the instance steps costly", async () => {
    const run = await runSuites({ suites: ["workflow-back-ends"], suiteOptions: quick });
    const tagged = Object.fromEntries(cases(run).map((event) => [event.caseId, event.tags]));
    expect(tagged["node-goes-down"]).toContain("beyond-description");
    expect(tagged["nodes-up"]).not.toContain("beyond-description");
    expect(tagged.instances).toContain("costly");
    expect(tagged.instances).toContain("writes");
  });

  it("with the none listen driver, the listening steps are skipped with the reason, never passed", async () => {
    const run = await runSuites({
      suites: ["workflow-back-ends"],
      suiteOptions: { ...quick, listen: { driver: "none", port: 1 } },
    });
    expect(describeProblems(run)).toBe("");
    const byCase = Object.fromEntries(cases(run).map((event) => [event.caseId, event]));
    expect(byCase["nodes-down"]?.status).toBe("passed");
    expect(byCase["plane-none-up"]?.status).toBe("passed");
    for (const id of ["nodes-up", "plane-both-nodes", "node-goes-down", "plane-skips-down-node"]) {
      expect(byCase[id]?.status).toBe("skipped");
      expect(byCase[id]?.skipReason).toMatch(
        /no listen driver|from the earlier case "(nodes-up|node-goes-down)"/,
      );
    }
  });

  it("a malformed listen option skips the steps that need the driver, saying why", async () => {
    const run = await runSuites({
      suites: ["workflow-back-ends"],
      suiteOptions: { ...quick, listen: { driver: "telepathy" } },
    });
    const nodes = cases(run).find((event) => event.caseId === "nodes");
    expect(nodes?.status).toBe("skipped");
    expect(nodes?.skipReason).toMatch(/listen driver telepathy is unknown/);
  });
});

describe("workflow suites against a faulty reference", () => {
  it("name a step for every workflow fault", () => {
    expect(Object.keys(steps).sort()).toEqual(workflowFaults.map((fault) => fault.id).sort());
  });

  it.each(workflowFaults.map((fault) => [fault.id, fault] as const))(
    "%s fails the step it breaks",
    async (id, fault) => {
      const expected = steps[id]!;
      const run = await runSuites({
        suites: [...fault.detectedBy.suites],
        faults: [id],
        suiteOptions: quick,
      });
      expect(run.finished.exitCode).toBe(1);
      for (const check of fault.detectedBy.checks ?? []) expect(run.failedChecks).toContain(check);
      const failing = run.problems.find(
        (event) =>
          `${event.suiteId}/${event.caseId}` === expected.step &&
          event.results.some(
            (result) => result.checkId === expected.check && result.outcome.status === "failed",
          ),
      );
      expect(failing, describeProblems(run)).toBeDefined();
      // Whatever the fault, the run deletes what it made.
      expect(run.finished.cleanup.failed).toEqual([]);
      // No private key reaches an event, even when the target echoes one.
      expect(JSON.stringify(run.events)).not.toMatch(/PRIVATE KEY-----(?:\\n|\n)[A-Za-z0-9+/]{16}/);
    },
  );
});
