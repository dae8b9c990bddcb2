import { isIP } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { type ComputeTypeRecord, computeTypes, regions } from "../../src/reference/catalogue.ts";

const knownCapabilities = [
  "Linodes",
  "NodeBalancers",
  "Block Storage",
  "Object Storage",
  "GPU Linodes",
  "Kubernetes",
  "Cloud Firewall",
  "Vlans",
  "VPCs",
  "Managed Databases",
  "Metadata",
  "Premium Plans",
];

const classes: readonly ComputeTypeRecord["class"][] = [
  "nanode",
  "standard",
  "dedicated",
  "premium",
  "gpu",
  "highmem",
];

/** RFC 5737 IPv4 documentation ranges and the RFC 3849 IPv6 documentation prefix. */
function isDocumentationAddress(address: string): boolean {
  if (isIP(address) === 4) return /^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$/.test(address);
  if (isIP(address) === 6) return /^2001:db8:/i.test(address);
  return false;
}

describe("catalogue: regions", () => {
  it("has at least 30 regions with unique ids", () => {
    expect(regions.length).toBeGreaterThanOrEqual(30);
    expect(new Set(regions.map((r) => r.id)).size).toBe(regions.length);
  });

  it.each(regions.map((r) => [r.id, r] as const))("%s is well formed", (_id, region) => {
    expect(region.id).toMatch(/^[a-z]{2}-[a-z0-9-]+$/);
    expect(region.label.trim()).not.toBe("");
    expect(region.country).toMatch(/^[a-z]{2}$/);
    expect(region.capabilities).toContain("Linodes");
    for (const capability of region.capabilities) expect(knownCapabilities).toContain(capability);
    expect(new Set(region.capabilities).size).toBe(region.capabilities.length);
    expect(["ok", "outage"]).toContain(region.status);
    expect(["core", "distributed"]).toContain(region.site_type);
  });

  it.each(regions.map((r) => [r.id, r.resolvers] as const))(
    "%s resolvers are documentation addresses",
    (_id, res) => {
      const v4 = res.ipv4.split(",");
      const v6 = res.ipv6.split(",");
      expect(v4.length).toBeGreaterThan(0);
      expect(v6.length).toBeGreaterThan(0);
      for (const address of v4) expect(isIP(address), address).toBe(4);
      for (const address of v6) expect(isIP(address), address).toBe(6);
      for (const address of [...v4, ...v6]) expect(isDocumentationAddress(address), address).toBe(true);
    },
  );

  it("has load balancers in most regions but not all", () => {
    const withNodeBalancers = regions.filter((r) => r.capabilities.includes("NodeBalancers"));
    expect(withNodeBalancers.length).toBeGreaterThanOrEqual(20);
    expect(regions.length - withNodeBalancers.length).toBeGreaterThanOrEqual(1);
  });

  it("has a region in outage and most regions ok", () => {
    const outages = regions.filter((r) => r.status === "outage");
    expect(outages.length).toBeGreaterThanOrEqual(1);
    expect(outages.length).toBeLessThan(regions.length / 2);
  });

  it("has some regions offering each optional capability and some not", () => {
    for (const capability of ["NodeBalancers", "GPU Linodes", "Premium Plans", "Object Storage"]) {
      const count = regions.filter((r) => r.capabilities.includes(capability)).length;
      expect(count, capability).toBeGreaterThan(0);
      expect(count, capability).toBeLessThan(regions.length);
    }
  });
});

describe("catalogue: instance types", () => {
  it("has at least 36 types with unique ids and labels", () => {
    expect(computeTypes.length).toBeGreaterThanOrEqual(36);
    expect(new Set(computeTypes.map((t) => t.id)).size).toBe(computeTypes.length);
    expect(new Set(computeTypes.map((t) => t.label)).size).toBe(computeTypes.length);
  });

  it.each(classes)("has types of class %s", (cls) => {
    expect(computeTypes.some((t) => t.class === cls)).toBe(true);
  });

  it.each(computeTypes.map((t) => [t.id, t] as const))("%s is well formed", (_id, type) => {
    expect(type.id).toMatch(/^g\d-[a-z0-9-]+$/);
    expect(type.label.trim()).not.toBe("");
    expect(classes).toContain(type.class);
    for (const field of ["disk", "memory", "vcpus", "gpus", "network_out", "transfer"] as const) {
      expect(Number.isInteger(type[field]), field).toBe(true);
      expect(type[field], field).toBeGreaterThanOrEqual(0);
    }
    expect(type.vcpus).toBeGreaterThan(0);
    expect(type.memory).toBeGreaterThan(0);
    expect(type.disk).toBeGreaterThan(0);
    if (type.class === "gpu") expect(type.gpus).toBeGreaterThan(0);
    else expect(type.gpus).toBe(0);
  });

  it.each(computeTypes.map((t) => [t.id, t.price] as const))("%s is priced consistently", (_id, price) => {
    expect(price.hourly).toBeGreaterThan(0);
    expect(price.monthly).toBeGreaterThan(0);
    for (const amount of [price.hourly, price.monthly]) {
      expect(Math.abs(amount * 100 - Math.round(amount * 100))).toBeLessThan(1e-6);
    }
    expect(Math.abs(price.monthly - price.hourly * 730)).toBeLessThanOrEqual(1);
  });

  it("points every successor at an existing, different type", () => {
    const ids = new Set(computeTypes.map((t) => t.id));
    const withSuccessor = computeTypes.filter((t) => t.successor !== null);
    expect(withSuccessor.length).toBeGreaterThanOrEqual(1);
    for (const type of withSuccessor) {
      expect(ids.has(type.successor!), type.id).toBe(true);
      expect(type.successor).not.toBe(type.id);
    }
  });

  it.each([
    ["vcpus", 6],
    ["memory", 10],
  ] as const)("has varied %s values with ties across classes", (field, minDistinct) => {
    const values = computeTypes.map((t) => t[field]);
    expect(new Set(values).size).toBeGreaterThanOrEqual(minDistinct);
    const classesByValue = new Map<number, Set<string>>();
    for (const t of computeTypes) {
      classesByValue.set(t[field], (classesByValue.get(t[field]) ?? new Set()).add(t.class));
    }
    expect([...classesByValue.values()].some((set) => set.size >= 2)).toBe(true);
  });

  it("lets a memory comparison select some types but not all", () => {
    const selected = computeTypes.filter((t) => t.memory >= 61440);
    expect(selected.length).toBeGreaterThan(0);
    expect(selected.length).toBeLessThan(computeTypes.length);
  });

  it("is deterministic: a fresh import yields the same data", async () => {
    vi.resetModules();
    const again = await import("../../src/reference/catalogue.ts");
    expect(again.regions).not.toBe(regions);
    expect(again.regions).toEqual(regions);
    expect(again.computeTypes).toEqual(computeTypes);
  });
});
