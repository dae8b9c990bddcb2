/**
 * The resources the body suites write against: a load balancer with one profile and one back-end node, a compute
 * instance (not booted) with a private IPv4, an OAuth client, plus what the target's catalogue offers (a region
 * with load balancers and instances, the cheapest type) and the scopes of the run's token. Every resource goes on
 * the cleanup ledger right after it is created. Only HTTP, from the description and facts.md.
 * @module
 */
import type { CaseContext, LiveResponse, SuiteCase } from "../../../src/index.ts";

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
}

export const fixturePort = 8080;
const fixturesKey = "bodies:fixtures";

export const isSuccess = (response: LiveResponse): boolean => response.status >= 200 && response.status < 300;

/** The fixtures an earlier case of this suite made; the case is skipped (with why) when there are none. */
export function fixturesOf(t: CaseContext): BodyFixtures {
  const fixtures = t.shared.get(fixturesKey) as BodyFixtures | undefined;
  if (!fixtures) t.skip("the fixtures case could not create the resources this case writes against");
  return fixtures;
}

interface Page<T> {
  readonly data?: readonly T[];
}

/** Answers `created`'s JSON when it is a 2xx, recording a failed assertion (and skipping the case) otherwise. */
function created(t: CaseContext, what: string, response: LiveResponse): Record<string, unknown> {
  const ok = t.expect(`fixture: ${what} is created`, isSuccess(response), {
    expected: "2xx",
    actual: response.status,
    response,
  });
  if (!ok) t.skip(`could not create ${what} (answered ${response.status}): nothing to write against`);
  return (response.json ?? {}) as Record<string, unknown>;
}

/** Creates the fixtures (about ten requests, one instance) and shares them with the suite's later cases. */
export async function createFixtures(t: CaseContext): Promise<BodyFixtures> {
  const profile = await t.api.get("/profile");
  const scopes = profile.headers["x-oauth-scopes"];

  const regions = await t.api.get("/regions", { query: { page_size: 500 }, token: null });
  const region = (
    (regions.json as Page<{ id: string; capabilities?: string[]; status?: string }>)?.data ?? []
  ).find(
    (item) =>
      item.status !== "outage" &&
      (item.capabilities ?? []).includes("NodeBalancers") &&
      (item.capabilities ?? []).includes("Linodes"),
  );
  if (!region) t.skip("no listed region offers both load balancers and instances");
  const types = await t.api.get("/compute/types", { query: { page_size: 500 }, token: null });
  const cheapest = [...((types.json as Page<{ id: string; price?: { monthly?: number } }>)?.data ?? [])].sort(
    (a, b) => (a.price?.monthly ?? Number.POSITIVE_INFINITY) - (b.price?.monthly ?? Number.POSITIVE_INFINITY),
  )[0];
  if (!cheapest) t.skip("no instance type is listed");

  const balancer = created(
    t,
    "a load balancer",
    await t.api.post("/nodebalancers", { region: region.id, label: t.label("bodies-lb") }),
  );
  const nodeBalancerId = Number(balancer.id);
  t.cleanup(`load balancer ${nodeBalancerId}`, `/nodebalancers/${nodeBalancerId}`);

  const config = created(
    t,
    "a configuration profile",
    await t.api.post(`/nodebalancers/${nodeBalancerId}/configs`, { port: fixturePort, protocol: "http" }),
  );
  const configId = Number(config.id);
  t.cleanup(`profile ${configId}`, `/nodebalancers/${nodeBalancerId}/configs/${configId}`);

  const instance = created(
    t,
    "a compute instance",
    await t.api.post("/compute/instances", {
      region: region.id,
      type: cheapest.id,
      label: t.label("bodies-vm"),
      booted: false,
    }),
  );
  const computeId = Number(instance.id);
  t.cleanup(`instance ${computeId}`, `/compute/instances/${computeId}`);

  const address = created(
    t,
    "a private IPv4 address",
    await t.api.post("/networking/ips", { type: "ipv4", public: false, compute_id: computeId }),
  );
  const privateIp = String(address.address);
  const ips = await t.api.get(`/compute/instances/${computeId}/ips`);
  const publicIp = (ips.json as { ipv4?: { public?: { address?: string }[] } } | undefined)?.ipv4?.public?.[0]
    ?.address;

  const node = created(
    t,
    "a back-end node",
    await t.api.post(`/nodebalancers/${nodeBalancerId}/configs/${configId}/nodes`, {
      label: t.label("bodies-node"),
      address: `${privateIp}:80`,
    }),
  );
  const nodeId = Number(node.id);
  t.cleanup(`node ${nodeId}`, `/nodebalancers/${nodeBalancerId}/configs/${configId}/nodes/${nodeId}`);

  const client = created(
    t,
    "an OAuth client",
    await t.api.post("/account/oauth-clients", {
      label: t.label("bodies-app"),
      redirect_uri: "https://app.example.com/callback",
    }),
  );
  if (typeof client.secret === "string") t.secret(client.secret);
  const clientId = String(client.id);
  t.cleanup(`OAuth client ${clientId}`, `/account/oauth-clients/${encodeURIComponent(clientId)}`);

  const fixtures: BodyFixtures = {
    region: region.id,
    type: cheapest.id,
    nodeBalancerId,
    configId,
    usedPorts: new Set([fixturePort]),
    nodeId,
    computeId,
    privateIp,
    publicIp,
    clientId,
    scopes,
  };
  t.shared.set(fixturesKey, fixtures);
  return fixtures;
}

/** Path parameters of the operations the body suites write to, by name, from the fixtures. */
export function pathValues(fixtures: BodyFixtures): Readonly<Record<string, string | number | undefined>> {
  return {
    nodeBalancerId: fixtures.nodeBalancerId,
    configId: fixtures.configId,
    nodeId: fixtures.nodeId,
    computeId: fixtures.computeId,
    address: fixtures.publicIp,
    clientId: fixtures.clientId,
  };
}

/**
 * The first case of both body suites: creates what the bodies write against. Tagged `costly` (it creates an
 * instance): excluding that tag leaves the later cases without fixtures, and they skip saying so.
 */
export const fixturesCase: SuiteCase = {
  id: "fixtures",
  title: "Create what the bodies write against: a load balancer, profile, node, instance, OAuth client",
  tags: ["costly"],
  run: async (t) => {
    await createFixtures(t);
  },
};
