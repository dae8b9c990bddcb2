/**
 * The resources the body suites write against, made through operations found by operationId: a load balancer
 * with one profile and one back-end node, a compute instance (not booted) with a private IPv4, an OAuth client,
 * plus what the description's lists offer (a region with load balancers and instances, the cheapest type: see
 * `../fixtures.ts`) and the scopes of the run's token and the profile's timezone. Each resource goes on the cleanup
 * ledger (at its delete operation's path) right after it is created. The first case of a body suite makes them;
 * later cases read them with {@link bodyFixturesOf}. On a description without these operations, or without a list
 * offering a region or type, nothing is made: the fixtures say what they lack (`lacking`), the writes whose paths
 * need none of them are still exercised, and a case that needs a made resource skips with that reason.
 * @module
 */
import type { LiveResponse } from "../../runner/contracts.ts";
import { type CaseContext, sharedKey } from "../../runner/suite-api.ts";
import { cheapestType, resolveFixture } from "../fixtures.ts";
import { call, type PathValue, pathOf, requireOperation } from "../operations.ts";
import { labelOf, registerMade, requireCreateDelete } from "../resources.ts";
import { expectSuccess } from "../responses.ts";
import { runTokenScopes } from "../tokens.ts";
import { makeEachResource } from "./each-resource.ts";
import type { PathValues } from "./write-targets.ts";
import { createdResource } from "./written.ts";

export interface BodyFixtures {
  /** Why nothing was made (the resources below are then absent), as the fixtures case's skip said. */
  readonly lacking?: string;
  readonly region?: string;
  readonly type?: string;
  readonly nodeBalancerId?: number;
  readonly configId?: number;
  /** Ports of the load balancer's profiles (a new profile must take another one). */
  readonly usedPorts: Set<number>;
  readonly nodeId?: number;
  readonly computeId?: number;
  readonly privateIp?: string;
  /** The instance's public IPv4 (reverse DNS can be set on it). */
  readonly publicIp?: string | undefined;
  readonly clientId?: string;
  /** The run token's scopes (a new token may not exceed them), from `X-OAuth-Scopes`. */
  readonly scopes?: string | undefined;
  /** The profile's timezone when the fixtures were made (a profile update writes it back unchanged). */
  readonly timezone?: string | undefined;
  /** Path parameter values by the description's names for them (`nodeBalancerId`, `address`, ...). */
  readonly pathValues: PathValues;
}

/** The port of the fixture load balancer's profile. */
export const bodyFixturePort = 8080;
const fixturesKey = sharedKey<BodyFixtures>("bodies:fixtures");

/**
 * The fixtures an earlier case of this suite made (or found it could not make: `lacking`); the case is skipped
 * (with why) when that case failed.
 */
export function bodyFixturesOf(t: CaseContext): BodyFixtures {
  const fixtures = t.shared.get(fixturesKey);
  if (!fixtures) t.skip("the fixtures case could not create the resources this case writes against");
  return fixtures;
}

/** A resource the fixtures made, or a skip saying why there is none. */
export function madeFixture<T>(
  t: CaseContext,
  fixtures: BodyFixtures,
  value: T | undefined,
  what: string,
): T {
  if (value !== undefined) return value;
  return t.skip(`the fixtures hold no ${what}: ${fixtures.lacking ?? "the fixtures case made none"}`);
}

/** The operations the fixtures are made with: all of them, or nothing is made. */
const fixtureOperations = [
  "createNodeBalancer",
  "deleteNodeBalancer",
  "createNodeBalancerConfig",
  "deleteNodeBalancerConfig",
  "createComputeInstance",
  "deleteComputeInstance",
  "allocateIP",
  "getComputeInstanceIPs",
  "createNodeBalancerConfigNode",
  "deleteNodeBalancerConfigNode",
  "createOAuthClient",
  "deleteOAuthClient",
];

/** The run token's scopes and the profile's timezone, when the description has a profile read. */
async function profileFacts(t: CaseContext): Promise<Pick<BodyFixtures, "scopes" | "timezone">> {
  if (!t.spec.operations.byId("getProfile")) return {};
  const profile = await call(t, "getProfile");
  const shownZone = (profile.json as { timezone?: unknown } | undefined)?.timezone;
  return {
    scopes: runTokenScopes(t, profile),
    ...(typeof shownZone === "string" ? { timezone: shownZone } : {}),
  };
}

/**
 * Why the fixtures cannot be made on this description (an operation it lacks, a region or type no list offers),
 * or the region and type they are made in.
 */
async function fixtureChoices(
  t: CaseContext,
): Promise<
  { readonly lacking: string; readonly foreign: boolean } | { readonly region: string; readonly type: string }
> {
  const absent = fixtureOperations.filter((operationId) => !t.spec.operations.byId(operationId));
  if (absent.length > 0) {
    const more =
      absent.length > 1 ? ` (nor ${absent.length - 1} more of those the fixtures are made with)` : "";
    // None of them: a description not ours, whose own resources stand in; some: ours, edited, where nothing is made.
    const foreign = absent.length === fixtureOperations.length;
    return { lacking: `the description has no operation ${absent[0]}${more}`, foreign };
  }
  const capabilities = ["balancers", "instances"] as const;
  const region = await resolveFixture(t, "region", { for: "createNodeBalancer", capabilities });
  if ("lacking" in region) return { ...region, foreign: false };
  const type = await resolveFixture(t, "type", { for: "createComputeInstance" }, cheapestType());
  if ("lacking" in type) return { ...type, foreign: false };
  return { region: region.value, type: type.value };
}

