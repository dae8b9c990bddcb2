/**
 * Compute instances on the reference server: create rules (tables of passing and failing bodies), password
 * strength, update, delete, the lifecycle on shrunk timers, and the description's workflow 3 end to end. Every
 * response is validated against the spec by the harness.
 */
import { describe, expect, it } from "vitest";
import { instanceReasons } from "../../src/reference/handlers/instances.ts";
import { passwordScore } from "../../src/reference/password-strength.ts";
import type { ConfigRecord } from "../../src/reference/state.ts";
import { type ApiResponse, startReference } from "../helpers/reference.ts";

// Delays shrink 100-fold (provisioning 20 ms, boot 30 ms); instance creation is not the subject of rate limits here.
const harness = await startReference({
  timeScale: 0.01,
  rateLimits: { createInstance: { limit: 10_000, windowMs: 30_000 } },
});
const { state } = harness.server;

const strongPass = "c0rrect-Horse-battery-staple";
let labelCount = 0;
const freshLabel = (stem = "inst") => `${stem}-${++labelCount}`;

async function create(body: Record<string, unknown> = {}): Promise<ApiResponse> {
  return harness.call("POST", "/compute/instances", {
    json: { region: "us-east", type: "g6-standard-2", label: freshLabel(), ...body },
  });
}

async function created(body: Record<string, unknown> = {}) {
  const response = await create(body);
  expect(response.status, response.text).toBe(200);
  return response.body as { id: number; label: string; ipv4: string[]; status: string; region: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the instance shows `status` (bounded: 200 polls, 10 ms apart). */
async function waitForStatus(id: number, status: string): Promise<void> {
  const seen: string[] = [];
  for (let poll = 0; poll < 200; poll += 1) {
    const response = await harness.call("GET", `/compute/instances/${id}`);
    if (seen.at(-1) !== response.body.status) seen.push(response.body.status);
    if (response.body.status === status) return;
    await sleep(10);
  }
  throw new Error(`instance ${id} never reached ${status}; saw ${seen.join(" → ")}`);
}

async function statusOf(id: number): Promise<string> {
  return (await harness.call("GET", `/compute/instances/${id}`)).body.status;
}

async function eventsFor(id: number): Promise<string[]> {
  const response = await harness.call("GET", "/account/events?page_size=500");
  return response.body.data
    .filter(
      (event: { entity: { id: unknown; type: string } | null }) =>
        event.entity?.id === id && event.entity.type === "compute",
    )
    .map((event: { action: string }) => event.action);
}

describe("create: defaults and the created record", () => {
  it("fills defaults, shows specs from its type and keeps no root_pass", async () => {
    const response = await harness.call("POST", "/compute/instances", {
      json: { region: "us-east", type: "g6-standard-2", image: "compute/debian12", root_pass: strongPass },
    });
    expect(response.status).toBe(200);
    const instance = response.body;
    expect(instance).toMatchObject({
      label: `compute${instance.id}`,
      region: "us-east",
      type: "g6-standard-2",
      image: "compute/debian12",
      group: "",
      tags: [],
      status: "provisioning",
      hypervisor: "kvm",
    });
    expect(instance).not.toHaveProperty("root_pass");
    expect(instance.ipv4).toHaveLength(1);
    expect(instance.ipv4[0]).toMatch(/^198\.19\.\d{1,3}\.\d{1,3}$/);
    expect(instance.ipv6).toMatch(/^2001:db8:[0-9a-f:]+\/128$/);
    const type = (await harness.call("GET", "/compute/types/g6-standard-2", { token: null })).body;
    expect(instance.specs).toEqual({
      disk: type.disk,
      memory: type.memory,
      vcpus: type.vcpus,
      gpus: type.gpus,
      transfer: type.transfer,
    });
    // Nothing the server keeps holds the password.
    expect(
      JSON.stringify(state.instances.get(instance.id), (key, value) => (key === "timer" ? undefined : value)),
    ).not.toContain(strongPass);
    expect((await harness.call("GET", `/compute/instances/${instance.id}`)).text).not.toContain(strongPass);
    expect(await eventsFor(instance.id)).toContain("compute_create");
  });

  it("takes image as optional: without one it is null and no credential is needed", async () => {
    const instance = await created();
    expect(instance).toMatchObject({ image: null });
  });

  it("gives each instance its own public IPv4, recorded as an address", async () => {
    const first = await created();
    const second = await created();
    expect(first.ipv4[0]).not.toBe(second.ipv4[0]);
    const address = await harness.call("GET", `/networking/ips/${first.ipv4[0]}`);
    expect(address.body).toMatchObject({ public: true, compute_id: first.id, region: "us-east", prefix: 24 });
  });
});

describe("create: rules", () => {
  const passing: [string, Record<string, unknown>][] = [
    ["a known region and type", { region: "eu-west", type: "g6-nanode-1" }],
    ["image with a strong root_pass", { image: "compute/debian12", root_pass: strongPass }],
    [
      "image with authorized_keys only",
      { image: "compute/debian12", authorized_keys: ["ssh-ed25519 AAAAC3Nza conform"] },
    ],
    ["image with authorized_users only", { image: "compute/debian12", authorized_users: ["conform-demo"] }],
    ["booted false, group and tags", { booted: false, group: "web", tags: ["conform", "web"] }],
  ];
  it.each(passing)("accepts %s", async (_name, body) => {
    const response = await create(body);
    expect(response.status, response.text).toBe(200);
    for (const [field, value] of Object.entries(body)) {
      if (field in response.body && field !== "root_pass") expect(response.body[field]).toEqual(value);
    }
  });

  const failing: [string, Record<string, unknown>, { field?: string; reason: string }[]][] = [
    [
      "an unknown region",
      { region: "mars-1" },
      [{ field: "region", reason: instanceReasons.unknownRegion("mars-1") }],
    ],
    [
      "an unknown type",
      { type: "g9-huge" },
      [{ field: "type", reason: instanceReasons.unknownType("g9-huge") }],
    ],
    [
      "an unknown region and type, both reported",
      { region: "mars-1", type: "g9-huge" },
      [
        { field: "region", reason: instanceReasons.unknownRegion("mars-1") },
        { field: "type", reason: instanceReasons.unknownType("g9-huge") },
      ],
    ],
    [
      "every problem at once",
      { region: "mars-1", type: "g9-huge", image: "compute/debian12", root_pass: "password" },
      [
        { field: "region", reason: instanceReasons.unknownRegion("mars-1") },
        { field: "type", reason: instanceReasons.unknownType("g9-huge") },
        { field: "root_pass", reason: instanceReasons.weakPassword },
      ],
    ],
  ];
  it.each(failing)("refuses %s with every error naming its field", async (_name, body, errors) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(errors);
  });

  it("keeps labels unique per account", async () => {
    const label = freshLabel("taken");
    await created({ label });
    const again = await create({ label });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([{ field: "label", reason: instanceReasons.labelTaken(label) }]);
  });

  it("does not hand out a generated label someone already took", async () => {
    const next = Math.max(...state.instances.keys()) + 1;
    await created({ label: `compute${next}` });
    const generated = await harness.call("POST", "/compute/instances", {
      json: { region: "us-east", type: "g6-standard-2" },
    });
    expect(generated.body.label).toBe(`compute${generated.body.id}`);
    expect(generated.body.label).not.toBe(`compute${next}`);
  });

  it("refuses an image with no credential with the service's reason and no field", async () => {
    const response = await create({ image: "compute/debian12" });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ reason: instanceReasons.noCredential }]);
  });
});

