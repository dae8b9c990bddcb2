/**
 * What the back-end workflows share: the load balancer and profile they build on, the instances and nodes they
 * make, reading and waiting for `nodes_status`, and reaching the profile's port through the load balancer.
 * @module
 */
import {
  type CaseContext,
  call,
  chooseImage,
  conventionsOf,
  createRegistered,
  dataPlane,
  expectBody,
  expectCreated,
  expectRefusal,
  expectSame,
  expectSuccess,
  findRegion,
  isSuccess,
  type LiveResponse,
  type PlaneAnswer,
  requestThrough,
  requireOperation,
  shape,
  strongPassword,
  waitFor,
} from "../../../src/index.ts";

/** The create of a back-end node; the deprecated alias path makes one that is deleted as any other. */
export const nodeCreate = "createNodeBalancerConfigNode";
const aliasCreate = "createNodeBalancerNodeDeprecated";

export interface Setup {
  /** The path parameters of the profile: load balancer id, profile id. */
  readonly profile: readonly [number, number];
  readonly region: string;
  /** The load balancer's public IPv4, as the target reports it. */
  readonly ipv4: string | undefined;
}

export interface Instance {
  readonly id: number;
  readonly privateIp: string;
  readonly publicIp: string | undefined;
}

export interface Node {
  readonly label: string;
  readonly address: string;
  readonly port: number;
}

export function nodesStatus(
  response: LiveResponse | undefined,
): { up?: unknown; down?: unknown } | undefined {
  return (response?.json as { nodes_status?: { up?: unknown; down?: unknown } } | undefined)?.nodes_status;
}

export function showStatus(response: LiveResponse | undefined): string {
  if (!response) return "no answer";
  const status = nodesStatus(response);
  return status ? `up ${String(status.up)}, down ${String(status.down)}` : `HTTP ${response.status}`;
}

/** Waits until the profile reads up/down as given. */
export function waitForCounts(t: CaseContext, setup: Setup, up: number, down: number) {
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

/**
 * Gives the balancer time to check every node (none `Unknown` any more), so the count is not read before a check
 * could have counted them wrong. The description promises only the counts: nodes that stay `Unknown` are logged,
 * not failed.
 */
export async function waitForChecked(t: CaseContext, setup: Setup): Promise<void> {
  type Listed = { data?: { label?: unknown; status?: unknown }[] } | undefined;
  const listed = (response: LiveResponse | undefined) => (response?.json as Listed)?.data ?? [];
  await waitFor(
    t,
    "every node is eventually checked",
    () =>
      call(t, "getNodeBalancerConfigNodes", {
        params: setup.profile,
        query: { page_size: conventionsOf(t.spec).pageSize.min },
      }),
    (response) => listed(response).length >= 2 && listed(response).every((node) => node.status !== "Unknown"),
    (response) =>
      JSON.stringify(listed(response).map((node) => `${String(node.label)}: ${String(node.status)}`)),
    { required: false },
  );
}

/** Creates an instance with booted false and gives it a private IPv4; undefined (with failed assertions) otherwise. */
export async function createInstance(t: CaseContext, name: string, region: string, type: string) {
  const image = chooseImage(t);
  const json = { region, type, image, root_pass: strongPassword(t), booted: false, label: t.label(name) };
  const created = await createRegistered(t, "createComputeInstance", "instance", { json });
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
export const throughCount = 6;

/** Where this run reaches the profile's port on the load balancer (skips when it cannot). */
export function balancerHost(t: CaseContext, setup: Setup): string {
  const plane = dataPlane(t);
  if (plane.unavailable) return t.skip(plane.unavailable);
  if (setup.ipv4 === undefined) return t.skip("the load balancer shows no ipv4: nothing to connect to");
  const host = plane.hostFor(setup.ipv4);
  return host ?? t.skip(`the load balancer's ipv4 ${setup.ipv4} is not an address this run can reach`);
}

/** Sends `throughCount` requests, one connection each, through the profile's port 80. */
export async function requestsThrough(t: CaseContext, host: string): Promise<PlaneAnswer[]> {
  const answers: PlaneAnswer[] = [];
  for (let i = 0; i < throughCount; i += 1) answers.push(await requestThrough(host, 80));
  t.log(`through ${host}:80: ${answers.map((answer) => answer.summary).join("; ")}`);
  return answers;
}

export function instanceStatus(response: LiveResponse | undefined): string {
  const status = (response?.json as { status?: unknown } | undefined)?.status;
  return typeof status === "string" ? status : `HTTP ${response?.status ?? "none"}`;
}

/**
 * Workflow 3: two instances in `region`, created with booted false (never started before the boot), each given a
 * private IPv4, booted and running; undefined (the failures recorded) when they did not get there.
 */
export async function runningInstances(
  t: CaseContext,
  region: string,
  type: string,
): Promise<Instance[] | undefined> {
  const instances: Instance[] = [];
  for (const name of ["node-a", "node-b"]) {
    const instance = await createInstance(t, name, region, type);
    if (instance) instances.push(instance);
  }
  if (instances.length < 2) return undefined;
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
    if (!settled) return undefined;
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
    if (!running) return undefined;
  }
  return instances;
}

/**
 * Registers a node on the profile of the setup (`breaks`: what a deliberately invalid one breaks; `through`: the
 * create called, the node's own by default).
 */
export type AddNode = (
  what: string,
  json: object,
  options?: { readonly breaks?: string; readonly through?: string },
) => ReturnType<typeof createRegistered>;

/**
 * Workflow 4's refusals, next to `first` (a node registered on the profile of `setup`): its label again, a public
 * address (`publicIp`, where the instance shows one), an instance in another region (made with `type`, where a
 * region and the type are known), each refused naming the field; and the deprecated alias path, which answers 299
 * with warnings (its node deleted at once: workflow 5 counts two).
 */
export async function expectNodeRefusals(
  t: CaseContext,
  setup: Setup,
  addNode: AddNode,
  first: Node,
  publicIp: string | undefined,
  type: string | undefined,
): Promise<void> {
  const reused = { label: first.label, address: `${first.address}:${first.port}` };
  const duplicate = await addNode("node (duplicate label)", reused);
  expectRefusal(t, "a node with a label already used in the profile", duplicate.response, "label");

  if (publicIp) {
    const address = `${publicIp}:${first.port}`;
    const breaks = "address: a public IPv4, outside the schema's pattern of private addresses";
    const body = { label: t.label("public"), address };
    const notPrivate = await addNode("node (public address)", body, { breaks });
    expectRefusal(t, "a node on a public address", notPrivate.response, "address");
  } else t.log("the instance shows no public IPv4: the public-address refusal is not tried");

  const otherRegion = await findRegion(t, ["instances"], setup.region);
  const stranger = otherRegion && type ? await createInstance(t, "elsewhere", otherRegion, type) : undefined;
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
    { through: aliasCreate },
  );
  expectSame(t, "the deprecated node path answers 299", alias.status, 299);
  const warnings = (alias.json as { warnings?: unknown } | undefined)?.warnings;
  t.expect(
    "the deprecated node path answers with warnings",
    Array.isArray(warnings) && warnings.length > 0 && warnings.every((line) => typeof line === "string"),
    { expected: "a non-empty warnings array", actual: warnings },
  );
  // Two nodes are what workflow 5 counts: the alias's node goes at once.
  if (aliasId !== undefined) {
    const removed = await call(t, "deleteNodeBalancerConfigNode", { params: [...setup.profile, aliasId] });
    expectSuccess(t, "the node made through the deprecated path is deleted", removed);
  }
}
