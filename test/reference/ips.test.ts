/**
 * IP addresses on the reference server: private allocation from 192.168.128.0/17 (sequential, unique, never
 * reused, one per instance, region copied), public allocation, the per-instance address view, lists with
 * X-Filter, and reverse DNS. Every response is validated against the spec by the harness.
 */
import { describe, expect, it } from "vitest";
import { ipReasons } from "../../src/reference/handlers/ips.ts";
import { type ApiResponse, startReference } from "../helpers/reference.ts";

const harness = await startReference({
  timeScale: 0.01,
  rateLimits: { createInstance: { limit: 10_000, windowMs: 30_000 } },
});

let labelCount = 0;

async function instance(region = "us-east"): Promise<{ id: number; region: string; ipv4: string[] }> {
  const response = await harness.call("POST", "/compute/instances", {
    json: { region, type: "g6-standard-2", label: `ip-test-${++labelCount}`, booted: false },
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

function allocate(body: Record<string, unknown>): Promise<ApiResponse> {
  return harness.call("POST", "/networking/ips", { json: body });
}

function toInt(address: string): number {
  return address.split(".").reduce((value, octet) => value * 256 + Number(octet), 0);
}

const inPrivateRange = (address: string) =>
  toInt(address) >= toInt("192.168.128.0") && toInt(address) <= toInt("192.168.255.255");

describe("allocate a private IPv4", () => {
  it("gives an address from 192.168.128.0/17 with the instance's region", async () => {
    const owner = await instance("eu-central");
    const response = await allocate({ type: "ipv4", public: false, compute_id: owner.id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      address: expect.any(String),
      gateway: null,
      subnet_mask: "255.255.128.0",
      prefix: 17,
      type: "ipv4",
      public: false,
      rdns: null,
      compute_id: owner.id,
      region: "eu-central",
    });
    expect(inPrivateRange(response.body.address)).toBe(true);
    const after = await harness.call("GET", `/compute/instances/${owner.id}`);
    expect(after.body.ipv4).toEqual([...owner.ipv4, response.body.address]);
    const read = await harness.call("GET", `/networking/ips/${response.body.address}`);
    expect(read.body).toEqual(response.body);
  });

  it("hands out sequential, unique addresses and never reuses a released one", async () => {
    const addresses: string[] = [];
    const owners = [await instance(), await instance(), await instance()];
    for (const owner of owners.slice(0, 2)) {
      addresses.push((await allocate({ type: "ipv4", public: false, compute_id: owner.id })).body.address);
    }
    await harness.call("DELETE", `/compute/instances/${owners[1]!.id}`);
    addresses.push((await allocate({ type: "ipv4", public: false, compute_id: owners[2]!.id })).body.address);
    expect(new Set(addresses).size).toBe(3);
    expect(addresses.every(inPrivateRange)).toBe(true);
    const numbers = addresses.map(toInt);
    expect(numbers[1]! - numbers[0]!).toBe(1);
    expect(numbers[2]!).toBeGreaterThan(numbers[1]!);
  });

  it("allows one private IPv4 per instance", async () => {
    const owner = await instance();
    const first = await allocate({ type: "ipv4", public: false, compute_id: owner.id });
    const second = await allocate({ type: "ipv4", public: false, compute_id: owner.id });
    expect(second.status).toBe(400);
    expect(second.body.errors).toEqual([
      { field: "public", reason: ipReasons.onePrivate(owner.id, first.body.address) },
    ]);
  });
});

describe("allocate a public IPv4", () => {
  it("gives another public address with its /24 gateway and default reverse DNS", async () => {
    const owner = await instance();
    const response = await allocate({ type: "ipv4", public: true, compute_id: owner.id });
    expect(response.status).toBe(200);
    const { address } = response.body;
    expect(address).toMatch(/^198\.19\.\d{1,3}\.\d{1,3}$/);
    expect(address).not.toBe(owner.ipv4[0]);
    expect(response.body).toMatchObject({
      gateway: address.replace(/\.\d+$/, ".1"),
      subnet_mask: "255.255.255.0",
      prefix: 24,
      public: true,
      rdns: `${address.replaceAll(".", "-")}.ip.example.net`,
      compute_id: owner.id,
      region: owner.region,
    });
    const again = await allocate({ type: "ipv4", public: true, compute_id: owner.id });
    expect(again.status).toBe(200);
  });
});

describe("allocate: refusals", () => {
  const failing: [string, Record<string, unknown>, string][] = [
    ["an unknown instance", { type: "ipv4", public: false, compute_id: 999_999 }, "compute_id"],
    ["an unknown instance (public)", { type: "ipv4", public: true, compute_id: 999_999 }, "compute_id"],
    ["a missing compute_id", { type: "ipv4", public: false }, "compute_id"],
  ];
  it.each(failing)("refuses %s on field %s", async (_name, body, field) => {
    const response = await allocate(body);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { field?: string }) => error.field)).toContain(field);
  });

  it("names the instance it could not find", async () => {
    const response = await allocate({ type: "ipv4", public: false, compute_id: 999_999 });
    expect(response.body.errors).toEqual([
      { field: "compute_id", reason: ipReasons.unknownInstance(999_999) },
    ]);
  });
});

