import { describe, expect, it } from "vitest";
import { LabelMaker } from "../../src/runner/labels.ts";
import { CleanupLedger } from "../../src/runner/ledger.ts";

describe("cleanup ledger", () => {
  it("deletes newest first and counts 404 as already gone", async () => {
    const ledger = new CleanupLedger();
    ledger.record({ description: "load balancer", deletePath: "/nodebalancers/1" });
    ledger.record({ description: "profile", deletePath: "/nodebalancers/1/configs/2" });
    ledger.record({ description: "node", deletePath: "/nodebalancers/1/configs/2/nodes/3" });
    const order: string[] = [];
    const outcome = await ledger.drain(async (path) => {
      order.push(path);
      return path.endsWith("/3") ? 404 : 200;
    });
    expect(order).toEqual([
      "/nodebalancers/1/configs/2/nodes/3",
      "/nodebalancers/1/configs/2",
      "/nodebalancers/1",
    ]);
    expect(outcome).toEqual({ deleted: 3, failed: [] });
    expect(ledger.size).toBe(0);
  });

  it("deletes children before parents even when a parent was registered after its child", async () => {
    const ledger = new CleanupLedger();
    const made = (resource: string, ids: Record<string, number>) => ({ resource, ids });
    ledger.record({
      description: "profile",
      deletePath: "/lbs/1/configs/2",
      made: made("/lbs/{lbId}/configs", { lbId: 1, configId: 2 }),
    });
    ledger.record({ description: "other", deletePath: "/vms/5" });
    // A later case registered the balancer again (or a fixture re-used it): it must still go after its profile.
    ledger.record({ description: "load balancer", deletePath: "/lbs/1", made: made("/lbs", { lbId: 1 }) });
    ledger.record({ description: "node", deletePath: "/lbs/1/configs/2/nodes/3" });
    const order: string[] = [];
    await ledger.drain(async (path) => {
      order.push(path);
      return 200;
    });
    expect(order).toEqual(["/lbs/1/configs/2/nodes/3", "/vms/5", "/lbs/1/configs/2", "/lbs/1"]);
  });

  it("keeps what each entry is in the description: its resource kind and ids", () => {
    const ledger = new CleanupLedger();
    const made = { resource: "/lbs/{lbId}/configs", ids: { lbId: 1, configId: 2 } };
    ledger.record({ description: "profile 2", deletePath: "/lbs/1/configs/2", made });
    expect(ledger.left().entries).toEqual([
      { description: "profile 2", deletePath: "/lbs/1/configs/2", made },
    ]);
  });

  it("reports what it could not delete, and goes on", async () => {
    const ledger = new CleanupLedger();
    ledger.record({ description: "instance web", deletePath: "/compute/instances/9" });
    ledger.record({ description: "address", deletePath: "/networking/ips/1" });
    const outcome = await ledger.drain(async (path) => {
      if (path.includes("ips")) throw new Error("socket hang up");
      return 500;
    });
    expect(outcome.deleted).toBe(0);
    expect(outcome.failed).toEqual([
      "address (DELETE /networking/ips/1 failed: socket hang up)",
      "instance web (DELETE /compute/instances/9 answered 500)",
    ]);
  });

  it("says what is left while it drains: the entry being deleted until its DELETE is over, and failed ones", async () => {
    const ledger = new CleanupLedger();
    ledger.record({ description: "instance", deletePath: "/compute/instances/9" });
    ledger.record({ description: "load balancer", deletePath: "/nodebalancers/1" });
    const seen: string[][] = [];
    await ledger.drain(async (path) => {
      seen.push(ledger.left().entries.map((entry) => entry.deletePath));
      return path.includes("instances") ? 200 : 500;
    });
    expect(seen).toEqual([
      ["/compute/instances/9", "/nodebalancers/1"],
      ["/nodebalancers/1", "/compute/instances/9"],
    ]);
    expect(ledger.left()).toEqual({
      entries: [{ description: "load balancer", deletePath: "/nodebalancers/1" }],
      unidentified: [],
    });
  });
});

describe("resources made but not identified by their answer", () => {
  it("are cleanup failures each, listed by label (for conform cleanup), after what could be deleted", async () => {
    const ledger = new CleanupLedger();
    ledger.record({ description: "instance 9", deletePath: "/compute/instances/9" });
    ledger.recordUnidentified({ description: "personal access token (*)", label: "conform-ab12cd-reader-1" });
    ledger.recordUnidentified({ description: "profile", label: undefined });
    const outcome = await ledger.drain(async () => 200);
    expect(outcome).toEqual({
      deleted: 1,
      failed: [
        "personal access token (*) labelled conform-ab12cd-reader-1 (the answer did not say what it created: `conform cleanup --prefix conform-ab12cd-reader-1` finds it by label)",
        "profile (the answer did not say what it created, and it has no label: remove it by hand)",
      ],
    });
    expect(ledger.unidentified()).toHaveLength(2);
  });

  it("are in what the ledger says is left (what a second signal lists), before and after the cleanup", async () => {
    const ledger = new CleanupLedger();
    ledger.record({ description: "instance 9", deletePath: "/compute/instances/9" });
    ledger.recordUnidentified({ description: "instance", label: "conform-ab12cd-web" });
    const unidentified = [{ description: "instance", label: "conform-ab12cd-web" }];
    expect(ledger.left()).toEqual({
      entries: [{ description: "instance 9", deletePath: "/compute/instances/9" }],
      unidentified,
    });
    await ledger.drain(async () => 200);
    expect(ledger.left()).toEqual({ entries: [], unidentified });
  });
});

describe("labels of created resources", () => {
  const maker = new LabelMaker("conform", "20261123T021500Z-3fa0");

  it.each([
    ["balancer", "conform-0z3fa0-balancer"],
    ["Node One!", "conform-0z3fa0-node-one"],
    ["a-very-long-name-that-does-not-fit-anywhere", "conform-0z3fa0-a-very-long-name"],
  ])("%s → %s", (name, label) => {
    expect(maker.make(name)).toBe(label);
  });

  it("stays unique, within 32 characters, without double dashes", () => {
    const labels = Array.from({ length: 12 }, () => maker.make("web"));
    expect(new Set(labels).size).toBe(12);
    for (const label of labels) {
      expect(label.length).toBeLessThanOrEqual(32);
      expect(label).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });
});
