/**
 * Back-end nodes of the reference server: every node rule (a case that passes and one that fails) on create,
 * on the deprecated alias and on update, 404s for a profile of another load balancer, deletion, events, the
 * description's workflows 1, 2, 4 and 6 end to end, and node health by real TCP listeners on the loopback
 * stand-ins of private addresses (ARCHITECTURE.md's sandbox network). The harness validates every response against
 * the spec. Intervals run at a hundredth of real time; polls are bounded by count and time.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { makeTlsPair } from "../helpers/certificates.ts";
import { type ApiResponse, startReference } from "../helpers/reference.ts";

const harness = await startReference({
  timeScale: 0.01,
  rateLimits: {
    general: { limit: 100_000, windowMs: 60_000 },
    list: { limit: 100_000, windowMs: 60_000 },
    createInstance: { limit: 1000, windowMs: 30_000 },
  },
});
const { call } = harness;
const deprecationWarning =
  "This endpoint is deprecated; use POST /nodebalancers/{nodeBalancerId}/configs/{configId}/nodes";

type Body = Record<string, unknown>;

/** The fields the errors name, sorted, each once (the spec validator may report one field twice). */
function fieldsOf(response: ApiResponse): (string | undefined)[] {
  return [...new Set((response.body.errors as { field?: string }[]).map((error) => error.field))].sort();
}

async function created(response: Promise<ApiResponse>, status = 200): Promise<ApiResponse> {
  const answer = await response;
  expect(answer.status, answer.text).toBe(status);
  return answer;
}

/** A load balancer with one profile; returns the profile's path. */
async function profile(region = "us-east", config: Body = { port: 80, check: "connection" }) {
  const nodeBalancer = await created(call("POST", "/nodebalancers", { json: { region } }));
  const config_ = await created(
    call("POST", `/nodebalancers/${nodeBalancer.body.id}/configs`, { json: config }),
  );
  const path = `/nodebalancers/${nodeBalancer.body.id}/configs/${config_.body.id}`;
  return { nodeBalancerId: nodeBalancer.body.id as number, configId: config_.body.id as number, path };
}

/** An instance in a region with a private IPv4; returns its id and that address. */
async function instance(region = "us-east", booted = false): Promise<{ id: number; address: string }> {
  const made = await created(
    call("POST", "/compute/instances", {
      json: {
        region,
        type: "g6-standard-2",
        image: "compute/debian12",
        root_pass: "c0rrect-Horse-battery-staple",
        booted,
      },
    }),
  );
  const ip = await created(
    call("POST", "/networking/ips", { json: { type: "ipv4", public: false, compute_id: made.body.id } }),
  );
  return { id: made.body.id, address: ip.body.address };
}

