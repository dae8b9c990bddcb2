/**
 * Configuration profiles of the reference server: defaults, every profile rule (a case that passes and one
 * that fails, on create and on update), HTTPS with real certificates (redaction, common name, fingerprint,
 * blank subjects, mismatched keys, `\n`-escaped PEM), the description's workflows 2 and 6, deletion, the
 * rebuild with its nested error paths, and events. The harness validates every response against the spec.
 */
import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { escapeLineBreaks, makeStrayKey, makeTlsPair } from "../helpers/certificates.ts";
import { type ApiResponse, startReference } from "../helpers/reference.ts";

const harness = await startReference({
  timeScale: 0.01,
  rateLimits: { createInstance: { limit: 1000, windowMs: 30_000 } },
});
const { call } = harness;

const ec = await makeTlsPair({ kind: "ec", subject: "CN=www.example.com, O=Example, C=US" });
const rsa = await makeTlsPair({ kind: "rsa", subject: "C=US, O=Example, CN=rsa.example.com" });
const blankSubject = await makeTlsPair({ subject: "" });
const emptyAttributes = await makeTlsPair({ subject: "CN=, O=" });
const strayKey = await makeStrayKey("ec");
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

type Body = Record<string, unknown>;

async function createNodeBalancer(region = "us-east"): Promise<number> {
  const response = await call("POST", "/nodebalancers", { json: { region } });
  expect(response.status, response.text).toBe(200);
  return response.body.id;
}

async function createConfig(nodeBalancerId: number, body: Body): Promise<ApiResponse> {
  const response = await call("POST", `/nodebalancers/${nodeBalancerId}/configs`, { json: body });
  expect(response.status, response.text).toBe(200);
  return response;
}

/** The fields the errors name, sorted, each once (the spec validator may report one field twice). */
function fieldsOf(response: ApiResponse): (string | undefined)[] {
  return [...new Set((response.body.errors as { field?: string }[]).map((error) => error.field))].sort();
}

/** A booted-or-not instance in a region with a private IPv4 (the instances and addresses handlers). */
async function instanceWithPrivateIp(region = "us-east"): Promise<string> {
  const instance = await call("POST", "/compute/instances", {
    json: {
      region,
      type: "g6-standard-2",
      image: "compute/debian12",
      root_pass: "c0rrect-Horse-battery-staple",
      booted: false,
    },
  });
  expect(instance.status, instance.text).toBe(200);
  const ip = await call("POST", "/networking/ips", {
    json: { type: "ipv4", public: false, compute_id: instance.body.id },
  });
  expect(ip.status, ip.text).toBe(200);
  return ip.body.address;
}

const https = (pair: { cert: string; key: string }, extra: Body = {}): Body => ({
  protocol: "https",
  port: 443,
  ssl_cert: pair.cert,
  ssl_key: pair.key,
  ...extra,
});

