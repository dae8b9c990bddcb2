/**
 * Path values found in the target's answers: the field a parameter takes its value from (by the names they share),
 * the list a parameter's values are items of (its parent path), and a harvest that fills a template from the lists
 * read or made before, keeps what the run made apart, and refuses values that do not fit.
 */
import { describe, expect, it } from "vitest";
import type { LiveResponse } from "../../src/runner/contracts.ts";
import type { OperationInfo } from "../../src/spec/types.ts";
import { fieldFor, itemsOf, PathHarvest, parentTemplate } from "../../src/toolkit/path-values.ts";

describe("fieldFor", () => {
  it.each([
    ["configId", { id: 7, label: "a" }, "id"],
    ["configId", { config_id: 7, id: 1 }, "config_id"],
    ["configId", { configId: 7, id: 1 }, "configId"],
    ["address", { address: "192.0.2.1", id: 3 }, "address"],
    ["username", { user_name: "ann" }, "user_name"],
    ["regionId", { id: "us-east" }, "id"],
    ["address", { id: 3 }, undefined],
    ["configId", { id: null }, undefined],
  ])("{%s} of %j takes %s", (name, item, field) => {
    expect(fieldFor(name, item)).toBe(field);
  });
});

describe("parentTemplate", () => {
  it.each([
    [
      "/nodebalancers/{nodeBalancerId}/configs/{configId}",
      "configId",
      "/nodebalancers/{nodeBalancerId}/configs",
    ],
    ["/nodebalancers/{nodeBalancerId}/configs/{configId}", "nodeBalancerId", "/nodebalancers"],
    ["/ips/{address}/rdns", "address", "/ips"],
    ["/ips", "address", undefined],
  ])("%s, {%s}: %s", (template, name, parent) => {
    expect(parentTemplate(template, name)).toBe(parent);
  });
});

describe("itemsOf", () => {
  it("reads a page's data, an array, or one object", () => {
    expect(itemsOf({ data: [{ id: 1 }], page: 1 })).toEqual([{ id: 1 }]);
    expect(itemsOf([{ id: 1 }, 2])).toEqual([{ id: 1 }]);
    expect(itemsOf({ id: 1 })).toEqual([{ id: 1 }]);
    expect(itemsOf("text")).toEqual([]);
  });
});

const answer = (parsed: unknown, status = 200) => ({ status, parsed }) as unknown as LiveResponse;
const operation = (pathTemplate: string) => ({ pathTemplate, operationId: "op" }) as OperationInfo;

describe("PathHarvest", () => {
  const config = operation("/nodebalancers/{nodeBalancerId}/configs/{configId}");

  it("fills a template from the lists at its parents, in order", () => {
    const harvest = new PathHarvest();
    harvest.record("/nodebalancers", {}, answer({ data: [{ id: 12 }] }));
    harvest.record(
      "/nodebalancers/{nodeBalancerId}/configs",
      { nodeBalancerId: 12 },
      answer({ data: [{ id: 7 }] }),
    );
    expect(harvest.valuesFor(config, false)).toEqual({
      values: { nodeBalancerId: 12, configId: 7 },
      missing: [],
    });
  });

  it("says which parameters it found nothing for", () => {
    const harvest = new PathHarvest();
    harvest.record("/nodebalancers", {}, answer({ data: [{ id: 12 }] }));
    expect(harvest.valuesFor(config, false)).toEqual({
      values: { nodeBalancerId: 12 },
      missing: ["configId"],
    });
    // A refusal teaches nothing.
    harvest.record(
      "/nodebalancers/{nodeBalancerId}/configs",
      { nodeBalancerId: 12 },
      answer({ data: [{ id: 7 }] }, 404),
    );
    expect(harvest.valuesFor(config, false).missing).toEqual(["configId"]);
  });

  it("gives writes only what the run made, and forgets what was deleted", () => {
    const harvest = new PathHarvest();
    harvest.record("/nodebalancers", {}, answer({ data: [{ id: 12 }] }));
    expect(harvest.valuesFor(operation("/nodebalancers/{nodeBalancerId}"), true).missing).toEqual([
      "nodeBalancerId",
    ]);
    harvest.record("/nodebalancers", {}, answer({ id: 99 }), true);
    const item = operation("/nodebalancers/{nodeBalancerId}");
    expect(harvest.valuesFor(item, true).values).toEqual({ nodeBalancerId: 99 });
    harvest.forget("/nodebalancers", {}, "id", 99);
    expect(harvest.valuesFor(item, true).missing).toEqual(["nodeBalancerId"]);
  });

  it("skips values that do not fit the parameter", () => {
    const harvest = new PathHarvest();
    harvest.record("/nodebalancers", {}, answer({ data: [{ id: 0 }, { id: 5 }] }));
    const fits = (_name: string, value: string | number) => typeof value === "number" && value >= 1;
    expect(harvest.valuesFor(operation("/nodebalancers/{nodeBalancerId}"), false, fits).values).toEqual({
      nodeBalancerId: 5,
    });
  });
});
