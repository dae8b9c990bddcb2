/**
 * Load balancers of the reference server (`/nodebalancers`): creation rules and defaults, addresses, reads,
 * lists with filters, updates, deletion with its cascade, and the events each change records. Every response
 * is validated against the spec by the harness.
 */
import { isIP } from "node:net";
import { describe, expect, it } from "vitest";
import { type ApiResponse, startReference } from "../helpers/reference.ts";

const harness = await startReference({ timeScale: 0.01 });
const { call } = harness;

let labelCounter = 0;
/** A label no other test of this file uses. */
function freshLabel(prefix = "lb"): string {
  labelCounter += 1;
  return `${prefix}-${labelCounter}-${Date.now() % 100000}`;
}

async function createNodeBalancer(body: Record<string, unknown> = {}): Promise<ApiResponse> {
  const response = await call("POST", "/nodebalancers", { json: { region: "us-east", ...body } });
  expect(response.status, response.text).toBe(200);
  return response;
}

function fieldsOf(response: ApiResponse): (string | undefined)[] {
  return (response.body.errors as { field?: string }[]).map((error) => error.field);
}

async function eventsFor(action: string, entityId: number): Promise<unknown[]> {
  const response = await call("GET", "/account/events", {
    headers: { "X-Filter": JSON.stringify({ action }) },
  });
  expect(response.status).toBe(200);
  return (response.body.data as { entity: { id: number } | null }[]).filter(
    (event) => event.entity?.id === entityId,
  );
}

/** 198.18.0.0/15, the benchmark range that stands in for public load balancer addresses. */
function inBenchmarkRange(address: string): boolean {
  return isIP(address) === 4 && /^198\.1[89]\./.test(address);
}

describe("createNodeBalancer", () => {
  it("creates with the documented defaults when only the region is given", async () => {
    const { body } = await createNodeBalancer();
    expect(body.id).toBeGreaterThan(0);
    expect(body.label).toBe(`balancer${body.id}`);
    expect(body.region).toBe("us-east");
    expect(body.client_conn_throttle).toBe(20);
    expect(body.tags).toEqual([]);
    expect(body.transfer).toEqual({ in: null, out: null, total: null });
    expect(inBenchmarkRange(body.ipv4)).toBe(true);
    expect(isIP(body.ipv6)).toBe(6);
    expect(body.ipv6).toMatch(/^2001:db8:/);
    expect(body.hostname).toBe(`nb-${body.ipv4.replaceAll(".", "-")}.us-east.nodebalancer.example.net`);
    expect(Date.parse(body.created)).not.toBeNaN();
    expect(body.updated).toBe(body.created);
  });

  it("keeps the label, throttle and tags it is given", async () => {
    const label = freshLabel();
    const { body } = await createNodeBalancer({
      region: "eu-west",
      label,
      client_conn_throttle: 0,
      tags: ["conform", "web"],
    });
    expect(body).toMatchObject({
      label,
      region: "eu-west",
      client_conn_throttle: 0,
      tags: ["conform", "web"],
    });
    expect(body.hostname).toMatch(/\.eu-west\.nodebalancer\.example\.net$/);
  });

  it("hands out unique, sequential public addresses", async () => {
    const first = await createNodeBalancer();
    const second = await createNodeBalancer();
    const toInt = (address: string) => address.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
    expect(second.body.id).toBe(first.body.id + 1);
    expect(toInt(second.body.ipv4)).toBeGreaterThan(toInt(first.body.ipv4));
    expect(second.body.ipv6).not.toBe(first.body.ipv6);
    const all = await call("GET", "/nodebalancers?page_size=500");
    const addresses = (all.body.data as { ipv4: string }[]).map((nb) => nb.ipv4);
    expect(new Set(addresses).size).toBe(addresses.length);
  });

  it("starts with no configuration profiles (workflow 1)", async () => {
    const { body } = await createNodeBalancer({ label: freshLabel(), client_conn_throttle: 5 });
    const configs = await call("GET", `/nodebalancers/${body.id}/configs`);
    expect(configs.status).toBe(200);
    expect(configs.body).toEqual({ data: [], page: 1, pages: 1, results: 0 });
  });

  const refusals: [string, Record<string, unknown>, string[]][] = [
    ["a region that does not exist", { region: "xx-nowhere" }, ["region"]],
    ["a region without load balancers", { region: "us-den-edge-1" }, ["region"]],
    ["no region at all", { region: undefined }, ["region"]],
    ["a label of bad characters", { label: "bad label!" }, ["label"]],
    ["a throttle above 20", { client_conn_throttle: 21 }, ["client_conn_throttle"]],
  ];
  it.each(refusals)("refuses %s (400 naming the field)", async (_name, body, fields) => {
    const response = await call("POST", "/nodebalancers", { json: { region: "us-east", ...body } });
    expect(response.status).toBe(400);
    expect(fieldsOf(response)).toEqual(fields);
  });

  it("refuses a label another load balancer has, and reports it with a bad region", async () => {
    const label = freshLabel();
    await createNodeBalancer({ label });
    const duplicate = await call("POST", "/nodebalancers", { json: { region: "us-east", label } });
    expect(duplicate.status).toBe(400);
    expect(fieldsOf(duplicate)).toEqual(["label"]);
    const both = await call("POST", "/nodebalancers", { json: { region: "fr-mrs-edge-1", label } });
    expect(both.status).toBe(400);
    expect(fieldsOf(both).sort()).toEqual(["label", "region"]);
  });

  it("accepts every region that lists NodeBalancers in its capabilities", async () => {
    const regions = await call("GET", "/regions?page_size=500", { token: null });
    const capable = (regions.body.data as { id: string; capabilities: string[] }[]).filter((region) =>
      region.capabilities.includes("NodeBalancers"),
    );
    expect(capable.length).toBeGreaterThan(0);
    for (const region of capable.slice(0, 5)) {
      const { body } = await createNodeBalancer({ region: region.id });
      expect(body.region).toBe(region.id);
    }
  });

  it("records nodebalancer_create", async () => {
    const { body } = await createNodeBalancer();
    const events = await eventsFor("nodebalancer_create", body.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity: { id: body.id, label: body.label, type: "nodebalancer", url: `/v4/nodebalancers/${body.id}` },
    });
  });
});

