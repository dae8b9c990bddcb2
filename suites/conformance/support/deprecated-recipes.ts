/**
 * How the versioning suite calls a deprecated operation successfully (to see its 299): a recipe per operationId
 * that makes what the call needs first, each thing on the cleanup ledger as soon as it exists.
 * @module
 */
import {
  type CaseContext,
  call,
  chooseRegion,
  chooseType,
  createdId,
  createRegistered,
  expectBody,
  expectStatus,
  type LiveResponse,
  type Operation,
  requireCreateDelete,
  shape,
} from "../../../src/index.ts";

/**
 * Calls the deprecated node alias (endpoint 5's path, ending at the profile) after making what it needs: a load
 * balancer with one profile, an unbooted instance with a private IPv4 to be the node. Undefined when a setup step
 * failed (asserted as `setup: <step>`).
 */
async function deprecatedNode(t: CaseContext, alias: Operation): Promise<LiveResponse | undefined> {
  const region = await chooseRegion(t, ["balancers", "instances"]);
  const type = await chooseType(t, "nanode");
  // Both deletions are looked up first: nothing is made that the run could not remove.
  for (const create of ["createNodeBalancer", "createComputeInstance"]) requireCreateDelete(t, create);
  const step = async (name: string, operationId: string, json: unknown, params: number[] = []) => {
    const response = await call(t, operationId, { json, params });
    return expectStatus(t, `setup: ${name}`, response, 200) ? response : undefined;
  };
  /** Creates `what` (registered for deletion as soon as it exists); its id when the answer was a 200. */
  const make = async (name: string, create: string, what: string, json: unknown) => {
    const { response, id } = await createRegistered(t, create, what, { json });
    return expectStatus(t, `setup: ${name}`, response, 200) ? id : undefined;
  };
  const balancer = await make("create a load balancer", "createNodeBalancer", "load balancer", {
    region,
    label: t.label("deprecated"),
  });
  if (balancer === undefined) return undefined;
  const profile = { port: 80, protocol: "http", check: "none" };
  const configured = await step("create a profile", "createNodeBalancerConfig", profile, [balancer]);
  const config = configured && createdId(configured);
  if (config === undefined) return undefined;
  const node = { region, type, label: t.label("deprecated-node"), booted: false };
  const instance = await make("create an instance", "createComputeInstance", "instance", node);
  if (instance === undefined) return undefined;
  const ipv4 = { type: "ipv4", public: false, compute_id: instance };
  const ip = await step("give the instance a private IPv4", "allocateIP", ipv4);
  if (!ip) return undefined;
  const given = expectBody(t, "the private IPv4 is described", ip, shape.object({ address: shape.string }));
  if (!given) return undefined;
  const address = `${given.address}:${profile.port}`;
  return call(t, alias.operationId, {
    params: [balancer, config],
    json: { label: t.label("alias-node"), address },
  });
}

export type Recipe = (t: CaseContext, alias: Operation) => Promise<LiveResponse | undefined>;
/** How to call a deprecated operation successfully, by operationId: the one recipe this suite knows. */
export const recipes: Readonly<Record<string, Recipe>> = { createNodeBalancerNodeDeprecated: deprecatedNode };
