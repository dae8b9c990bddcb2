/**
 * Workflows 3, 4 and 5 of the description: two instances in the load balancer's region, created with
 * `booted: false`, each given a private IPv4 and booted; registered as back-end nodes `<private_ipv4>:<port>`
 * of a profile on port 80 (a duplicate label, an address in another region and a public address are refused,
 * naming the field; the deprecated alias path answers 299 with warnings); then `nodes_status`: down 2 with
 * nothing listening, up 1 and up 2 as the nodes start listening (through the run's listen driver), and down 1
 * again when one stops (beyond what the description shows: tagged `beyond-description`).
 *
 * Creates one load balancer with one profile, and three instances (the third, in another region, is never
 * booted): tagged `costly`. Everything is deleted at the end of the run, nodes first.
 */
import { type CaseContext, defineSuite, type LiveResponse } from "../../src/index.ts";
import type { Listener } from "../../src/runner/listen-drivers/index.ts";
import {
  chooseRegion,
  chooseType,
  expectRefusal,
  findRegion,
  listenDriver,
  logDriverOutput,
  quickChecks,
  registerCreated,
  settings,
  strongPassword,
  success,
  waitFor,
} from "./workflow-kit.ts";

interface Setup {
  readonly balancerId: number;
  readonly profileId: number;
  readonly region: string;
}

interface Instance {
  readonly id: number;
  readonly privateIp: string;
  readonly publicIp: string | undefined;
}

interface Node {
  readonly id: number;
  readonly label: string;
  readonly address: string;
  readonly port: number;
}

function setupOf(t: CaseContext): Setup {
  const setup = t.shared.get("setup") as Setup | undefined;
  if (!setup) return t.skip("no load balancer and profile: the first case did not create them");
  return setup;
}

function profilePath(setup: Setup): string {
  return `/nodebalancers/${setup.balancerId}/configs/${setup.profileId}`;
}

interface NodesStatus {
  up?: unknown;
  down?: unknown;
}

function nodesStatus(response: LiveResponse | undefined): NodesStatus | undefined {
  return (response?.json as { nodes_status?: NodesStatus } | undefined)?.nodes_status;
}

function showStatus(response: LiveResponse | undefined): string {
  if (!response) return "no answer";
  const status = nodesStatus(response);
  return status ? `up ${String(status.up)}, down ${String(status.down)}` : `HTTP ${response.status}`;
}

/** Waits until the profile reads up/down as given. */
function waitForCounts(t: CaseContext, setup: Setup, up: number, down: number) {
  return waitFor(
    t,
    `nodes_status eventually reads up ${up}, down ${down}`,
    () => t.api.get(profilePath(setup)),
    (response) => {
      const status = nodesStatus(response);
      return response.status === 200 && status?.up === up && status?.down === down;
    },
    showStatus,
  );
}

/** Creates an instance with booted false and gives it a private IPv4; undefined (with failed assertions) otherwise. */
async function createInstance(
  t: CaseContext,
  name: string,
  region: string,
  type: string,
): Promise<Instance | undefined> {
  const created = await t.api.post("/compute/instances", {
    region,
    type,
    image: settings(t).image,
    root_pass: strongPassword(t),
    booted: false,
    label: t.label(name),
  });
  const id = registerCreated(t, created, "instance", (id) => `/compute/instances/${id}`);
  t.expect("an instance is created with booted false", success(created) && id !== undefined, {
    expected: 200,
    actual: created.status,
  });
  if (id === undefined) return undefined;
  const publicIp = ((created.json as { ipv4?: unknown }).ipv4 as unknown[] | undefined)?.find(
    (ip): ip is string => typeof ip === "string",
  );
  const allocated = await t.api.post("/networking/ips", { type: "ipv4", public: false, compute_id: id });
  const address = (allocated.json as { address?: unknown; public?: unknown } | undefined) ?? {};
  t.expect(
    "a private IPv4 is given to the instance",
    success(allocated) && typeof address.address === "string",
    {
      expected: 200,
      actual: allocated.status,
    },
  );
  t.expect("the address given is private", address.public === false, {
    expected: false,
    actual: address.public,
  });
  if (typeof address.address !== "string") return undefined;
  return { id, privateIp: address.address, publicIp };
}

function instanceStatus(response: LiveResponse | undefined): string {
  const status = (response?.json as { status?: unknown } | undefined)?.status;
  return typeof status === "string" ? status : `HTTP ${response?.status ?? "none"}`;
}