describe("getNodeBalancer and getNodeBalancers", () => {
  it("reads one load balancer as it was created", async () => {
    const created = await createNodeBalancer({ label: freshLabel() });
    const read = await call("GET", `/nodebalancers/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it("answers 404 for an unknown id", async () => {
    const response = await call("GET", "/nodebalancers/999999");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [{ reason: "Not found" }] });
  });

  it("lists and filters on label, region, ipv4 and tags", async () => {
    const tag = freshLabel("tag");
    const a = await createNodeBalancer({ label: freshLabel(), region: "ap-south", tags: [tag] });
    const b = await createNodeBalancer({ label: freshLabel(), region: "ap-south", tags: [tag, "other"] });
    const cases: [Record<string, unknown>, number[]][] = [
      [{ label: a.body.label }, [a.body.id]],
      [{ ipv4: b.body.ipv4 }, [b.body.id]],
      [{ tags: tag }, [a.body.id, b.body.id]],
      [{ tags: tag, region: "ap-south" }, [a.body.id, b.body.id]],
      [{ tags: tag, region: "us-east" }, []],
    ];
    for (const [filter, ids] of cases) {
      const response = await call("GET", "/nodebalancers", {
        headers: { "X-Filter": JSON.stringify(filter) },
      });
      expect(response.status).toBe(200);
      expect((response.body.data as { id: number }[]).map((nb) => nb.id)).toEqual(ids);
      expect(response.body.results).toBe(ids.length);
    }
  });

  it("refuses a filter on a field that is not filterable", async () => {
    const response = await call("GET", "/nodebalancers", {
      headers: { "X-Filter": JSON.stringify({ client_conn_throttle: 20 }) },
    });
    expect(response.status).toBe(400);
    expect(fieldsOf(response)).toEqual(["X-Filter"]);
  });
});

describe("updateNodeBalancer", () => {
  it("changes label, throttle and tags, and records nodebalancer_update", async () => {
    const created = await createNodeBalancer({ label: freshLabel(), tags: ["a"] });
    const label = freshLabel("renamed");
    const response = await call("PUT", `/nodebalancers/${created.body.id}`, {
      json: { label, client_conn_throttle: 3, tags: ["b", "c"] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: created.body.id,
      label,
      client_conn_throttle: 3,
      tags: ["b", "c"],
    });
    expect(response.body.ipv4).toBe(created.body.ipv4);
    const read = await call("GET", `/nodebalancers/${created.body.id}`);
    expect(read.body).toEqual(response.body);
    expect(await eventsFor("nodebalancer_update", created.body.id)).toHaveLength(1);
  });

  it("keeps omitted fields", async () => {
    const created = await createNodeBalancer({
      label: freshLabel(),
      client_conn_throttle: 7,
      tags: ["keep"],
    });
    const response = await call("PUT", `/nodebalancers/${created.body.id}`, { json: {} });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      label: created.body.label,
      client_conn_throttle: 7,
      tags: ["keep"],
    });
  });

  const cases: [string, "own" | "other" | "bad", number, string[]][] = [
    ["its own label", "own", 200, []],
    ["another load balancer's label", "other", 400, ["label"]],
    ["a label of bad characters", "bad", 400, ["label"]],
  ];
  it.each(cases.map(([name, which, status, fields]) => ({ name, which, status, fields })))(
    "with $name answers $status",
    async ({ which, status, fields }) => {
      const other = await createNodeBalancer({ label: freshLabel() });
      const created = await createNodeBalancer({ label: freshLabel() });
      const label = { own: created.body.label, other: other.body.label, bad: "no spaces allowed" }[which];
      const response = await call("PUT", `/nodebalancers/${created.body.id}`, { json: { label } });
      expect(response.status).toBe(status);
      if (status === 400) expect(fieldsOf(response)).toEqual(fields);
    },
  );

  it("answers 404 for an unknown id", async () => {
    const response = await call("PUT", "/nodebalancers/999999", { json: { label: freshLabel() } });
    expect(response.status).toBe(404);
  });
});

describe("deleteNodeBalancer", () => {
  it("deletes it with its profiles, and records nodebalancer_delete", async () => {
    const created = await createNodeBalancer({ label: freshLabel() });
    const id = created.body.id as number;
    const profiles = [];
    for (const port of [80, 8080]) {
      const profile = await call("POST", `/nodebalancers/${id}/configs`, {
        json: { port, check: "connection" },
      });
      expect(profile.status).toBe(200);
      profiles.push(profile.body.id as number);
    }
    const deleted = await call("DELETE", `/nodebalancers/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    expect((await call("GET", `/nodebalancers/${id}`)).status).toBe(404);
    expect((await call("GET", `/nodebalancers/${id}/configs`)).status).toBe(404);
    for (const profile of profiles) {
      expect((await call("GET", `/nodebalancers/${id}/configs/${profile}`)).status).toBe(404);
      expect(harness.server.state.configs.has(profile)).toBe(false);
    }
    expect([...harness.server.state.nodes.values()].filter((node) => node.nodebalancer_id === id)).toEqual(
      [],
    );
    expect(await eventsFor("nodebalancer_delete", id)).toHaveLength(1);
  });

  it("frees its label for a new load balancer", async () => {
    const label = freshLabel();
    const created = await createNodeBalancer({ label });
    expect((await call("DELETE", `/nodebalancers/${created.body.id}`)).status).toBe(200);
    const again = await createNodeBalancer({ label });
    expect(again.body.label).toBe(label);
  });

  it("answers 404 for an unknown id, and for a second delete", async () => {
    const created = await createNodeBalancer();
    expect((await call("DELETE", `/nodebalancers/${created.body.id}`)).status).toBe(200);
    expect((await call("DELETE", `/nodebalancers/${created.body.id}`)).status).toBe(404);
    expect((await call("DELETE", "/nodebalancers/999999")).status).toBe(404);
  });
});

describe("scopes", () => {
  it("needs a token", async () => {
    const response = await call("GET", "/nodebalancers", { token: null });
    expect(response.status).toBe(401);
  });
});