describe("create: root_pass strength (zxcvbn score of at least 3)", () => {
  const weak: [string, string, Record<string, unknown>][] = [
    ["a common password", "password", {}],
    ["a common password with a digit", "password1", {}],
    ["a keyboard walk", "qwertyuiop", {}],
    ["a repeated character", "aaaaaaaaaaaa", {}],
    ["a digit sequence", "1234567890", {}],
    ["a dictionary word with a year", "letmein2024", {}],
    ["capitalised and suffixed", "Password123!", {}],
    ["the label plus a character", "orchard-gate-77!", { label: "orchard-gate-77" }],
    ["the username plus a digit", "conform-demo1", {}],
    ["a tag plus a year", "blue-team-2024", { tags: ["blue-team"] }],
  ];
  it.each(weak)("refuses %s (%s)", async (_name, password, extra) => {
    const response = await create({ image: "compute/debian12", root_pass: password, ...extra });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: "root_pass", reason: instanceReasons.weakPassword }]);
  });

  const strong = ["c0rrect-Horse-battery-staple", "Tr0ub4dor&3", "x7#Kp9!vQ2mZ", "tangerine-Vortex-42-quilt"];
  it.each(strong)("accepts %s", async (password) => {
    const response = await create({ image: "compute/debian12", root_pass: password });
    expect(response.status, response.text).toBe(200);
    expect(response.text).not.toContain(password);
  });

  it("counts the account's own words: strong alone, weak as the label's password", () => {
    expect(passwordScore("orchard-gate-77!")).toBeGreaterThanOrEqual(3);
    expect(passwordScore("orchard-gate-77!", ["orchard-gate-77"])).toBeLessThan(3);
  });
});