/** Reads until `done` holds, at most `attempts` times and `timeoutMs` long; fails with the last value read. */
async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  { attempts = 400, timeoutMs = 15_000, pauseMs = 25 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (let attempt = 0; attempt < attempts && Date.now() < deadline; attempt += 1) {
    last = await read();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  throw new Error(
    `${what} did not happen within ${attempts} reads / ${timeoutMs} ms; last read: ${JSON.stringify(last)}`,
  );
}

const sandboxHost = (privateIp: string) => privateIp.replace(/^192\.168\./, "127.168.");

const listeners = new Set<Server>();
afterAll(async () => {
  await Promise.all([...listeners].map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Opens a real TCP listener on a loopback stand-in address (port 0: any free one). */
async function listen(host: string, port = 0): Promise<Server> {
  const server = createServer((socket) => socket.destroy());
  server.listen(port, host);
  await once(server, "listening");
  listeners.add(server);
  return server;
}

async function close(server: Server): Promise<void> {
  await new Promise((resolve) => server.close(resolve));
  listeners.delete(server);
}

/** A port free on the stand-in host right now (found by listening on port 0 and closing). */
async function freePort(host: string): Promise<number> {
  const server = await listen(host);
  const { port } = server.address() as { port: number };
  await close(server);
  return port;
}

// One instance per region the tests need, created once.
const east = await instance("us-east");
const east2 = await instance("us-east");
const west = await instance("eu-west");
const publicAddressOfEast = (await call("GET", `/compute/instances/${east.id}`)).body.ipv4[0] as string;

describe("createNodeBalancerConfigNode", () => {
  it("registers a node with the defaults, Unknown until its first probe", async () => {
    const { path, configId, nodeBalancerId } = await profile();
    const response = await created(
      call("POST", `${path}/nodes`, { json: { label: "web-1", address: `${east.address}:80` } }),
    );
    expect(response.body).toEqual({
      id: response.body.id,
      label: "web-1",
      address: `${east.address}:80`,
      status: "Unknown",
      weight: 50,
      mode: "accept",
      config_id: configId,
      nodebalancer_id: nodeBalancerId,
    });
    const read = await call("GET", `${path}/nodes/${response.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(response.body.id);
    const list = await call("GET", `${path}/nodes`);
    expect(list.body.results).toBe(1);
  });

  /** [name, body, status, fields, reason fragment]; the profile already has node `taken` at east:80. */
  const rules: [string, () => Body, number, string[], string?][] = [
    ["a unique label", () => ({ label: "web-2", address: `${east.address}:81` }), 200, []],
    [
      "a label the profile already has",
      () => ({ label: "taken", address: `${east.address}:81` }),
      400,
      ["label"],
    ],
    [
      "a label with dots, dashes and underscores",
      () => ({ label: "web.2_b-c", address: `${east.address}:81` }),
      200,
      [],
    ],
    ["a label with a space", () => ({ label: "web 2", address: `${east.address}:81` }), 400, ["label"]],
    ["a label of 2 characters", () => ({ label: "ab", address: `${east.address}:81` }), 400, ["label"]],
    [
      "a label of 33 characters",
      () => ({ label: "a".repeat(33), address: `${east.address}:81` }),
      400,
      ["label"],
    ],
    ["a label of 32 characters", () => ({ label: "a".repeat(32), address: `${east.address}:81` }), 200, []],
    ["port 65535", () => ({ label: "web-2", address: `${east.address}:65535` }), 200, []],
    ["port 0", () => ({ label: "web-2", address: `${east.address}:0` }), 400, ["address"]],
    ["port 65536", () => ({ label: "web-2", address: `${east.address}:65536` }), 400, ["address"]],
    ["no port", () => ({ label: "web-2", address: east.address }), 400, ["address"]],
    [
      "a private address outside 192.168.0.0/16",
      () => ({ label: "web-2", address: "10.0.0.1:80" }),
      400,
      ["address"],
      "private",
    ],
    [
      "another RFC 1918 range",
      () => ({ label: "web-2", address: "172.16.5.4:80" }),
      400,
      ["address"],
      "private",
    ],
    [
      "the instance's public address",
      () => ({ label: "web-2", address: `${publicAddressOfEast}:80` }),
      400,
      ["address"],
    ],
    [
      "a private address no instance has",
      () => ({ label: "web-2", address: "192.168.1.250:80" }),
      400,
      ["address"],
      "region",
    ],
    [
      "an instance's address in another region",
      () => ({ label: "web-2", address: `${west.address}:80` }),
      400,
      ["address"],
      "region",
    ],
    ["another instance of the region", () => ({ label: "web-2", address: `${east2.address}:80` }), 200, []],
    ["weight 1", () => ({ label: "web-2", address: `${east.address}:81`, weight: 1 }), 200, []],
    ["weight 255", () => ({ label: "web-2", address: `${east.address}:81`, weight: 255 }), 200, []],
    ["weight 0", () => ({ label: "web-2", address: `${east.address}:81`, weight: 0 }), 400, ["weight"]],
    ["weight 256", () => ({ label: "web-2", address: `${east.address}:81`, weight: 256 }), 400, ["weight"]],
    ["mode backup", () => ({ label: "web-2", address: `${east.address}:81`, mode: "backup" }), 200, []],
    [
      "an unknown mode",
      () => ({ label: "web-2", address: `${east.address}:81`, mode: "standby" }),
      400,
      ["mode"],
    ],
    ["neither label nor address", () => ({}), 400, ["address", "label"]],
    [
      "a taken label and a foreign address",
      () => ({ label: "taken", address: `${west.address}:80` }),
      400,
      ["address", "label"],
    ],
  ];
  it.each(rules.map(([name, body, status, fields, reason]) => ({ name, body, status, fields, reason })))(
    "with $name answers $status",
    async ({ body, status, fields, reason }) => {
      const { path } = await profile();
      await created(
        call("POST", `${path}/nodes`, { json: { label: "taken", address: `${east.address}:80` } }),
      );
      const response = await call("POST", `${path}/nodes`, { json: body() });
      expect(response.status, response.text).toBe(status);
      if (status === 400) {
        expect(fieldsOf(response)).toEqual(fields);
        if (reason) expect(JSON.stringify(response.body.errors)).toContain(reason);
      } else {
        expect(response.body).toMatchObject({ ...body(), status: "Unknown" });
      }
      const list = await call("GET", `${path}/nodes`);
      expect(list.body.results).toBe(status === 200 ? 2 : 1);
    },
  );

  it("allows the same label in another profile of the load balancer", async () => {
    const { path, nodeBalancerId } = await profile();
    const other = await created(
      call("POST", `/nodebalancers/${nodeBalancerId}/configs`, { json: { port: 8080 } }),
    );
    const otherPath = `/nodebalancers/${nodeBalancerId}/configs/${other.body.id}`;
    await created(call("POST", `${path}/nodes`, { json: { label: "web-1", address: `${east.address}:80` } }));
    await created(
      call("POST", `${otherPath}/nodes`, { json: { label: "web-1", address: `${east.address}:8080` } }),
    );
  });

  it("answers 404 when the profile belongs to another load balancer", async () => {
    const first = await profile();
    const second = await profile();
    const foreign = `/nodebalancers/${second.nodeBalancerId}/configs/${first.configId}`;
    const node = { label: "web-1", address: `${east.address}:80` };
    expect((await call("POST", `${foreign}/nodes`, { json: node })).status).toBe(404);
    expect((await call("POST", foreign, { json: node })).status).toBe(404);
    expect((await call("GET", `${foreign}/nodes`)).status).toBe(404);
    expect((await call("POST", "/nodebalancers/999999/configs/999999/nodes", { json: node })).status).toBe(
      404,
    );
  });
});

describe("createNodeBalancerNodeDeprecated", () => {
  it("creates the node the same way and answers 299 with a warning", async () => {
    const { path, configId } = await profile();
    const response = await created(
      call("POST", path, { json: { label: "web-1", address: `${east.address}:80`, weight: 10 } }),
      299,
    );
    expect(response.body).toMatchObject({
      label: "web-1",
      weight: 10,
      status: "Unknown",
      config_id: configId,
    });
    expect(response.body.warnings).toEqual([deprecationWarning]);
    const read = await call("GET", `${path}/nodes/${response.body.id}`);
    expect(read.body).not.toHaveProperty("warnings");
    expect(read.body.label).toBe("web-1");
  });

  const cases: [string, () => Body, number, string[]][] = [
    ["a new label", () => ({ label: "web-2", address: `${east.address}:81` }), 299, []],
    ["a taken label", () => ({ label: "web-1", address: `${east.address}:81` }), 400, ["label"]],
    [
      "an address outside the region",
      () => ({ label: "web-2", address: `${west.address}:81` }),
      400,
      ["address"],
    ],
  ];
  it.each(cases.map(([name, body, status, fields]) => ({ name, body, status, fields })))(
    "with $name answers $status",
    async ({ body, status, fields }) => {
      const { path } = await profile();
      await created(
        call("POST", `${path}/nodes`, { json: { label: "web-1", address: `${east.address}:80` } }),
      );
      const response = await call("POST", path, { json: body() });
      expect(response.status, response.text).toBe(status);
      if (status === 400) {
        expect(fieldsOf(response)).toEqual(fields);
        expect(response.body).not.toHaveProperty("warnings");
      }
    },
  );
});

describe("updateNodeBalancerConfigNode", () => {
  /** [name, body, status, fields]; the node is web-1 at east:80, its sibling web-2 at east:81. */
  const cases: [string, () => Body, number, string[]][] = [
    ["its own label", () => ({ label: "web-1" }), 200, []],
    ["a new label", () => ({ label: "web-1b" }), 200, []],
    ["the sibling's label", () => ({ label: "web-2" }), 400, ["label"]],
    ["a new address in the region", () => ({ address: `${east2.address}:80` }), 200, []],
    ["an address in another region", () => ({ address: `${west.address}:80` }), 400, ["address"]],
    ["an address that is not private", () => ({ address: "10.9.8.7:80" }), 400, ["address"]],
    ["weight 200 and mode drain", () => ({ weight: 200, mode: "drain" }), 200, []],
    ["weight 0", () => ({ weight: 0 }), 400, ["weight"]],
    ["mode reject", () => ({ mode: "reject" }), 200, []],
    ["an unknown mode", () => ({ mode: "off" }), 400, ["mode"]],
  ];
  it.each(cases.map(([name, body, status, fields]) => ({ name, body, status, fields })))(
    "with $name answers $status",
    async ({ body, status, fields }) => {
      const { path } = await profile();
      const node = await created(
        call("POST", `${path}/nodes`, { json: { label: "web-1", address: `${east.address}:80` } }),
      );
      await created(
        call("POST", `${path}/nodes`, { json: { label: "web-2", address: `${east.address}:81` } }),
      );
      const nodePath = `${path}/nodes/${node.body.id}`;
      const response = await call("PUT", nodePath, { json: body() });
      expect(response.status, response.text).toBe(status);
      const read = await call("GET", nodePath);
      if (status === 400) {
        expect(fieldsOf(response)).toEqual(fields);
        expect(read.body).toMatchObject({
          label: "web-1",
          address: `${east.address}:80`,
          weight: 50,
          mode: "accept",
        });
      } else {
        expect(response.body).toMatchObject(body());
        expect(read.body).toMatchObject(body());
      }
    },
  );

  it("answers 404 for a node of another profile", async () => {
    const first = await profile();
    const second = await profile();
    const node = await created(
      call("POST", `${first.path}/nodes`, { json: { label: "web-1", address: `${east.address}:80` } }),
    );
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await call(method, `${second.path}/nodes/${node.body.id}`, {
        ...(method === "PUT" ? { json: { weight: 5 } } : {}),
      });
      expect(response.status, method).toBe(404);
    }
  });
});

describe("deleteNodeBalancerConfigNode and events", () => {
  it("removes the node and records create, update and delete", async () => {
    const { path } = await profile();
    const node = await created(
      call("POST", `${path}/nodes`, { json: { label: "evented", address: `${east.address}:80` } }),
    );
    const nodePath = `${path}/nodes/${node.body.id}`;
    await created(call("PUT", nodePath, { json: { weight: 7 } }));
    const deleted = await created(call("DELETE", nodePath));
    expect(deleted.body).toEqual({});
    expect((await call("GET", nodePath)).status).toBe(404);
    expect((await call("DELETE", nodePath)).status).toBe(404);
    expect((await call("GET", `${path}/nodes`)).body.results).toBe(0);
    for (const action of [
      "nodebalancer_node_create",
      "nodebalancer_node_update",
      "nodebalancer_node_delete",
    ]) {
      const events = await call("GET", "/account/events", {
        headers: { "X-Filter": JSON.stringify({ action }) },
      });
      const mine = (events.body.data as { entity: { id: number } }[]).filter(
        (e) => e.entity.id === node.body.id,
      );
      expect(mine, action).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        entity: { label: "evented", type: "nodebalancer_node", url: `/v4${nodePath}` },
      });
    }
  });
});

describe("the description's workflows 1, 2, 4 and 6", () => {
  it("creates a load balancer, a profile, registers two instances as nodes and switches to HTTPS", async () => {
    // 1. A load balancer in a region: no profiles yet.
    const nodeBalancer = await created(
      call("POST", "/nodebalancers", {
        json: { region: "us-east", label: "workflow-lb", client_conn_throttle: 0 },
      }),
    );
    const base = `/nodebalancers/${nodeBalancer.body.id}`;
    expect((await call("GET", `${base}/configs`)).body.results).toBe(0);
    // 2. A profile for port 80 with a connection check.
    const config = await created(
      call("POST", `${base}/configs`, { json: { label: "web", port: 80, check: "connection" } }),
    );
    const path = `${base}/configs/${config.body.id}`;
    // 3. Two instances in the same region, each with a private address, booted afterwards.
    const first = await instance("us-east");
    const second = await instance("us-east");
    for (const { id } of [first, second]) await created(call("POST", `/compute/instances/${id}/boot`));
    // 4. Both registered: one at the real path, one at the deprecated one.
    await created(
      call("POST", `${path}/nodes`, { json: { label: "backend-1", address: `${first.address}:80` } }),
    );
    const viaAlias = await created(
      call("POST", path, { json: { label: "backend-2", address: `${second.address}:80` } }),
      299,
    );
    expect(viaAlias.body.warnings).toEqual([deprecationWarning]);
    // 5. Nothing listens: both count as down.
    const status = await call("GET", path);
    expect(status.body.nodes_status).toEqual({ up: 0, down: 2 });
    // 6. Switch to HTTPS on 443 with a certificate and key.
    const pair = await makeTlsPair({ subject: "CN=shop.example.com, O=Example, C=US" });
    const switched = await created(
      call("PUT", path, { json: { protocol: "https", port: 443, ssl_cert: pair.cert, ssl_key: pair.key } }),
    );
    expect(switched.body).toMatchObject({
      protocol: "https",
      port: 443,
      ssl_cert: "<REDACTED>",
      ssl_key: "<REDACTED>",
      ssl_commonname: "shop.example.com",
      nodes_status: { up: 0, down: 2 },
    });
    expect((await call("GET", `${path}/nodes`)).body.results).toBe(2);
  });
});

describe("node health by real probes", () => {
  it("counts nodes up as listeners open on their addresses, and down when one closes", async () => {
    const { path } = await profile("us-east", {
      port: 80,
      check: "connection",
      check_interval: 31,
      check_timeout: 30,
    });
    const machines = [await instance("us-east", true), await instance("us-east", true)];
    for (const machine of machines) {
      await eventually(
        () => call("GET", `/compute/instances/${machine.id}`),
        (response) => response.body.status === "running",
        `instance ${machine.id} running`,
      );
    }
    const hosts = machines.map((machine) => sandboxHost(machine.address));
    const ports = [await freePort(hosts[0]!), await freePort(hosts[1]!)];
    for (const [index, machine] of machines.entries()) {
      const node = await created(
        call("POST", `${path}/nodes`, {
          json: { label: `probe-${index}`, address: `${machine.address}:${ports[index]}` },
        }),
      );
      expect(node.body.status).toBe("Unknown");
    }
    const readStatus = async () =>
      (await call("GET", path)).body.nodes_status as { up: number; down: number };
    const readNodes = async () => (await call("GET", `${path}/nodes`)).body.data as { status: string }[];

    // Nothing listens: both probed DOWN, counted up 0 down 2.
    await eventually(readNodes, (nodes) => nodes.every((node) => node.status === "DOWN"), "both nodes DOWN");
    expect(await readStatus()).toEqual({ up: 0, down: 2 });

    const first = await listen(hosts[0]!, ports[0]);
    await eventually(readStatus, (s) => s.up === 1 && s.down === 1, "one node up");
    const second = await listen(hosts[1]!, ports[1]);
    await eventually(readStatus, (s) => s.up === 2 && s.down === 0, "two nodes up");
    expect((await readNodes()).map((node) => node.status)).toEqual(["UP", "UP"]);

    await close(first);
    await eventually(readStatus, (s) => s.up === 1 && s.down === 1, "one node down again");
    await close(second);
  });
});