describe("createNodeBalancerConfig", () => {
  it("fills every default of facts.md", async () => {
    const nodeBalancerId = await createNodeBalancer();
    const { body } = await createConfig(nodeBalancerId, {});
    expect(body).toEqual({
      id: body.id,
      nodebalancer_id: nodeBalancerId,
      port: 80,
      protocol: "http",
      algorithm: "roundrobin",
      stickiness: "none",
      check: "none",
      check_interval: 31,
      check_timeout: 30,
      check_attempts: 3,
      check_path: "",
      check_body: "",
      check_passive: true,
      proxy_protocol: "none",
      cipher_suite: "recommended",
      ssl_commonname: "",
      ssl_fingerprint: "",
      ssl_cert: null,
      ssl_key: null,
      nodes_status: { up: 0, down: 0 },
    });
  });

  it("keeps the fields it is given (workflow 2) and lists the profile", async () => {
    const nodeBalancerId = await createNodeBalancer();
    const { body } = await createConfig(nodeBalancerId, {
      label: "web-http",
      port: 8080,
      check: "connection",
      algorithm: "leastconn",
      stickiness: "table",
      check_attempts: 5,
      check_passive: false,
      cipher_suite: "legacy",
    });
    expect(body).toMatchObject({
      label: "web-http",
      port: 8080,
      check: "connection",
      algorithm: "leastconn",
      stickiness: "table",
      check_attempts: 5,
      check_passive: false,
      cipher_suite: "legacy",
    });
    const list = await call("GET", `/nodebalancers/${nodeBalancerId}/configs`);
    expect(list.body.results).toBe(1);
    expect(list.body.data[0]).toEqual(body);
    expect((await call("GET", `/nodebalancers/${nodeBalancerId}/configs/${body.id}`)).body).toEqual(body);
  });

  /** [name, body, status, fields refused]; every case runs on a load balancer that already serves port 80. */
  const rules: [string, () => Body, number, string[]][] = [
    ["a port no other profile uses", () => ({ port: 81 }), 200, []],
    ["a port another profile uses", () => ({ port: 80 }), 400, ["port"]],
    [
      "check_interval above check_timeout",
      () => ({ port: 82, check_interval: 11, check_timeout: 10 }),
      200,
      [],
    ],
    [
      "check_interval equal to check_timeout",
      () => ({ port: 82, check_interval: 10, check_timeout: 10 }),
      400,
      ["check_interval"],
    ],
    [
      "check_interval below the default timeout",
      () => ({ port: 82, check_interval: 20 }),
      400,
      ["check_interval"],
    ],
    ["an http check with a path", () => ({ port: 83, check: "http", check_path: "/health" }), 200, []],
    ["an http check without a path", () => ({ port: 83, check: "http" }), 400, ["check_path"]],
    [
      "an http_body check with path and body",
      () => ({ port: 84, check: "http_body", check_path: "/", check_body: "ok" }),
      200,
      [],
    ],
    [
      "an http_body check without a body",
      () => ({ port: 84, check: "http_body", check_path: "/" }),
      400,
      ["check_body"],
    ],
    [
      "an http_body check with neither",
      () => ({ port: 84, check: "http_body" }),
      400,
      ["check_body", "check_path"],
    ],
    ["proxy_protocol v2 with tcp", () => ({ port: 85, protocol: "tcp", proxy_protocol: "v2" }), 200, []],
    ["proxy_protocol v1 with http", () => ({ port: 85, proxy_protocol: "v1" }), 400, ["proxy_protocol"]],
    ["proxy_protocol v2 with https", () => https(ec, { proxy_protocol: "v2" }), 400, ["proxy_protocol"]],
    ["https with an EC certificate and key", () => https(ec), 200, []],
    ["https with an RSA certificate and key", () => https(rsa), 200, []],
    [
      "https with `\\n`-escaped PEM",
      () => https({ cert: escapeLineBreaks(ec.cert), key: escapeLineBreaks(ec.key) }),
      200,
      [],
    ],
    [
      "https with neither certificate nor key",
      () => ({ port: 443, protocol: "https" }),
      400,
      ["ssl_cert", "ssl_key"],
    ],
    ["https with a certificate only", () => ({ protocol: "https", ssl_cert: ec.cert }), 400, ["ssl_key"]],
    ["https with a key only", () => ({ protocol: "https", ssl_key: ec.key }), 400, ["ssl_cert"]],
    [
      "http with a certificate and key",
      () => ({ port: 86, ssl_cert: ec.cert, ssl_key: ec.key }),
      400,
      ["ssl_cert", "ssl_key"],
    ],
    [
      "tcp with a certificate and key",
      () => ({ port: 86, protocol: "tcp", ssl_cert: ec.cert, ssl_key: ec.key }),
      400,
      ["ssl_cert", "ssl_key"],
    ],
    [
      "a certificate that is not PEM",
      () => https({ cert: "not a certificate", key: ec.key }),
      400,
      ["ssl_cert"],
    ],
    ["a certificate with a blank subject", () => https(blankSubject), 400, ["ssl_cert"]],
    ["a certificate whose subject values are empty", () => https(emptyAttributes), 400, ["ssl_cert"]],
    ["a key that is not PEM", () => https({ cert: ec.cert, key: "not a key" }), 400, ["ssl_key"]],
    [
      "a key that does not match the certificate",
      () => https({ cert: ec.cert, key: strayKey }),
      400,
      ["ssl_key"],
    ],
    ["an RSA key with an EC certificate", () => https({ cert: ec.cert, key: rsa.key }), 400, ["ssl_key"]],
    ["a bad certificate and a bad key", () => https({ cert: "x", key: "y" }), 400, ["ssl_cert", "ssl_key"]],
    [
      "several broken rules at once",
      () => ({ port: 80, check: "http", check_interval: 5, proxy_protocol: "v1" }),
      400,
      ["check_interval", "check_path", "port", "proxy_protocol"],
    ],
  ];
  it.each(rules.map(([name, body, status, fields]) => ({ name, body, status, fields })))(
    "with $name answers $status",
    async ({ body, status, fields }) => {
      const nodeBalancerId = await createNodeBalancer();
      await createConfig(nodeBalancerId, { port: 80 });
      const response = await call("POST", `/nodebalancers/${nodeBalancerId}/configs`, { json: body() });
      expect(response.status, response.text).toBe(status);
      if (status === 400) expect(fieldsOf(response)).toEqual(fields);
      const list = await call("GET", `/nodebalancers/${nodeBalancerId}/configs`);
      expect(list.body.results).toBe(status === 200 ? 2 : 1);
    },
  );

  it("never echoes the certificate or key, and shows its common name and fingerprint", async () => {
    const nodeBalancerId = await createNodeBalancer();
    const created = await createConfig(nodeBalancerId, https(rsa, { check: "connection" }));
    const read = await call("GET", `/nodebalancers/${nodeBalancerId}/configs/${created.body.id}`);
    const list = await call("GET", `/nodebalancers/${nodeBalancerId}/configs`);
    for (const profile of [created.body, read.body, list.body.data[0]]) {
      expect(profile).toMatchObject({
        protocol: "https",
        port: 443,
        ssl_cert: "<REDACTED>",
        ssl_key: "<REDACTED>",
        ssl_commonname: "rsa.example.com",
        ssl_fingerprint: fingerprint(rsa.cert),
      });
    }
    for (const response of [created, read, list]) {
      expect(response.text).not.toContain("BEGIN");
      expect(response.text).not.toContain(rsa.key.split("\n")[1]!);
    }
    expect(harness.server.state.configs.get(created.body.id)?.ssl_cert).toBe(rsa.cert);
  });

  it("decodes `\\n`-escaped PEM before storing it", async () => {
    const nodeBalancerId = await createNodeBalancer();
    const created = await createConfig(
      nodeBalancerId,
      https({ cert: escapeLineBreaks(ec.cert), key: escapeLineBreaks(ec.key) }),
    );
    expect(created.body.ssl_commonname).toBe("www.example.com");
    const stored = harness.server.state.configs.get(created.body.id);
    expect(stored?.ssl_cert).toBe(ec.cert);
    expect(stored?.ssl_key).toBe(ec.key);
  });

  it("answers 404 under an unknown load balancer", async () => {
    const response = await call("POST", "/nodebalancers/999999/configs", { json: { port: 80 } });
    expect(response.status).toBe(404);
  });
});

