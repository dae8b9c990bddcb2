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
import {
  type CaseContext,
  type CreateDelete,
  call,
  chooseImage,
  chooseRegion,
  chooseType,
  conventionsOf,
  createRegistered,
  dataPlane,
  defineSuite,
  expectBody,
  expectCreated,
  expectRefusal,
  expectSame,
  expectSuccess,
  findRegion,
  isSuccess,
  type Listener,
  type LiveResponse,
  listenDriver,
  logDriverOutput,
  madeListenDriver,
  type PlaneAnswer,
  requestThrough,
  requireOperation,
  shape,
  strongPassword,
  waitFor,
} from "../../src/index.ts";
import { quickChecks } from "./support/quick-checks.ts";

const balancerOps: CreateDelete = ["createNodeBalancer", "deleteNodeBalancer"];
const profileOps: CreateDelete = ["createNodeBalancerConfig", "deleteNodeBalancerConfig"];
const instanceOps: CreateDelete = ["createComputeInstance", "deleteComputeInstance"];
const nodeOps: CreateDelete = ["createNodeBalancerConfigNode", "deleteNodeBalancerConfigNode"];
/** The deprecated alias creates a node that is deleted as any other. */
const aliasOps: CreateDelete = ["createNodeBalancerNodeDeprecated", "deleteNodeBalancerConfigNode"];

interface Setup {
  /** The path parameters of the profile: load balancer id, profile id. */
  readonly profile: readonly [number, number];
  readonly region: string;
  /** The load balancer's public IPv4, as the target reports it. */
  readonly ipv4: string | undefined;
}

interface Instance {
  readonly id: number;
  readonly privateIp: string;
  readonly publicIp: string | undefined;
}

interface Node {
  readonly label: string;
  readonly address: string;
  readonly port: number;
}

function setupOf(t: CaseContext): Setup {
  const setup = t.shared.get("setup") as Setup | undefined;
  return setup ?? t.skip("no load balancer and profile: the first case did not create them");
}

function nodesOf(t: CaseContext): Node[] {
  const nodes = t.shared.get("nodes") as Node[] | undefined;
  return nodes ?? t.skip("no two nodes: workflow 4 did not register them");
}

function nodesStatus(response: LiveResponse | undefined): { up?: unknown; down?: unknown } | undefined {
  return (response?.json as { nodes_status?: { up?: unknown; down?: unknown } } | undefined)?.nodes_status;
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
    () => call(t, "getNodeBalancerConfig", { params: setup.profile }),
    (response) => {
      const status = nodesStatus(response);
      return response.status === 200 && status?.up === up && status?.down === down;
    },
    showStatus,
  );
}

/** Creates an instance with booted false and gives it a private IPv4; undefined (with failed assertions) otherwise. */
async function createInstance(t: CaseContext, name: string, region: string, type: string) {
  const image = chooseImage(t);
  const json = { region, type, image, root_pass: strongPassword(t), booted: false, label: t.label(name) };
  const created = await createRegistered(t, instanceOps, "instance", { json });
  if (!expectCreated(t, "an instance is created with booted false", created)) return;
  const { id } = created;
  const described = expectBody(t, "the created instance is described", created.response, shape.record);
  if (!described) return undefined;
  const publicIp = (Array.isArray(described.ipv4) ? described.ipv4 : []).find(
    (ip): ip is string => typeof ip === "string",
  );
  const allocated = await call(t, "allocateIP", { json: { type: "ipv4", public: false, compute_id: id } });
  const address = (allocated.json as { address?: unknown; public?: unknown } | undefined) ?? {};
  const given = isSuccess(allocated) && typeof address.address === "string";
  t.expect("a private IPv4 is given to the instance", given, { expected: 200, actual: allocated.status });
  expectSame(t, "the address given is private", address.public, false);
  if (typeof address.address !== "string") return undefined;
  return { id, privateIp: address.address, publicIp } satisfies Instance;
}

/** How many requests a data-plane case sends through the load balancer (enough for round robin to show). */
const throughCount = 6;

