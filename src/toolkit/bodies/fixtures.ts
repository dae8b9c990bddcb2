/**
 * The resources the body suites write against, made through operations found by operationId: a load balancer
 * with one profile and one back-end node, a compute instance (not booted) with a private IPv4, an OAuth client,
 * plus what the target's catalogue offers (a region with load balancers and instances, the cheapest type) and
 * the scopes of the run's token and the profile's timezone. Each resource goes on the cleanup ledger (at its delete operation's path) right
 * after it is created. The first case of a body suite makes them; later cases read them with {@link bodyFixturesOf}.
 * @module
 */
import type { LiveResponse } from "../../runner/contracts.ts";
import type { CaseContext } from "../../runner/suite-api.ts";
import { chooseRegion, chooseType } from "../fixtures.ts";
import { call, type PathValue, pathOf, requireOperation } from "../operations.ts";
import { registerMade } from "../resources.ts";
import { expectSuccess } from "../responses.ts";
import { runTokenScopes } from "../tokens.ts";
import type { PathValues } from "./write-targets.ts";
import { createdResource } from "./written.ts";

export interface BodyFixtures {
  readonly region: string;
  readonly type: string;
  readonly nodeBalancerId: number;
  readonly configId: number;
  /** Ports of the load balancer's profiles (a new profile must take another one). */
  readonly usedPorts: Set<number>;
  readonly nodeId: number;
  readonly computeId: number;
  readonly privateIp: string;
  /** The instance's public IPv4 (reverse DNS can be set on it). */
  readonly publicIp: string | undefined;
  readonly clientId: string;
  /** The run token's scopes (a new token may not exceed them), from `X-OAuth-Scopes`. */
  readonly scopes: string | undefined;
  /** The profile's timezone when the fixtures were made (a profile update writes it back unchanged). */
  readonly timezone: string | undefined;
  /** Path parameter values by the description's names for them (`nodeBalancerId`, `address`, ...). */
  readonly pathValues: PathValues;
}

/** The port of the fixture load balancer's profile. */
export const bodyFixturePort = 8080;
const fixturesKey = "bodies:fixtures";

/** The fixtures an earlier case of this suite made; the case is skipped (with why) when there are none. */
export function bodyFixturesOf(t: CaseContext): BodyFixtures {
  const fixtures = t.shared.get(fixturesKey) as BodyFixtures | undefined;
  if (!fixtures) t.skip("the fixtures case could not create the resources this case writes against");
  return fixtures;
}

/** Answers `response`'s JSON when it is a 2xx, recording a failed assertion (and skipping the case) otherwise. */
function created(t: CaseContext, what: string, response: LiveResponse): Record<string, unknown> {
  if (!expectSuccess(t, `fixture: ${what} is created`, response))
    t.skip(`could not create ${what} (answered ${response.status}): nothing to write against`);
  const body = response.parsed;
  return (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
}

/**
 * Creates the fixtures (about ten requests, one instance) and shares them with the suite's later cases. Each
 * resource's id is also the value of the path parameter that names what its create operation makes.
 */
export async function createBodyFixtures(t: CaseContext): Promise<BodyFixtures> {
  const values: Record<string, PathValue | undefined> = {};
  /** Notes `value` as the path parameter naming what operation `operationId` makes. */
  const note = (operationId: string, value: PathValue | undefined) => {
    const parameter = createdResource(t, requireOperation(t, operationId))?.parameter;
    if (parameter) values[parameter] = value;
  };
  /**
   * Creates `what` through `operationId` at `params` and puts it on the ledger at `deleteId`'s path, looked up
   * first: nothing is created that the run could not delete.
   */
  const create = async (
    what: { readonly created: string; readonly ledger: string },
    operationId: string,
    params: readonly PathValue[],
    json: unknown,
    deleteId: string,
  ): Promise<Record<string, unknown>> => {
    const remove = requireOperation(t, deleteId);
    const response = await call(t, operationId, { params, json });
    // On the ledger before the answer is judged, from whatever it reveals (JSON whatever its label, Location, label).
    const label = (json as { label?: unknown }).label;
    const id = registerMade(t, response, {
      what: what.ledger,
      label: typeof label === "string" ? label : undefined,
      deletePath: (id) => pathOf(remove, ...params, id),
    });
    const made = created(t, what.created, response);
    if (typeof made.secret === "string") t.secret(made.secret);
    if (id === undefined) t.skip(`could not tell which ${what.ledger} was created: the answer names no id`);
    note(operationId, id);
    return made;
  };

  const profile = await call(t, "getProfile");
  const scopes = runTokenScopes(t, profile);
  const shownZone = (profile.json as { timezone?: unknown } | undefined)?.timezone;
  const region = await chooseRegion(t, ["balancers", "instances"]);
  const type = await chooseType(t);

  const balancer = await create(
    { created: "a load balancer", ledger: "load balancer" },
    "createNodeBalancer",
    [],
    { region, label: t.label("bodies-lb") },
    "deleteNodeBalancer",
  );
  const nodeBalancerId = Number(balancer.id);
  const config = await create(
    { created: "a configuration profile", ledger: "profile" },
    "createNodeBalancerConfig",
    [nodeBalancerId],
    { port: bodyFixturePort, protocol: "http" },
    "deleteNodeBalancerConfig",
  );
  const configId = Number(config.id);
  const instance = await create(
    { created: "a compute instance", ledger: "instance" },
    "createComputeInstance",
    [],
    { region, type, label: t.label("bodies-vm"), booted: false },
    "deleteComputeInstance",
  );
  const computeId = Number(instance.id);

  const address = created(
    t,
    "a private IPv4 address",
    await call(t, "allocateIP", { json: { type: "ipv4", public: false, compute_id: computeId } }),
  );
  const privateIp = String(address.address);
  const ips = await call(t, "getComputeInstanceIPs", { params: [computeId] });
  const publicIp = (ips.json as { ipv4?: { public?: { address?: string }[] } } | undefined)?.ipv4?.public?.[0]
    ?.address;
  note("allocateIP", publicIp);

  const node = await create(
    { created: "a back-end node", ledger: "node" },
    "createNodeBalancerConfigNode",
    [nodeBalancerId, configId],
    { label: t.label("bodies-node"), address: `${privateIp}:80` },
    "deleteNodeBalancerConfigNode",
  );
  const client = await create(
    { created: "an OAuth client", ledger: "OAuth client" },
    "createOAuthClient",
    [],
    { label: t.label("bodies-app"), redirect_uri: "https://app.example.com/callback" },
    "deleteOAuthClient",
  );

  const fixtures: BodyFixtures = {
    region,
    type,
    nodeBalancerId,
    configId,
    usedPorts: new Set([bodyFixturePort]),
    nodeId: Number(node.id),
    computeId,
    privateIp,
    publicIp,
    clientId: String(client.id),
    scopes,
    timezone: typeof shownZone === "string" ? shownZone : undefined,
    pathValues: values,
  };
  t.shared.set(fixturesKey, fixtures);
  return fixtures;
}