describe("updateNodeBalancerConfig", () => {
  it("switches a profile to HTTPS on 443 and back (workflow 6)", async () => {
    const nodeBalancerId = await createNodeBalancer();
    const created = await createConfig(nodeBalancerId, { label: "web", port: 80, check: "connection" });
    const path = `/nodebalancers/${nodeBalancerId}/configs/${created.body.id}`;

    const toHttps = await call("PUT", path, { json: https(ec) });
    expect(toHttps.status, toHttps.text).toBe(200);
    expect(toHttps.body).toMatchObject({
      id: created.body.id,
      label: "web",
      protocol: "https",
      port: 443,
      check: "connection",
      ssl_cert: "<REDACTED>",
      ssl_key: "<REDACTED>",
      ssl_commonname: "www.example.com",
      ssl_fingerprint: fingerprint(ec.cert),
    });

    const keepCertificate = await call("PUT", path, { json: { algorithm: "source" } });
    expect(keepCertificate.status).toBe(200);
    expect(keepCertificate.body).toMatchObject({
      protocol: "https",
      ssl_cert: "<REDACTED>",
      algorithm: "source",
    });

    const newCertificate = await call("PUT", path, { json: { ssl_cert: rsa.cert, ssl_key: rsa.key } });
    expect(newCertificate.status).toBe(200);
    expect(newCertificate.body.ssl_fingerprint).toBe(fingerprint(rsa.cert));

    const back = await call("PUT", path, { json: { protocol: "http", port: 80 } });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      protocol: "http",
      port: 80,
      ssl_cert: null,
      ssl_key: null,
      ssl_commonname: "",
      ssl_fingerprint: "",
    });
    expect(harness.server.state.configs.get(created.body.id)?.ssl_key).toBeNull();
  });

  /** [name, body, status, fields]; the profile is http on 80 with check connection, a sibling serves 8080. */
  const updates: [string, () => Body, number, string[]][] = [
    ["its own port", () => ({ port: 80 }), 200, []],
    ["a free port", () => ({ port: 81 }), 200, []],
    ["the sibling's port", () => ({ port: 8080 }), 400, ["port"]],
    ["a timeout below the current interval", () => ({ check_timeout: 20 }), 200, []],
    ["an interval not above the current timeout", () => ({ check_interval: 30 }), 400, ["check_interval"]],
    ["an http check with a path", () => ({ check: "http", check_path: "/" }), 200, []],
    ["an http check without a path", () => ({ check: "http" }), 400, ["check_path"]],
    ["tcp with proxy protocol", () => ({ protocol: "tcp", proxy_protocol: "v1" }), 200, []],
    ["proxy protocol while http", () => ({ proxy_protocol: "v1" }), 400, ["proxy_protocol"]],
    ["https without certificate", () => ({ protocol: "https", port: 443 }), 400, ["ssl_cert", "ssl_key"]],
    [
      "a certificate while http",
      () => ({ ssl_cert: ec.cert, ssl_key: ec.key }),
      400,
      ["ssl_cert", "ssl_key"],
    ],
    ["https with a blank-subject certificate", () => https(blankSubject), 400, ["ssl_cert"]],
    [
      "https with a key of another certificate",
      () => https({ cert: ec.cert, key: rsa.key }),
      400,
      ["ssl_key"],
    ],
  ];
  it.each(updates.map(([name, body, status, fields]) => ({ name, body, status, fields })))(
    "with $name answers $status",
    async ({ body, status, fields }) => {
      const nodeBalancerId = await createNodeBalancer();
      const created = await createConfig(nodeBalancerId, { port: 80, check: "connection" });
      await createConfig(nodeBalancerId, { port: 8080 });
      const path = `/nodebalancers/${nodeBalancerId}/configs/${created.body.id}`;
      const response = await call("PUT", path, { json: body() });
      expect(response.status, response.text).toBe(status);
      const read = await call("GET", path);
      if (status === 400) {
        expect(fieldsOf(response)).toEqual(fields);
        expect(read.body).toEqual(created.body);
      } else {
        expect(read.body).toEqual(response.body);
      }
    },
  );

  it("answers 404 for a profile of another load balancer", async () => {
    const owner = await createNodeBalancer();
    const other = await createNodeBalancer();
    const created = await createConfig(owner, {});
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await call(method, `/nodebalancers/${other}/configs/${created.body.id}`, {
        ...(method === "PUT" ? { json: { port: 81 } } : {}),
      });
      expect(response.status, method).toBe(404);
    }
    expect((await call("GET", `/nodebalancers/${owner}/configs/999999`)).status).toBe(404);
  });
});