/** Where this run reaches the profile's port on the load balancer (skips when it cannot). */
function balancerHost(t: CaseContext, setup: Setup): string {
  const plane = dataPlane(t);
  if (plane.unavailable) return t.skip(plane.unavailable);
  if (setup.ipv4 === undefined) return t.skip("the load balancer shows no ipv4: nothing to connect to");
  const host = plane.hostFor(setup.ipv4);
  return host ?? t.skip(`the load balancer's ipv4 ${setup.ipv4} is not an address this run can reach`);
}

/** Sends `throughCount` requests, one connection each, through the profile's port 80. */
async function requestsThrough(t: CaseContext, host: string): Promise<PlaneAnswer[]> {
  const answers: PlaneAnswer[] = [];
  for (let i = 0; i < throughCount; i += 1) answers.push(await requestThrough(host, 80));
  t.log(`through ${host}:80: ${answers.map((answer) => answer.summary).join("; ")}`);
  return answers;
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
        const region = await chooseRegion(t, ["balancers", "instances"], balancerOps[0]);
        const json = { region, label: t.label("backends"), client_conn_throttle: 0 };
        const balancer = await createRegistered(t, balancerOps, "load balancer", { json });
        if (!expectCreated(t, "the load balancer is created", balancer)) return;
        const web = { label: t.label("web"), port: 80, protocol: "http", ...quickChecks };
        const profile = await createRegistered(t, profileOps, "profile", {
          params: [balancer.id],
          json: web,
        });
        if (!expectCreated(t, "the profile is created", profile)) return;
        const described = expectBody(
          t,
          "the created load balancer is described",
          balancer.response,
          shape.record,
        );
        if (!described) return;
        const { ipv4 } = described;
        t.shared.set("setup", {
          profile: [balancer.id, profile.id],
          region,
          ipv4: typeof ipv4 === "string" ? ipv4 : undefined,
        } satisfies Setup);
      },
    },
    {
      id: "instances",
      title:
        "Workflow 3: two instances created with booted false, each given a private IPv4, booted, and running",
      tags: ["costly"],
      run: async (t) => {
        const setup = setupOf(t);
        const type = await chooseType(t, undefined, instanceOps[0]);
        t.shared.set("type", type);
        const instances: Instance[] = [];
        for (const name of ["node-a", "node-b"]) {
          const instance = await createInstance(t, name, setup.region, type);
          if (instance) instances.push(instance);
        }
        if (instances.length < 2) return;
        for (const { id } of instances) {
          const read = () => call(t, "getComputeInstance", { params: [id] });
          const seen = new Set<string>();
          // booted false: once provisioned, the instance must stay off until it is booted.
          const settled = await waitFor(
            t,
            "instance created with booted false eventually settles",
            read,
            (response) => response.status === 200 && instanceStatus(response) !== "provisioning",
            instanceStatus,
            { onPoll: (response) => seen.add(instanceStatus(response)) },
          );
          if (!settled) return;
          t.expect(
            "an instance created with booted false is not started",
            !seen.has("booting") && !seen.has("running"),
            { expected: "provisioning, then offline", actual: [...seen] },
          );
          // The description's boot action takes no body: a strict server refuses one. `{}` only where it declares one.
          const boot = requireOperation(t, "bootComputeInstance");
          const booted = await call(t, boot.operationId, {
            params: [id],
            ...(boot.requestBody ? { json: {} } : {}),
          });
          expectSuccess(t, "the boot action is accepted", booted);
          const running = await waitFor(
            t,
            "a booted instance eventually runs",
            read,
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
        const { profile: params, region } = setupOf(t);
        const instances = t.shared.get("instances") as Instance[] | undefined;
        if (!instances) return t.skip("no running instances: workflow 3 did not get there");
        const driver = listenDriver(t);
        const addNode = (what: string, json: object, operations = nodeOps, breaks?: string) =>
          createRegistered(t, operations, what, { params, json, ...(breaks ? { breaks } : {}) });
        const nodes: Node[] = [];
        for (const [index, instance] of instances.entries()) {
          const port = await driver.portFor(instance.privateIp);
          const label = t.label(`node-${index + 1}`);
          const address = `${instance.privateIp}:${port}`;
          const created = await addNode("node", { label, address });
          if (!expectCreated(t, "an instance's private address is registered as a node", created)) continue;
          const body = expectBody(t, "the created node is described", created.response, shape.record);
          if (!body) continue;
          expectSame(t, "the node has the address given", body.address, address);
          nodes.push({ label, address: instance.privateIp, port });
        }
        if (nodes.length === 2) t.shared.set("nodes", nodes);
        logDriverOutput(t, driver);
        const first = nodes[0];
        if (!first) return;

        const reused = { label: first.label, address: `${first.address}:${first.port}` };
        const duplicate = await addNode("node (duplicate label)", reused);
        expectRefusal(t, "a node with a label already used in the profile", duplicate.response, "label");

        const publicIp = instances[0]?.publicIp;
        if (publicIp) {
          const address = `${publicIp}:${first.port}`;
          const breaks = "address: a public IPv4, outside the schema's pattern of private addresses";
          const body = { label: t.label("public"), address };
          const notPrivate = await addNode("node (public address)", body, nodeOps, breaks);
          expectRefusal(t, "a node on a public address", notPrivate.response, "address");
        } else t.log("the instance shows no public IPv4: the public-address refusal is not tried");

        const otherRegion = await findRegion(t, ["instances"], region);
        const type = t.shared.get("type") as string | undefined;
        const stranger =
          otherRegion && type ? await createInstance(t, "elsewhere", otherRegion, type) : undefined;
        if (stranger) {
          const address = `${stranger.privateIp}:${first.port}`;
          const elsewhere = await addNode("node (other region)", { label: t.label("elsewhere"), address });
          expectRefusal(t, "a node on an instance in another region", elsewhere.response, "address");
        } else if (!otherRegion) {
          t.log("no other region offers instances: the other-region refusal is not tried");
        }

        // The path the description shows for endpoint 5 (ending at the profile id) is a deprecated alias.
        const { response: alias, id: aliasId } = await addNode(
          "node (deprecated path)",
          { label: t.label("alias"), address: `${first.address}:${first.port}` },
          aliasOps,
        );
        expectSame(t, "the deprecated node path answers 299", alias.status, 299);
        const warnings = (alias.json as { warnings?: unknown } | undefined)?.warnings;
        t.expect(
          "the deprecated node path answers with warnings",
          Array.isArray(warnings) &&
            warnings.length > 0 &&
            warnings.every((line) => typeof line === "string"),
          { expected: "a non-empty warnings array", actual: warnings },
        );
        // Two nodes are what workflow 5 counts: the alias's node goes at once.
        if (aliasId !== undefined) {
          const removed = await call(t, "deleteNodeBalancerConfigNode", { params: [...params, aliasId] });
          expectSuccess(t, "the node made through the deprecated path is deleted", removed);
        }
      },
    },
    {
      id: "nodes-down",
      title: "Workflow 5: with two nodes and nothing listening, nodes_status reads up 0, down 2",
      run: async (t) => {
        const setup = setupOf(t);
        nodesOf(t); // skips without them
        type Listed = { data?: { label?: unknown; status?: unknown }[] } | undefined;
        const listed = (response: LiveResponse | undefined) => (response?.json as Listed)?.data ?? [];
        // Give the balancer time to check every node (none `Unknown` any more), so the count is not read before
        // a check could have counted them wrong. The description promises only the counts: nodes that stay
        // `Unknown` are logged, not failed.
        await waitFor(
          t,
          "every node is eventually checked",
          () =>
            call(t, "getNodeBalancerConfigNodes", {
              params: setup.profile,
              query: { page_size: conventionsOf(t.spec).pageSize.min },
            }),
          (response) =>
            listed(response).length >= 2 && listed(response).every((node) => node.status !== "Unknown"),
          (response) =>
            JSON.stringify(listed(response).map((node) => `${String(node.label)}: ${String(node.status)}`)),
          { required: false },
        );
        const read = await call(t, "getNodeBalancerConfig", { params: setup.profile });
        const status = nodesStatus(read);
        const actual = status ?? read.status;
        t.expect(
          "with nothing listening nodes_status reads up 0, down 2",
          status?.up === 0 && status?.down === 2,
          {
            expected: { up: 0, down: 2 },
            actual,
          },
        );
      },
    },
    {
      id: "plane-none-up",
      title: "Data plane: with no node up, a request through the load balancer's port 80 gets no answer",
      tags: ["data-plane"],
      run: async (t) => {
        const setup = setupOf(t);
        nodesOf(t);
        const host = balancerHost(t, setup);
        const answer = await requestThrough(host, 80);
        t.log(`through ${host}:80: ${answer.summary}`);
        t.expect("with no node up the load balancer does not serve", answer.status === undefined, {
          expected: "no HTTP answer (connection refused or closed)",
          actual: answer.summary,
        });
      },
    },
    {
      id: "nodes-up",
      title:
        "Workflow 5: as one node and then both start listening, nodes_status reads up 1, then up 2, down 0",
      run: async (t) => {
        const setup = setupOf(t);
        const nodes = nodesOf(t);
        const driver = listenDriver(t);
        if (driver.unavailable) return t.skip(driver.unavailable);
        const listeners: Listener[] = [];
        t.shared.set("listeners", listeners);
        try {
          for (const [index, node] of nodes.entries()) {
            listeners.push(await driver.listen(node));
            logDriverOutput(t, driver);
            if (!(await waitForCounts(t, setup, index + 1, nodes.length - index - 1))) return;
          }
        } finally {
          logDriverOutput(t, driver);
        }
      },
    },
    {
      id: "plane-both-nodes",
      title:
        "Data plane: with two nodes up, requests through the load balancer's port 80 reach both back-ends",
      tags: ["data-plane"],
      run: async (t) => {
        const setup = setupOf(t);
        const listeners = t.shared.get("listeners") as Listener[] | undefined;
        if (!listeners || listeners.length < 2)
          return t.skip("no two listening nodes: workflow 5 did not get there");
        const host = balancerHost(t, setup);
        const answers = await requestsThrough(t, host);
        const shown = answers.map((answer) => answer.summary);
        t.expect(
          "every request through the load balancer is answered by a back-end",
          answers.every((answer) => answer.status === 200),
          { expected: `${throughCount} answers HTTP 200`, actual: shown },
        );
        const named = new Set(answers.flatMap((answer) => (answer.backend ? [answer.backend] : [])));
        if (named.size === 0) {
          return t.log(
            "the back-ends do not name themselves (X-Conform-Node): which one answered is not judged",
          );
        }
        t.expect("requests through the load balancer reach both back-ends", named.size === 2, {
          expected: listeners.map((listener) => listener.node.label),
          actual: [...named],
        });
      },
    },
    {
      id: "node-goes-down",
      title:
        "Workflow 5, beyond the description: when one node stops listening, nodes_status reads down 1 again",
      tags: ["beyond-description"],
      run: async (t) => {
        const driver = madeListenDriver(t);
        const setup = setupOf(t);
        const listeners = t.shared.get("listeners") as Listener[] | undefined;
        if (!driver || driver.unavailable || !listeners || listeners.length < 2) {
          return t.skip(driver?.unavailable ?? "no two listening nodes: the previous step did not get there");
        }
        await listeners[0]!.stop();
        logDriverOutput(t, driver);
        if (await waitForCounts(t, setup, 1, 1)) t.shared.set("one-down", listeners[0]!.node.label);
      },
    },
    {
      id: "plane-skips-down-node",
      title:
        "Data plane: once a node is down, every request through the load balancer reaches the node still up",
      tags: ["data-plane"],
      run: async (t) => {
        // The last case: whatever happens, no listener outlives it.
        const driver = madeListenDriver(t);
        try {
          const setup = setupOf(t);
          const down = t.shared.get("one-down") as string | undefined;
          if (down === undefined) return t.skip("no node went down: the previous step did not get there");
          const host = balancerHost(t, setup);
          const answers = await requestsThrough(t, host);
          t.expect(
            "every request through the load balancer is answered while a node is up",
            answers.every((answer) => answer.status === 200),
            { expected: `${throughCount} answers HTTP 200`, actual: answers.map((answer) => answer.summary) },
          );
          t.expect(
            "a node that is down receives no traffic",
            answers.every((answer) => answer.backend !== down),
            { expected: `no answer from ${down}`, actual: answers.map((answer) => answer.summary) },
          );
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