describe("read, list, update", () => {
  it("answers 404 for an unknown instance on every operation", async () => {
    const unknown = 999_999;
    for (const [method, path, json] of [
      ["GET", `/compute/instances/${unknown}`, undefined],
      ["PUT", `/compute/instances/${unknown}`, { group: "x" }],
      ["DELETE", `/compute/instances/${unknown}`, undefined],
      ["POST", `/compute/instances/${unknown}/boot`, undefined],
      ["POST", `/compute/instances/${unknown}/reboot`, undefined],
      ["POST", `/compute/instances/${unknown}/shutdown`, undefined],
      ["GET", `/compute/instances/${unknown}/ips`, undefined],
    ] as const) {
      const response = await harness.call(method, path, { json });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toEqual({ errors: [{ reason: "Not found" }] });
    }
  });

  it("lists instances through X-Filter (a list field matches on an item)", async () => {
    const tag = freshLabel("tag");
    const tagged = await created({ tags: [tag, "conform"] });
    const byTag = await harness.call("GET", "/compute/instances", {
      headers: { "X-Filter": JSON.stringify({ tags: tag }) },
    });
    expect(byTag.body.data.map((item: { id: number }) => item.id)).toEqual([tagged.id]);
    const byIp = await harness.call("GET", "/compute/instances", {
      headers: { "X-Filter": JSON.stringify({ ipv4: tagged.ipv4[0] }) },
    });
    expect(byIp.body.results).toBe(1);
  });

  it("updates label, group and tags, keeping the rest", async () => {
    const instance = await created({ group: "old", tags: ["a"] });
    const label = freshLabel("renamed");
    const response = await harness.call("PUT", `/compute/instances/${instance.id}`, {
      json: { label, group: "new", tags: ["b", "c"] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: instance.id,
      label,
      group: "new",
      tags: ["b", "c"],
      region: "us-east",
    });
    expect(await eventsFor(instance.id)).toContain("compute_update");
  });

  it("keeps its own label on update but refuses another instance's", async () => {
    const first = await created();
    const second = await created();
    const same = await harness.call("PUT", `/compute/instances/${first.id}`, {
      json: { label: first.label },
    });
    expect(same.status).toBe(200);
    const clash = await harness.call("PUT", `/compute/instances/${first.id}`, {
      json: { label: second.label },
    });
    expect(clash.status).toBe(400);
    expect(clash.body.errors).toEqual([{ field: "label", reason: instanceReasons.labelTaken(second.label) }]);
  });
});

describe("lifecycle (time scale 0.01)", () => {
  it("boots an instance created with booted true: provisioning → booting → running", async () => {
    const instance = await created();
    expect(instance.status).toBe("provisioning");
    await waitForStatus(instance.id, "running");
    expect(state.instances.get(instance.id)?.timer).toBeUndefined();
  });

  it("keeps booted false offline until booted, then shuts down and reboots", async () => {
    const instance = await created({ booted: false });
    await waitForStatus(instance.id, "offline");
    await sleep(80); // longer than provisioning + boot: nothing starts it
    expect(await statusOf(instance.id)).toBe("offline");

    const boot = await harness.call("POST", `/compute/instances/${instance.id}/boot`);
    expect(boot.status).toBe(200);
    expect(boot.body).toEqual({});
    expect(await statusOf(instance.id)).toBe("booting");
    await waitForStatus(instance.id, "running");

    const reboot = await harness.call("POST", `/compute/instances/${instance.id}/reboot`);
    expect(reboot.body).toEqual({});
    expect(await statusOf(instance.id)).toBe("rebooting");
    await waitForStatus(instance.id, "running");

    const shutdown = await harness.call("POST", `/compute/instances/${instance.id}/shutdown`);
    expect(shutdown.body).toEqual({});
    expect(await statusOf(instance.id)).toBe("shutting_down");
    await waitForStatus(instance.id, "offline");

    const rebootOffline = await harness.call("POST", `/compute/instances/${instance.id}/reboot`);
    expect(rebootOffline.status).toBe(200);
    await waitForStatus(instance.id, "running");

    expect(await eventsFor(instance.id)).toEqual(
      expect.arrayContaining(["compute_create", "compute_boot", "compute_reboot", "compute_shutdown"]),
    );
  });

  const refused: [string, "boot" | "shutdown", string][] = [
    ["boot while running", "boot", "running"],
    ["shutdown while offline", "shutdown", "offline"],
  ];
  it.each(refused)("refuses %s with a reason and no field", async (_name, action, status) => {
    const instance = await created({ booted: status === "running" });
    await waitForStatus(instance.id, status);
    const response = await harness.call("POST", `/compute/instances/${instance.id}/${action}`);
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).not.toHaveProperty("field");
    expect(response.body.errors[0].reason).toMatch(new RegExp(`already ${status}`));
  });

  it("lets a boot take over provisioning (create booted false, boot at once)", async () => {
    const instance = await created({ booted: false });
    const boot = await harness.call("POST", `/compute/instances/${instance.id}/boot`);
    expect(boot.status).toBe(200);
    await waitForStatus(instance.id, "running");
  });
});