describe("deleteNodeBalancerConfig", () => {
  it("deletes the profile and its nodes, and frees its port", async () => {
    const nodeBalancerId = await createNodeBalancer();
    const created = await createConfig(nodeBalancerId, { port: 80 });
    const path = `/nodebalancers/${nodeBalancerId}/configs/${created.body.id}`;
    const address = await instanceWithPrivateIp();
    const rebuilt = await call("POST", `${path}/rebuild`, {
      json: { nodes: [{ label: "web-1", address: `${address}:80` }] },
    });
    expect(rebuilt.status, rebuilt.text).toBe(200);
    const deleted = await call("DELETE", path);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    expect((await call("GET", path)).status).toBe(404);
    expect((await call("GET", `${path}/nodes`)).status).toBe(404);
    expect(
      [...harness.server.state.nodes.values()].filter((node) => node.config_id === created.body.id),
    ).toEqual([]);
    await createConfig(nodeBalancerId, { port: 80 });
    expect((await call("DELETE", path)).status).toBe(404);
  });
});

describe("rebuildNodeBalancerConfig", () => {
  it("replaces the node set: keeps nodes by id, creates new ones, deletes the rest", async () => {
    const nodeBalancerId = await createNodeBalancer();
    const created = await createConfig(nodeBalancerId, { port: 80, check: "connection" });
    const path = `/nodebalancers/${nodeBalancerId}/configs/${created.body.id}`;
    const [a, b, c] = [
      await instanceWithPrivateIp(),
      await instanceWithPrivateIp(),
      await instanceWithPrivateIp(),
    ];

    const first = await call("POST", `${path}/rebuild`, {
      json: {
        check_interval: 40,
        nodes: [
          { label: "web-1", address: `${a}:80` },
          { label: "web-2", address: `${b}:80`, weight: 100, mode: "backup" },
        ],
      },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      id: created.body.id,
      check_interval: 40,
      nodes_status: { up: 0, down: 2 },
    });
    const nodes = (await call("GET", `${path}/nodes`)).body.data as { id: number; label: string }[];
    expect(nodes.map((node) => node.label)).toEqual(["web-1", "web-2"]);
    const web1 = nodes[0]!;

    const second = await call("POST", `${path}/rebuild`, {
      json: {
        nodes: [
          { id: web1.id, label: "web-1-renamed", address: `${a}:8080` },
          { label: "web-3", address: `${c}:80` },
        ],
      },
    });
    expect(second.status, second.text).toBe(200);
    const after = (await call("GET", `${path}/nodes`)).body.data as Record<string, unknown>[];
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ id: web1.id, label: "web-1-renamed", address: `${a}:8080` });
    expect(after[1]).toMatchObject({
      label: "web-3",
      weight: 50,
      mode: "accept",
      config_id: created.body.id,
    });
    expect(after.map((node) => node.label)).not.toContain("web-2");

    const emptied = await call("POST", `${path}/rebuild`, { json: { nodes: [] } });
    expect(emptied.status).toBe(200);
    expect(emptied.body.nodes_status).toEqual({ up: 0, down: 0 });
    const events = await call("GET", "/account/events", {
      headers: { "X-Filter": JSON.stringify({ action: "nodebalancer_config_rebuild" }) },
    });
    expect(
      (events.body.data as { entity: { id: number } }[]).filter((e) => e.entity.id === created.body.id),
    ).toHaveLength(3);
  });

  /** [name, nodes or body, fields]; the profile is http on 80 with one node web-1, a sibling serves 8080. */
  const refusals: [string, (address: string, keptId: number) => Body, string[]][] = [
    [
      "a node address that is not private",
      (address) => ({
        nodes: [
          { label: "web-1", address: `${address}:80` },
          { label: "web-2", address: "10.0.0.1:80" },
        ],
      }),
      ["nodes[1].address"],
    ],
    [
      "a node address of no instance",
      () => ({ nodes: [{ label: "web-1", address: "192.168.1.250:80" }] }),
      ["nodes[0].address"],
    ],
    [
      "a label twice in the new set",
      (address) => ({
        nodes: [
          { label: "twin", address: `${address}:80` },
          { label: "twin", address: `${address}:81` },
        ],
      }),
      ["nodes[1].label"],
    ],
    [
      "a kept node's label taken by a new node",
      (address, keptId) => ({
        nodes: [
          { label: "web-1", address: `${address}:81` },
          { id: keptId, label: "web-1", address: `${address}:80` },
        ],
      }),
      ["nodes[1].label"],
    ],
    [
      "an id that is not a node of this profile",
      (address) => ({ nodes: [{ id: 999999, label: "web-1", address: `${address}:80` }] }),
      ["nodes[0].id"],
    ],
    [
      "an id given twice",
      (address, keptId) => ({
        nodes: [
          { id: keptId, label: "web-1", address: `${address}:80` },
          { id: keptId, label: "web-2", address: `${address}:81` },
        ],
      }),
      ["nodes[1].id"],
    ],
    [
      "a profile rule and a node rule broken together",
      () => ({ port: 8080, check: "http", nodes: [{ label: "web-1", address: "10.1.2.3:80" }] }),
      ["check_path", "nodes[0].address", "port"],
    ],
    [
      "a node with a weight out of bounds",
      (address) => ({ nodes: [{ label: "web-1", address: `${address}:80`, weight: 0 }] }),
      ["nodes[0].weight"],
    ],
    ["no nodes array", () => ({ port: 80 }), ["nodes"]],
  ];
  it.each(refusals)("refuses %s, changing nothing", async (_name, body, fields) => {
    const nodeBalancerId = await createNodeBalancer();
    const created = await createConfig(nodeBalancerId, { port: 80 });
    await createConfig(nodeBalancerId, { port: 8080 });
    const path = `/nodebalancers/${nodeBalancerId}/configs/${created.body.id}`;
    const address = await instanceWithPrivateIp();
    const kept = await call("POST", `${path}/nodes`, { json: { label: "web-1", address: `${address}:80` } });
    expect(kept.status, kept.text).toBe(200);
    const before = await call("GET", `${path}/nodes`);

    const response = await call("POST", `${path}/rebuild`, { json: body(address, kept.body.id) });
    expect(response.status, response.text).toBe(400);
    expect(fieldsOf(response)).toEqual(fields);
    expect((await call("GET", path)).body).toMatchObject({ port: 80, check: "none" });
    const after = await call("GET", `${path}/nodes`);
    expect(after.body.data.map((node: { id: number }) => node.id)).toEqual(
      before.body.data.map((node: { id: number }) => node.id),
    );
  });

  it("answers 404 for a profile of another load balancer", async () => {
    const owner = await createNodeBalancer();
    const other = await createNodeBalancer();
    const created = await createConfig(owner, {});
    const response = await call("POST", `/nodebalancers/${other}/configs/${created.body.id}/rebuild`, {
      json: { nodes: [] },
    });
    expect(response.status).toBe(404);
  });
});

describe("profile events", () => {
  it("records create, update and delete", async () => {
    const nodeBalancerId = await createNodeBalancer();
    const created = await createConfig(nodeBalancerId, { label: "evented" });
    const path = `/nodebalancers/${nodeBalancerId}/configs/${created.body.id}`;
    expect((await call("PUT", path, { json: { port: 81 } })).status).toBe(200);
    expect((await call("DELETE", path)).status).toBe(200);
    for (const action of [
      "nodebalancer_config_create",
      "nodebalancer_config_update",
      "nodebalancer_config_delete",
    ]) {
      const events = await call("GET", "/account/events", {
        headers: { "X-Filter": JSON.stringify({ action }) },
      });
      const mine = (events.body.data as { entity: { id: number } }[]).filter(
        (e) => e.entity.id === created.body.id,
      );
      expect(mine, action).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        entity: { label: "evented", type: "nodebalancer_config", url: `/v4${path}` },
      });
    }
  });
});