/**
 * Shares fixtures without the bundled resources, saying why, and skips the fixtures case with that reason: the
 * suite's later cases exercise the writes that need none of them. On a description without the bundled
 * operations, one resource of each kind it can create and delete is made instead ({@link makeEachResource}).
 */
async function madeNothing(
  t: CaseContext,
  lacking: string,
  facts: Pick<BodyFixtures, "scopes" | "timezone">,
  foreign: boolean,
): Promise<never> {
  const pathValues = foreign ? await makeEachResource(t) : {};
  const fixtures: BodyFixtures = { lacking, usedPorts: new Set(), pathValues, ...facts };
  t.shared.set(fixturesKey, fixtures);
  const made = Object.keys(pathValues).length;
  const instead = made > 0 ? `; ${made} made from the description instead (see the log)` : "";
  return t.skip(`${lacking}: the resources the bodies write against are not made${instead}`);
}

/** Answers `response`'s JSON when it is a 2xx, recording a failed assertion (and skipping the case) otherwise. */
function created(t: CaseContext, what: string, response: LiveResponse): Record<string, unknown> {
  if (!expectSuccess(t, `fixture: ${what} is created`, response))
    t.skip(`could not create ${what} (answered ${response.status}): nothing to write against`);
  const body = response.parsed;
  return (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
}

/** What a fixture is called: in the skip when it cannot be created, and on the ledger. */
interface FixtureNames {
  readonly created: string;
  readonly ledger: string;
}

/**
 * The fixtures' writer: `create` makes one resource and puts it on the ledger, `note` keeps a value as the path
 * parameter that names what an operation makes, and `values` holds them by parameter name.
 */
function fixtureWriter(t: CaseContext) {
  const values: Record<string, PathValue | undefined> = {};
  /** Notes `value` as the path parameter naming what operation `operationId` makes. */
  const note = (operationId: string, value: PathValue | undefined) => {
    const parameter = createdResource(t, requireOperation(t, operationId))?.parameter;
    if (parameter) values[parameter] = value;
  };
  /**
   * Creates `what` through `operationId` at `params` and puts it on the ledger at its resource's delete, looked up
   * first: nothing is created that the run could not delete.
   */
  const create = async (
    what: FixtureNames,
    operationId: string,
    params: readonly PathValue[],
    json: object,
  ): Promise<Record<string, unknown>> => {
    const { remove } = requireCreateDelete(t, operationId);
    const response = await call(t, operationId, { params, json });
    // On the ledger before the answer is judged, from whatever it reveals (JSON whatever its label, Location, label).
    const id = registerMade(t, response, {
      what: what.ledger,
      label: labelOf(json),
      deletePath: (id) => pathOf(remove, ...params, id),
    });
    const made = created(t, what.created, response);
    if (typeof made.secret === "string") t.secret(made.secret);
    if (id === undefined) t.skip(`could not tell which ${what.ledger} was created: the answer names no id`);
    note(operationId, id);
    return made;
  };
  return { values, note, create };
}

/** A private IPv4 allocated to the instance, and its public one (noted as the path value of an address). */
async function instanceAddresses(
  t: CaseContext,
  computeId: number,
  note: ReturnType<typeof fixtureWriter>["note"],
): Promise<{ readonly privateIp: string; readonly publicIp: string | undefined }> {
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
  return { privateIp, publicIp };
}

/**
 * Creates the fixtures (about ten requests, one instance) and shares them with the suite's later cases. Each
 * resource's id is also the value of the path parameter that names what its create operation makes.
 */
export async function createBodyFixtures(t: CaseContext): Promise<BodyFixtures> {
  const facts = await profileFacts(t);
  const choices = await fixtureChoices(t);
  if ("lacking" in choices) return madeNothing(t, choices.lacking, facts, choices.foreign);
  const { region, type } = choices;
  const { values, note, create } = fixtureWriter(t);

  const balancer = await create(
    { created: "a load balancer", ledger: "load balancer" },
    "createNodeBalancer",
    [],
    { region, label: t.label("bodies-lb") },
  );
  const nodeBalancerId = Number(balancer.id);
  const config = await create(
    { created: "a configuration profile", ledger: "profile" },
    "createNodeBalancerConfig",
    [nodeBalancerId],
    { port: bodyFixturePort, protocol: "http" },
  );
  const configId = Number(config.id);
  const instance = await create(
    { created: "a compute instance", ledger: "instance" },
    "createComputeInstance",
    [],
    { region, type, label: t.label("bodies-vm"), booted: false },
  );
  const computeId = Number(instance.id);
  const { privateIp, publicIp } = await instanceAddresses(t, computeId, note);

  const node = await create(
    { created: "a back-end node", ledger: "node" },
    "createNodeBalancerConfigNode",
    [nodeBalancerId, configId],
    { label: t.label("bodies-node"), address: `${privateIp}:80` },
  );
  const client = await create(
    { created: "an OAuth client", ledger: "OAuth client" },
    "createOAuthClient",
    [],
    { label: t.label("bodies-app"), redirect_uri: "https://app.example.com/callback" },
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
    ...facts,
    pathValues: values,
  };
  t.shared.set(fixturesKey, fixtures);
  return fixtures;
}
