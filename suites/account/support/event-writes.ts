/**
 * The writes whose events the events suite looks for: a load balancer, its profile and an update of it, an
 * instance (never booted), a private address and a node on it, a token with the events scope and an OAuth client,
 * each on the cleanup ledger as it is made.
 * @module
 */
import {
  type CaseContext,
  call,
  chooseImage,
  chooseRegion,
  chooseType,
  createRegistered,
  expectCreated,
  expectSuccess,
  mintToken,
  redirectUriOf,
  registerOAuthClient,
  requireOperation,
  strongPassword,
} from "../../../src/index.ts";
import type { Write } from "./event-feed.ts";

/** Hears what later cases need as soon as it is made: the instance, and the token with the events scope. */
export interface WritesMade {
  instance(id: number): void;
  reader(token: string): void;
}

/**
 * Makes the writes, asserting each is accepted; answers them, or undefined (the failure recorded) when the load
 * balancer, its profile or the instance could not be made, since the rest hang on them.
 */
export async function makeWrites(t: CaseContext, made: WritesMade): Promise<readonly Write[] | undefined> {
  const writes: Write[] = [];
  const add = (write: Write) => writes.push(write);
  const region = await chooseRegion(t, ["balancers", "instances"]);

  const label = t.label("events");
  const balancer = await createRegistered(t, "createNodeBalancer", "load balancer", {
    json: { region, label },
  });
  if (!expectCreated(t, "the load balancer is created", balancer)) return undefined;
  add({ operationId: "createNodeBalancer", entityId: balancer.id, label });

  const profileLabel = t.label("events-web");
  const profile = await createRegistered(t, "createNodeBalancerConfig", "profile", {
    params: [balancer.id],
    json: { label: profileLabel, port: 80, protocol: "http" },
  });
  if (!expectCreated(t, "the profile is created", profile)) return undefined;
  add({ operationId: "createNodeBalancerConfig", entityId: profile.id });
  const updated = await call(t, "updateNodeBalancerConfig", {
    params: [balancer.id, profile.id],
    json: { check_attempts: 2 },
  });
  if (expectSuccess(t, "the profile is updated", updated))
    add({ operationId: "updateNodeBalancerConfig", entityId: profile.id });

  const instanceLabel = t.label("events-vm");
  const json = {
    region,
    type: await chooseType(t),
    image: chooseImage(t),
    root_pass: strongPassword(t),
    booted: false,
    label: instanceLabel,
  };
  const instance = await createRegistered(t, "createComputeInstance", "instance", { json });
  if (!expectCreated(t, "an instance is created with booted false", instance)) return undefined;
  add({ operationId: "createComputeInstance", entityId: instance.id, label: instanceLabel });
  made.instance(instance.id);

  const allocated = await call(t, "allocateIP", {
    json: { type: "ipv4", public: false, compute_id: instance.id },
  });
  const address = (allocated.json as { address?: unknown } | undefined)?.address;
  if (expectSuccess(t, "a private IPv4 is given to the instance", allocated) && typeof address === "string") {
    add({ operationId: "allocateIP", entityId: address });
    const nodeLabel = t.label("events-node");
    const node = await createRegistered(t, "createNodeBalancerConfigNode", "node", {
      params: [balancer.id, profile.id],
      json: { label: nodeLabel, address: `${address}:80` },
    });
    if (expectCreated(t, "the node is created", node))
      add({ operationId: "createNodeBalancerConfigNode", entityId: node.id, label: nodeLabel });
  }

  const scopes = requireOperation(t, "getEvents").security.scopes[0] ?? "events:read_only";
  const minted = await mintToken(t, "events-reader", scopes);
  t.expect("a token is created", minted.ok, { expected: 200, actual: minted.response.status });
  if (minted.ok) {
    add({ operationId: "createPersonalAccessToken", entityId: minted.minted.id });
    made.reader(minted.minted.token);
  }

  const client = await registerOAuthClient(t, "events-app", { redirectUri: redirectUriOf(t), public: false });
  t.expect("an OAuth client is created", client.ok, { expected: 200, actual: client.response.status });
  if (client.ok) add({ operationId: "createOAuthClient", entityId: client.client.id });
  return writes;
}
