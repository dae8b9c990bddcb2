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
  call,
  chooseRegion,
  chooseType,
  createRegistered,
  defineSuite,
  expectBody,
  expectCreated,
  expectSame,
  type Listener,
  listenDriver,
  logDriverOutput,
  madeListenDriver,
  neededReason,
  requestThrough,
  shape,
  sharedKey,
} from "../../src/index.ts";
import {
  type AddNode,
  balancerHost,
  expectNodeRefusals,
  type Instance,
  type Node,
  nodeCreate,
  nodesStatus,
  requestsThrough,
  runningInstances,
  type Setup,
  throughCount,
  waitForChecked,
  waitForCounts,
} from "./support/back-ends.ts";
import { quickChecks } from "./support/quick-checks.ts";

/** What each workflow hands on to the next, and the case that shares it. */
const setupKey = sharedKey<Setup>("setup", { what: "the load balancer and its profile", from: "balancer" });
const typeKey = sharedKey<string>("type", { what: "the instance type", from: "instances" });
const instancesKey = sharedKey<Instance[]>("instances", { what: "two running instances", from: "instances" });
const nodesKey = sharedKey<Node[]>("nodes", { what: "two nodes", from: "nodes" });
/** Shared as they start listening (a case that stops half-way still shares those that listen). */
const listenersKey = sharedKey<Listener[]>("listeners", { what: "two listening nodes", from: "nodes-up" });
const oneDownKey = sharedKey<string>("one-down", { what: "a node that went down", from: "node-goes-down" });

/** The two listening nodes of `nodes-up`; skips with the standard reason when it did not get both listening. */
function twoListening(t: CaseContext): [Listener, Listener] {
  const [first, second] = t.needs(listenersKey);
  return first && second ? [first, second] : t.skip(neededReason(listenersKey));
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
        const region = await chooseRegion(t, ["balancers", "instances"], "createNodeBalancer");
        const json = { region, label: t.label("backends"), client_conn_throttle: 0 };
        const balancer = await createRegistered(t, "createNodeBalancer", "load balancer", { json });
        if (!expectCreated(t, "the load balancer is created", balancer)) return;
        const web = { label: t.label("web"), port: 80, protocol: "http", ...quickChecks };
        const profile = await createRegistered(t, "createNodeBalancerConfig", "profile", {
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
        t.shared.set(setupKey, {
          profile: [balancer.id, profile.id],
          region,
          ipv4: typeof ipv4 === "string" ? ipv4 : undefined,
        });
      },
    },
    {
      id: "instances",
      title:
        "Workflow 3: two instances created with booted false, each given a private IPv4, booted, and running",
      tags: ["costly"],
      run: async (t) => {
        const setup = t.needs(setupKey);
        const type = await chooseType(t, undefined, "createComputeInstance");
        t.shared.set(typeKey, type);
        const instances = await runningInstances(t, setup.region, type);
        if (instances) t.shared.set(instancesKey, instances);
      },
    },
    {
      id: "nodes",
      title:
        "Workflow 4: each instance registered as a node; duplicate label, other-region and public addresses refused; the deprecated path answers 299",
      tags: ["costly"],
      run: async (t) => {
        const setup = t.needs(setupKey);
        const instances = t.needs(instancesKey);
        const driver = listenDriver(t);
        const addNode: AddNode = (what, json, { breaks, through = nodeCreate } = {}) =>
          createRegistered(t, through, what, {
            params: setup.profile,
            json,
            aliasOf: nodeCreate,
            ...(breaks ? { breaks } : {}),
          });
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
        if (nodes.length === 2) t.shared.set(nodesKey, nodes);
        logDriverOutput(t, driver);
        const first = nodes[0];
        if (!first) return;
        await expectNodeRefusals(t, setup, addNode, first, instances[0]?.publicIp, t.shared.get(typeKey));
      },
    },
    {
      id: "nodes-down",
      title: "Workflow 5: with two nodes and nothing listening, nodes_status reads up 0, down 2",
      run: async (t) => {
        const setup = t.needs(setupKey);
        t.needs(nodesKey); // skips without them
        await waitForChecked(t, setup);
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
        const setup = t.needs(setupKey);
        t.needs(nodesKey);
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
        const setup = t.needs(setupKey);
        const nodes = t.needs(nodesKey);
        const driver = listenDriver(t);
        if (driver.unavailable) return t.skip(driver.unavailable);
        const listeners: Listener[] = [];
        t.shared.set(listenersKey, listeners);
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
        const setup = t.needs(setupKey);
        const listeners = twoListening(t);
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
        const setup = t.needs(setupKey);
        if (driver?.unavailable) return t.skip(driver.unavailable);
        const [first] = twoListening(t);
        if (!driver) return t.skip(neededReason(listenersKey));
        await first.stop();
        logDriverOutput(t, driver);
        if (await waitForCounts(t, setup, 1, 1)) t.shared.set(oneDownKey, first.node.label);
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
          const setup = t.needs(setupKey);
          const down = t.needs(oneDownKey);
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
