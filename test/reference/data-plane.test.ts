import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { makeTlsPair } from "../../src/generators/certificates.ts";
import { defaultBehaviour } from "../../src/reference/behaviour.ts";
import { computeTypes, regions } from "../../src/reference/catalogue.ts";
import { balancerStandIn, DataPlane, standInPort } from "../../src/reference/data-plane.ts";
import { type ConfigRecord, type NodeRecord, ReferenceState } from "../../src/reference/state.ts";
import {
  fingerprintOf,
  portAccepts,
  presentedFingerprint,
  requestThrough,
} from "../../src/toolkit/data-plane.ts";

const user = { username: "u", password: "p", email: "u@example.com", uuid: "x" };
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A back-end on a node's stand-in that answers naming itself, on a port the kernel picks. */
async function backEnd(host: string, name: string): Promise<number> {
  const server: Server = createServer((socket) => {
    socket.on("error", () => socket.destroy());
    socket.once("data", () =>
      socket.end(
        `HTTP/1.1 200 OK\r\nX-Conform-Node: ${name}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}

/** A port nothing listens on at `host`, as the kernel picks it. */
async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, host, resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A state with one load balancer (on the host the server drew) and one profile on a free port. */
async function setup(protocol: "http" | "https" = "http", tls?: { cert: string; key: string }) {
  const state = new ReferenceState({ regions, types: computeTypes }, user);
  const ipv4 = `198.18.${Math.floor(state.balancerOffset / 254)}.${(state.balancerOffset % 254) + 1}`;
  state.nodeBalancers.set(1001, {
    id: 1001,
    label: "b",
    region: "us-east",
    hostname: "h",
    ipv4,
    ipv6: "2001:db8:bb::1",
    client_conn_throttle: 0,
    tags: [],
    created: "",
    updated: "",
  });
  const host = balancerStandIn(ipv4)!;
  const port = await freePort(host);
  const config = {
    id: 2001,
    nodebalancer_id: 1001,
    port,
    protocol,
    ssl_cert: tls?.cert ?? null,
    ssl_key: tls?.key ?? null,
  } as ConfigRecord;
  state.configs.set(config.id, config);
  const behaviour = defaultBehaviour();
  const plane = new DataPlane(state, behaviour);
  closers.push(() => plane.close());
  const addNode = (id: number, address: string, status: NodeRecord["status"]) =>
    state.nodes.set(id, {
      id,
      config_id: 2001,
      nodebalancer_id: 1001,
      label: `n${id}`,
      address,
      weight: 50,
      mode: "accept",
      status,
      failures: 0,
    });
  return { state, config, plane, host, port, behaviour, addNode };
}

describe("balancerStandIn", () => {
  it.each([
    ["198.18.0.1", "127.18.0.1"],
    ["198.18.255.254", "127.18.255.254"],
    ["198.19.0.2", undefined],
    ["192.168.1.1", undefined],
    ["198.18.256.1", undefined],
  ])("%s -> %s", (address, expected) => {
    expect(balancerStandIn(address)).toBe(expected);
  });
});

describe("standInPort", () => {
  it.each([
    [80, 20080],
    [443, 20443],
    [1023, 21023],
    [1024, 1024],
    [8443, 8443],
  ])("a profile on port %i listens on %i", (port, at) => {
    expect(standInPort(port)).toBe(at);
  });
});

describe("DataPlane", () => {
  it("listens on the profile's port once synced, and stops when the profile stops", async () => {
    const { config, plane, host, port } = await setup();
    expect((await portAccepts(host, port, 2_000)).accepted).toBe(false);
    await plane.sync(config);
    expect((await portAccepts(host, port, 2_000)).accepted).toBe(true);
    await plane.stop(config.id);
    expect((await portAccepts(host, port, 2_000)).accepted).toBe(false);
  });

  it("forwards round robin to the nodes that are up, and serves nothing with none up", async () => {
    const { config, plane, host, port, addNode } = await setup();
    const a = await backEnd("127.168.200.1", "a");
    const b = await backEnd("127.168.200.2", "b");
    const c = await backEnd("127.168.200.3", "c");
    addNode(3001, `192.168.200.1:${a}`, "UP");
    addNode(3002, `192.168.200.2:${b}`, "DOWN");
    addNode(3003, `192.168.200.3:${c}`, "UP");
    await plane.sync(config);
    const seen: (string | undefined)[] = [];
    for (let i = 0; i < 4; i += 1)
      seen.push((await requestThrough(host, port, { timeoutMs: 2_000 })).backend);
    expect(seen).toEqual(["a", "c", "a", "c"]);
  });

  it("closes a connection at once when no node is up", async () => {
    const { config, plane, host, port, addNode } = await setup();
    addNode(3001, "192.168.200.9:9", "DOWN");
    await plane.sync(config);
    const answer = await requestThrough(host, port, { timeoutMs: 2_000 });
    expect(answer.status).toBeUndefined();
  });

  it("terminates TLS with the profile's certificate, and with the new one after a change", async () => {
    const [first, second] = await Promise.all([
      makeTlsPair({ subject: "CN=one.example" }),
      makeTlsPair({ subject: "CN=two.example" }),
    ]);
    const { config, plane, host, port } = await setup("https", first);
    await plane.sync(config);
    expect((await presentedFingerprint(host, port, 2_000)).fingerprint).toBe(fingerprintOf(first.cert));
    config.ssl_cert = second.cert;
    config.ssl_key = second.key;
    await plane.sync(config);
    expect((await presentedFingerprint(host, port, 2_000)).fingerprint).toBe(fingerprintOf(second.cert));
  });

  it("does not listen where the behaviour says it never does (the port-never-listens fault's hook)", async () => {
    const { config, plane, host, port, behaviour } = await setup();
    behaviour.balancerListens = () => false;
    await plane.sync(config);
    expect((await portAccepts(host, port, 2_000)).accepted).toBe(false);
  });

  it.each([
    ["follows the profile to its new port", undefined, { moved: true, old: false }],
    [
      "stays on the old port where the behaviour says so (the balancer-wrong-port fault's hook)",
      (previous: number | undefined, configured: number) => previous ?? configured,
      { moved: false, old: true },
    ],
  ])("when a profile's port changes, %s", async (_name, listenedPort, expected) => {
    const { config, plane, host, port, behaviour } = await setup();
    if (listenedPort) behaviour.listenedPort = listenedPort;
    await plane.sync(config);
    config.port = await freePort(host);
    await plane.sync(config);
    const accepts = async (at: number) => (await portAccepts(host, at, 2_000)).accepted;
    expect({ moved: await accepts(config.port), old: await accepts(port) }).toEqual(expected);
  });
});