describe("delete", () => {
  it("removes the instance and its addresses, and cancels its timer", async () => {
    const instance = await created();
    const record = state.instances.get(instance.id)!;
    expect(record.timer).toBeDefined();
    const priv = await harness.call("POST", "/networking/ips", {
      json: { type: "ipv4", public: false, compute_id: instance.id },
    });
    const response = await harness.call("DELETE", `/compute/instances/${instance.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});
    expect(record.timer).toBeUndefined();
    expect((await harness.call("GET", `/compute/instances/${instance.id}`)).status).toBe(404);
    for (const address of [instance.ipv4[0], priv.body.address]) {
      expect((await harness.call("GET", `/networking/ips/${address}`)).status).toBe(404);
    }
    const compute = await harness.call("GET", "/account/events?page_size=500");
    expect(
      compute.body.data.some(
        (e: { action: string; entity: { id: number } }) =>
          e.action === "compute_delete" && e.entity.id === instance.id,
      ),
    ).toBe(true);
  });

  it("takes back-end nodes on the deleted instance down", async () => {
    const instance = await created();
    await waitForStatus(instance.id, "running");
    const priv = await harness.call("POST", "/networking/ips", {
      json: { type: "ipv4", public: false, compute_id: instance.id },
    });
    // A profile with passive checking: a node's status follows its instance (health.ts).
    const config = { id: 99_001, nodebalancer_id: 99_000, check: "none", check_attempts: 3 } as ConfigRecord;
    state.configs.set(config.id, config);
    state.nodes.set(99_002, {
      id: 99_002,
      config_id: config.id,
      nodebalancer_id: config.nodebalancer_id,
      label: "web-1",
      address: `${priv.body.address}:80`,
      weight: 50,
      mode: "accept",
      status: "Unknown",
      failures: 0,
    });
    try {
      // Each status change makes health re-probe the instance's nodes: after a reboot the node is UP.
      const node = state.nodes.get(99_002)!;
      await harness.call("POST", `/compute/instances/${instance.id}/reboot`);
      await waitForStatus(instance.id, "running");
      expect(node.status).toBe("UP");
      await harness.call("DELETE", `/compute/instances/${instance.id}`);
      expect(node.status).toBe("DOWN");
    } finally {
      state.nodes.delete(99_002);
      state.configs.delete(config.id);
    }
  });
});

describe("the description's workflow 3", () => {
  it("creates two instances in one region with booted false, gives each a private IPv4, boots each, waits until running", async () => {
    const region = "us-southeast";
    const instances = [];
    for (const label of [freshLabel("web"), freshLabel("web")]) {
      const response = await harness.call("POST", "/compute/instances", {
        json: {
          region,
          type: "g6-standard-2",
          image: "compute/debian12",
          root_pass: strongPass,
          booted: false,
          label,
        },
      });
      expect(response.status).toBe(200);
      instances.push(response.body);
    }
    const privates: string[] = [];
    for (const instance of instances) {
      const ip = await harness.call("POST", "/networking/ips", {
        json: { type: "ipv4", public: false, compute_id: instance.id },
      });
      expect(ip.status).toBe(200);
      expect(ip.body).toMatchObject({ public: false, region, compute_id: instance.id, prefix: 17 });
      privates.push(ip.body.address);
    }
    expect(new Set(privates).size).toBe(2);
    for (const instance of instances) {
      const boot = await harness.call("POST", `/compute/instances/${instance.id}/boot`);
      expect(boot.status).toBe(200);
    }
    for (const [index, instance] of instances.entries()) {
      await waitForStatus(instance.id, "running");
      const view = await harness.call("GET", `/compute/instances/${instance.id}/ips`);
      expect(view.body.ipv4.private.map((ip: { address: string }) => ip.address)).toEqual([privates[index]]);
      expect((await harness.call("GET", `/compute/instances/${instance.id}`)).body.ipv4).toContain(
        privates[index],
      );
    }
  });
});