export default defineSuite({
  id: "workflow-back-ends",
  title: "Workflows 3, 4 and 5: instances as back-end nodes, and their health",
  description:
    "Two instances become nodes of a port-80 profile; nodes_status follows what listens on them (listen driver).",
  tags: ["writes", "costly"],
  cases: [
    {
      id: "balancer",
      title:
        "A load balancer in a region that offers instances too, with a profile on port 80 checking connection",
      run: async (t) => {
        const region = await chooseRegion(t, ["NodeBalancers", "Linodes"]);
        const created = await t.api.post("/nodebalancers", {
          region,
          label: t.label("backends"),
          client_conn_throttle: 0,
        });
        const balancerId = registerCreated(t, created, "load balancer", (id) => `/nodebalancers/${id}`);
        t.expect("the load balancer is created", balancerId !== undefined, {
          expected: 200,
          actual: created.status,
        });
        if (balancerId === undefined) return;
        const configs = `/nodebalancers/${balancerId}/configs`;
        const profile = await t.api.post(configs, {
          label: t.label("web"),
          port: 80,
          protocol: "http",
          ...quickChecks,
        });
        const profileId = registerCreated(t, profile, "profile", (id) => `${configs}/${id}`);
        t.expect("the profile is created", profileId !== undefined, {
          expected: 200,
          actual: profile.status,
        });
        if (profileId === undefined) return;
        t.shared.set("setup", { balancerId, profileId, region } satisfies Setup);
      },
    },
    {
      id: "instances",
      title:
        "Workflow 3: two instances created with booted false, each given a private IPv4, booted, and running",
      tags: ["costly"],
      run: async (t) => {
        const setup = setupOf(t);
        const type = await chooseType(t);
        t.shared.set("type", type);
        const instances: Instance[] = [];
        for (const name of ["node-a", "node-b"]) {
          const instance = await createInstance(t, name, setup.region, type);
          if (instance) instances.push(instance);
        }
        if (instances.length < 2) return;
        for (const instance of instances) {
          const path = `/compute/instances/${instance.id}`;
          const seen = new Set<string>();
          // booted false: once provisioned, the instance must stay off until it is booted.
          const settled = await waitFor(
            t,
            `instance created with booted false eventually settles`,
            () => t.api.get(path),
            (response) => response.status === 200 && instanceStatus(response) !== "provisioning",
            instanceStatus,
            (response) => seen.add(instanceStatus(response)),
          );
          if (!settled) return;
          t.expect(
            "an instance created with booted false is not started",
            !seen.has("booting") && !seen.has("running"),
            { expected: "provisioning, then offline", actual: [...seen] },
          );
          const booted = await t.api.post(`${path}/boot`, {});
          t.expect("the boot action is accepted", success(booted), { expected: 200, actual: booted.status });
          const running = await waitFor(
            t,
            "a booted instance eventually runs",
            () => t.api.get(path),
            (response) => instanceStatus(response) === "running",
            instanceStatus,
          );
          if (!running) return;
        }
        t.shared.set("instances", instances);
      },
    },
    {
      id: "nodes",
      title:
        "Workflow 4: each instance registered as a node; duplicate label, other-region and public addresses refused; the deprecated path answers 299",
      tags: ["costly"],
      run: async (t) => {
        const setup = setupOf(t);
        const instances = t.shared.get("instances") as Instance[] | undefined;
        if (!instances) return t.skip("no running instances: workflow 3 did not get there");
        const driver = listenDriver(t);
        const nodesPath = `${profilePath(setup)}/nodes`;
        const nodes: Node[] = [];
        for (const [index, instance] of instances.entries()) {
          const port = await driver.portFor(instance.privateIp);
          const label = t.label(`node-${index + 1}`);
          const address = `${instance.privateIp}:${port}`;
          const created = await t.api.post(nodesPath, { label, address });
          const id = registerCreated(t, created, "node", (id) => `${nodesPath}/${id}`);
          t.expect("an instance's private address is registered as a node", id !== undefined, {
            expected: 200,
            actual: created.status,
          });
          if (id === undefined) continue;
          const body = created.json as { address?: unknown; label?: unknown };
          t.expect("the node has the address given", body.address === address, {
            expected: address,
            actual: body.address,
          });
          nodes.push({ id, label, address: instance.privateIp, port });
        }
        if (nodes.length === 2) t.shared.set("nodes", nodes);
        logDriverOutput(t, driver);
        const first = nodes[0];
        if (!first) return;

        const duplicate = await t.api.post(nodesPath, {
          label: first.label,
          address: `${first.address}:${first.port}`,
        });
        registerCreated(t, duplicate, "node (duplicate label)", (id) => `${nodesPath}/${id}`);
        expectRefusal(t, "a node with a label already used in the profile", duplicate, "label");

        const publicIp = instances[0]?.publicIp;
        if (publicIp) {
          const notPrivate = await t.api.post(nodesPath, {
            label: t.label("public"),
            address: `${publicIp}:${first.port}`,
          });
          registerCreated(t, notPrivate, "node (public address)", (id) => `${nodesPath}/${id}`);
          expectRefusal(t, "a node on a public address", notPrivate, "address");
        } else t.log("the instance shows no public IPv4: the public-address refusal is not tried");

        const otherRegion = await findRegion(t, ["Linodes"], setup.region);
        const type = t.shared.get("type") as string | undefined;
        const stranger =
          otherRegion && type ? await createInstance(t, "elsewhere", otherRegion, type) : undefined;
        if (stranger) {
          const elsewhere = await t.api.post(nodesPath, {
            label: t.label("elsewhere"),
            address: `${stranger.privateIp}:${first.port}`,
          });
          registerCreated(t, elsewhere, "node (other region)", (id) => `${nodesPath}/${id}`);
          expectRefusal(t, "a node on an instance in another region", elsewhere, "address");
        } else if (!otherRegion) {
          t.log("no other region offers instances: the other-region refusal is not tried");
        }

        // The path the description shows for endpoint 5 (ending at the profile id) is a deprecated alias.
        const alias = await t.api.post(profilePath(setup), {
          label: t.label("alias"),
          address: `${first.address}:${first.port}`,
        });
        const aliasId = registerCreated(t, alias, "node (deprecated path)", (id) => `${nodesPath}/${id}`);
        t.expect("the deprecated node path answers 299", alias.status === 299, {
          expected: 299,
          actual: alias.status,
        });
        const warnings = (alias.json as { warnings?: unknown } | undefined)?.warnings;
        t.expect(
          "the deprecated node path answers with warnings",
          Array.isArray(warnings) &&
            warnings.length > 0 &&
            warnings.every((warning) => typeof warning === "string"),
          { expected: "a non-empty warnings array", actual: warnings },
        );
        // Two nodes are what workflow 5 counts: the alias's node goes at once.
        if (aliasId !== undefined) {
          const removed = await t.api.delete(`${nodesPath}/${aliasId}`);
          t.expect("the node made through the deprecated path is deleted", success(removed), {
            expected: 200,
            actual: removed.status,
          });
        }
      },
    },
    {
      id: "nodes-down",
      title: "Workflow 5: with two nodes and nothing listening, nodes_status reads up 0, down 2",
      run: async (t) => {
        const setup = setupOf(t);
        const nodes = t.shared.get("nodes") as Node[] | undefined;
        if (!nodes) return t.skip("no two nodes: workflow 4 did not register them");
        // Give the balancer time to check every node (none `Unknown` any more), so the count is not read before
        // a check could have counted them wrong. The description promises only the counts: nodes that stay
        // `Unknown` are logged, not failed.
        await waitFor(
          t,
          "every node is eventually checked",
          () => t.api.get(`${profilePath(setup)}/nodes`, { query: { page_size: 25 } }),
          (response) => {
            const data = (response.json as { data?: { status?: unknown }[] } | undefined)?.data ?? [];
            return data.length >= 2 && data.every((node) => node.status !== "Unknown");
          },
          (response) =>
            JSON.stringify(
              (
                (response?.json as { data?: { label?: unknown; status?: unknown }[] } | undefined)?.data ?? []
              ).map((node) => `${String(node.label)}: ${String(node.status)}`),
            ),
          undefined,
          false,
        );
        const read = await t.api.get(profilePath(setup));
        const status = nodesStatus(read);
        t.expect(
          "with nothing listening nodes_status reads up 0, down 2",
          status?.up === 0 && status?.down === 2,
          {
            expected: { up: 0, down: 2 },
            actual: status ?? read.status,
          },
        );
      },
    },
    {
      id: "nodes-up",
      title:
        "Workflow 5: as one node and then both start listening, nodes_status reads up 1, then up 2, down 0",
      run: async (t) => {
        const setup = setupOf(t);
        const nodes = t.shared.get("nodes") as Node[] | undefined;
        if (!nodes) return t.skip("no two nodes: workflow 4 did not register them");
        const driver = listenDriver(t);
        if (driver.unavailable) return t.skip(driver.unavailable);
        const listeners: Listener[] = [];
        t.shared.set("listeners", listeners);
        try {
          for (const [index, node] of nodes.entries()) {
            listeners.push(
              await driver.listen({ address: node.address, port: node.port, label: node.label }),
            );
            logDriverOutput(t, driver);
            const reached = await waitForCounts(t, setup, index + 1, nodes.length - index - 1);
            if (!reached) return;
          }
        } finally {
          logDriverOutput(t, driver);
        }
      },
    },
    {
      id: "node-goes-down",
      title:
        "Workflow 5, beyond the description: when one node stops listening, nodes_status reads down 1 again",
      tags: ["beyond-description"],
      run: async (t) => {
        // The last case: whatever happens, no listener outlives it.
        const driver = t.shared.get("listen-driver") as ReturnType<typeof listenDriver> | undefined;
        try {
          const setup = setupOf(t);
          const listeners = t.shared.get("listeners") as Listener[] | undefined;
          if (!driver || driver.unavailable || !listeners || listeners.length < 2) {
            return t.skip(
              driver?.unavailable ?? "no two listening nodes: the previous step did not get there",
            );
          }
          await listeners[0]!.stop();
          logDriverOutput(t, driver);
          await waitForCounts(t, setup, 1, 1);
        } finally {
          if (driver) {
            await driver.close();
            logDriverOutput(t, driver);
          }
        }
      },
    },
  ],
});
