/**
 * Body values the lifecycle chains need that the description does not say how to get. A back-end node's `address`
 * is `<private IPv4>:<port>` of one of the account's instances in its load balancer's region
 * (docs/api/facts.md, "Node"; the description says only that the IPv4 is private): the run makes one instance
 * per region (never booted) and gives it a private IPv4, each on the cleanup ledger as soon as it exists.
 * @module
 */
import {
  ancestorsOf,
  type CaseContext,
  call,
  cheapestType,
  createRegistered,
  type Ids,
  type MadeValue,
  type OperationInfo,
  resolveFixture,
  resourcesOf,
} from "../../../src/index.ts";

const instanceCreate = "createComputeInstance";
/** The port a made node address names: any is valid, and nothing needs to listen on it for the chain. */
const nodePort = 80;

/** The private address made in each region, per case (one instance per region). */
const madeIn = new WeakMap<CaseContext, Map<string, Promise<string | undefined>>>();

/** A node's address: an instance's private IPv4 in its load balancer's region, with {@link nodePort}. */
export const nodeAddress: MadeValue = {
  field: "address",
  for: ["createNodeBalancerConfigNode", "updateNodeBalancerConfigNode"],
  make: async (t, { operation, ids }) => {
    const region = await balancerRegion(t, operation, ids);
    if (region === undefined) return undefined;
    let made = madeIn.get(t);
    if (!made) {
      made = new Map();
      madeIn.set(t, made);
    }
    let address = made.get(region);
    if (!address) {
      address = privateAddressIn(t, region);
      made.set(region, address);
    }
    const ip = await address;
    return ip === undefined ? undefined : `${ip}:${nodePort}`;
  },
};

/** The values the lifecycle suite's chains take from {@link nodeAddress} and its kind. */
export const lifecycleValues: readonly MadeValue[] = [nodeAddress];

/** The region of the load balancer a node lives under: the outermost resource of its path, read back. */
async function balancerRegion(
  t: CaseContext,
  operation: OperationInfo,
  ids: Ids,
): Promise<string | undefined> {
  const resources = resourcesOf(t.spec);
  const node = resources.find((resource) => resource.create === operation || resource.update === operation);
  const balancer = node && ancestorsOf(resources, node)[0];
  const id = balancer?.idParameter === undefined ? undefined : ids[balancer.idParameter];
  if (!balancer?.read || id === undefined) return undefined;
  const read = await call(t, balancer.read.operationId, { params: [id] });
  const region = (read.json as { region?: unknown } | undefined)?.region;
  return typeof region === "string" ? region : undefined;
}

/** A new instance in `region` (not booted) given a private IPv4: the IPv4, or undefined (logged) when not made. */
async function privateAddressIn(t: CaseContext, region: string): Promise<string | undefined> {
  const instances = resourcesOf(t.spec).find((resource) => resource.create?.operationId === instanceCreate);
  if (!instances?.delete || !t.spec.operations.byId("allocateIP")) {
    t.log(
      `no instance is made for a node's address: the description cannot create and delete one, or give it an address`,
    );
    return undefined;
  }
  const type = await resolveFixture(t, "type", { for: instanceCreate }, cheapestType());
  if ("lacking" in type) {
    t.log(`no instance is made for a node's address in ${region}: ${type.lacking}`);
    return undefined;
  }
  const json = { region, type: type.value, label: t.label(`node-vm-${region}`), booted: false };
  const { response, id } = await createRegistered(t, instanceCreate, "instance (a node's address)", { json });
  if (id === undefined) {
    t.log(`no instance for a node's address in ${region}: its create answered ${response.status}`);
    return undefined;
  }
  const allocated = await call(t, "allocateIP", { json: { type: "ipv4", public: false, compute_id: id } });
  const address = (allocated.json as { address?: unknown } | undefined)?.address;
  if (typeof address === "string") {
    t.log(`a node's address in ${region}: ${address}, the private IPv4 of instance ${id}`);
    return address;
  }
  t.log(`instance ${id} got no private IPv4 for a node's address: allocateIP answered ${allocated.status}`);
  return undefined;
}