describe("the instance's address view", () => {
  it("groups addresses by family and visibility", async () => {
    const owner = await instance("ap-south");
    const priv = (await allocate({ type: "ipv4", public: false, compute_id: owner.id })).body;
    const view = await harness.call("GET", `/compute/instances/${owner.id}/ips`);
    expect(view.status).toBe(200);
    expect(view.body.ipv4.public.map((ip: { address: string }) => ip.address)).toEqual(owner.ipv4);
    expect(view.body.ipv4.private).toEqual([priv]);
    expect(view.body.ipv4.shared).toEqual([]);
    expect(view.body.ipv4.reserved).toEqual([]);
    expect(view.body.ipv6.slaac).toMatchObject({
      type: "ipv6",
      prefix: 64,
      compute_id: owner.id,
      region: "ap-south",
    });
    const shown = (await harness.call("GET", `/compute/instances/${owner.id}`)).body.ipv6;
    expect(shown).toBe(`${view.body.ipv6.slaac.address}/128`);
    expect(view.body.ipv6.link_local.address).toMatch(/^fe80::/);
    expect(view.body.ipv6.global).toEqual([]);
  });
});

describe("list", () => {
  it("lists every address, filterable by region and prefix", async () => {
    const owner = await instance("jp-osa");
    const priv = (await allocate({ type: "ipv4", public: false, compute_id: owner.id })).body;
    const filter = { "+and": [{ region: "jp-osa" }, { prefix: 17 }] };
    const response = await harness.call("GET", "/networking/ips", {
      headers: { "X-Filter": JSON.stringify(filter) },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([priv]);
    const all = await harness.call("GET", "/networking/ips?page_size=500");
    expect(all.body.data.map((ip: { address: string }) => ip.address)).toEqual(
      expect.arrayContaining([owner.ipv4[0], priv.address]),
    );
  });

  it("refuses a filter on a field the spec does not mark filterable", async () => {
    const response = await harness.call("GET", "/networking/ips", {
      headers: { "X-Filter": JSON.stringify({ gateway: "198.19.0.1" }) },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].field).toBe("X-Filter");
  });
});

describe("reverse DNS", () => {
  it("sets rdns on a public address and restores the default with null", async () => {
    const owner = await instance();
    const address = owner.ipv4[0]!;
    const set = await harness.call("PUT", `/networking/ips/${address}`, {
      json: { rdns: "web-1.example.com" },
    });
    expect(set.status).toBe(200);
    expect(set.body.rdns).toBe("web-1.example.com");
    expect((await harness.call("GET", `/networking/ips/${address}`)).body.rdns).toBe("web-1.example.com");
    const reset = await harness.call("PUT", `/networking/ips/${address}`, { json: { rdns: null } });
    expect(reset.body.rdns).toBe(`${address.replaceAll(".", "-")}.ip.example.net`);
  });

  const badNames = [
    "-leading.example.com",
    "under_score.example.com",
    "a..b",
    `${"x".repeat(64)}.example.com`,
    "",
  ];
  it.each(badNames)("refuses the host name %j on field rdns", async (rdns) => {
    const owner = await instance();
    const response = await harness.call("PUT", `/networking/ips/${owner.ipv4[0]}`, { json: { rdns } });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: "rdns", reason: ipReasons.badRdns }]);
  });

  it("refuses rdns on a private address", async () => {
    const owner = await instance();
    const priv = (await allocate({ type: "ipv4", public: false, compute_id: owner.id })).body;
    const response = await harness.call("PUT", `/networking/ips/${priv.address}`, {
      json: { rdns: "x.example.com" },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: "rdns", reason: ipReasons.privateRdns }]);
  });

  it("answers 404 for an address nobody holds", async () => {
    for (const method of ["GET", "PUT"]) {
      const response = await harness.call(method, "/networking/ips/192.168.255.254", {
        json: method === "PUT" ? { rdns: null } : undefined,
      });
      expect(response.status).toBe(404);
    }
  });
});

describe("events", () => {
  it("records ipaddress_allocate and ipaddress_update about the address", async () => {
    const owner = await instance();
    const priv = (await allocate({ type: "ipv4", public: false, compute_id: owner.id })).body;
    await harness.call("PUT", `/networking/ips/${owner.ipv4[0]}`, { json: { rdns: "web-2.example.com" } });
    const events = await harness.call("GET", "/account/events?page_size=500");
    const about = (address: string) =>
      events.body.data
        .filter((event: { entity: { id: unknown } | null }) => event.entity?.id === address)
        .map((event: { action: string }) => event.action);
    expect(about(priv.address)).toEqual(["ipaddress_allocate"]);
    expect(about(owner.ipv4[0]!)).toEqual(["ipaddress_update"]);
  });
});
