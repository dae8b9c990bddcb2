/**
 * Load balancers (`/nodebalancers`): create in a region that offers them, read, list, update, delete (with
 * their profiles and nodes). A new load balancer has no configuration profiles.
 *
 * Choices beyond the description and facts.md (documented here):
 * - addresses come from the load balancer's id, so they are unique and sequential without a counter: the
 *   k-th load balancer (ids start at 1001) gets the k-th host of 198.18.0.0/16 (the lower half of the
 *   198.18.0.0/15 benchmark range stands in for public addresses; instances use the upper half), counted from
 *   the host the server drew at start (`state.balancerOffset`), skipping hosts ending in .0 and .255:
 *   198.18.R.Q, then the next host ...; IPv6 is 2001:db8:bb::<k in hex>; the public IPv4
 *   198.18.X.Y stands for the loopback address 127.18.X.Y, where the profiles listen (data-plane.ts);
 *   the hostname is `nb-<ipv4 with dashes>.<region>.nodebalancer.example.net`;
 * - label uniqueness is exact (case-sensitive); a generated `balancer<id>` that a caller already took gets a
 *   `-2`, `-3`... suffix rather than a refusal;
 * - tags are kept as given (order and duplicates); a region in outage still accepts new load balancers;
 * - transfer is always {in: null, out: null, total: null}: the reference server carries no traffic.
 * - deleting a load balancer records one `nodebalancer_delete` event for the whole cascade (its profiles and
 *   nodes go with it without events of their own).
 * @module
 */
import type { HandlerContext, HandlerMap } from "../context.ts";
import { notFound } from "../errors.ts";
import { type ApiErrorItem, badRequest, fieldError, ok, type Reply } from "../http/reply.ts";
import type { NodeBalancerRecord } from "../state.ts";
import { configsOf, findNodeBalancer, nodeBalancerEntity, nodesOf } from "./balancer-shared.ts";
import { bodyOf, has, listReply, timestamp } from "./shared.ts";

const regionCapability = "NodeBalancers";
const defaultThrottle = 20;
/** Usable hosts of 198.18.0.0/16 (the instances' public pool is 198.19.0.0/16). */
const hostCount = 256 * 254;

export function presentNodeBalancer(record: NodeBalancerRecord): Record<string, unknown> {
  return {
    id: record.id,
    label: record.label,
    region: record.region,
    hostname: record.hostname,
    ipv4: record.ipv4,
    ipv6: record.ipv6,
    created: record.created,
    updated: record.updated,
    client_conn_throttle: record.client_conn_throttle,
    transfer: { in: null, out: null, total: null },
    tags: [...record.tags],
  };
}

function addressesFor(
  id: number,
  region: string,
  offset: number,
): Pick<NodeBalancerRecord, "ipv4" | "ipv6" | "hostname"> {
  // Hosts .1 to .254 of each /24 of 198.18.0.0/16, in id order from the drawn host (wrapping after 65024).
  const k = (((id - 1001) % hostCount) + hostCount) % hostCount;
  const n = (k + offset) % hostCount;
  const ipv4 = `198.18.${Math.floor(n / 254)}.${(n % 254) + 1}`;
  return {
    ipv4,
    ipv6: `2001:db8:bb::${(k + 1).toString(16)}`,
    hostname: `nb-${ipv4.replaceAll(".", "-")}.${region}.nodebalancer.example.net`,
  };
}

function labelTaken(context: HandlerContext, label: string, exceptId?: number): boolean {
  for (const record of context.state.nodeBalancers.values()) {
    if (record.label === label && record.id !== exceptId) return true;
  }
  return false;
}

function generatedLabel(context: HandlerContext, id: number): string {
  let label = `balancer${id}`;
  for (let suffix = 2; labelTaken(context, label); suffix += 1) label = `balancer${id}-${suffix}`;
  return label;
}

function regionErrors(context: HandlerContext, region: unknown): ApiErrorItem[] {
  if (typeof region !== "string") return [fieldError("region", "region is required")];
  const record = context.state.regions.get(region);
  if (!record) return [fieldError("region", `Region ${region} does not exist`)];
  if (!record.capabilities.includes(regionCapability)) {
    return [fieldError("region", `Load balancers are not available in region ${region}`)];
  }
  return [];
}

function labelErrors(context: HandlerContext, label: unknown, exceptId?: number): ApiErrorItem[] {
  if (label === undefined) return [];
  if (typeof label !== "string") return [fieldError("label", "label must be a string")];
  return labelTaken(context, label, exceptId)
    ? [fieldError("label", `Label ${label} is already used by another load balancer`)]
    : [];
}

function tagsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === "string") : [];
}

function createNodeBalancer(context: HandlerContext): Reply {
  const body = bodyOf(context);
  const errors = [...regionErrors(context, body.region), ...labelErrors(context, body.label)];
  if (errors.length > 0) return badRequest(errors);
  const region = body.region as string;
  const id = context.state.nextId("nodeBalancer");
  const now = timestamp(context);
  const record: NodeBalancerRecord = {
    id,
    label: typeof body.label === "string" ? body.label : generatedLabel(context, id),
    region,
    ...addressesFor(id, region, context.state.balancerOffset),
    client_conn_throttle:
      typeof body.client_conn_throttle === "number" ? body.client_conn_throttle : defaultThrottle,
    tags: tagsOf(body.tags),
    created: now,
    updated: now,
  };
  context.state.nodeBalancers.set(id, record);
  context.events.record("nodebalancer_create", nodeBalancerEntity(context, record));
  return ok(presentNodeBalancer(record));
}

function updateNodeBalancer(context: HandlerContext): Reply {
  const record = findNodeBalancer(context);
  if (!record) return notFound();
  const body = bodyOf(context);
  const errors = labelErrors(context, body.label, record.id);
  if (errors.length > 0) return badRequest(errors);
  if (typeof body.label === "string") record.label = body.label;
  if (typeof body.client_conn_throttle === "number") record.client_conn_throttle = body.client_conn_throttle;
  if (has(body, "tags")) record.tags = tagsOf(body.tags);
  record.updated = timestamp(context);
  context.events.record("nodebalancer_update", nodeBalancerEntity(context, record));
  return ok(presentNodeBalancer(record));
}

async function deleteNodeBalancer(context: HandlerContext): Promise<Reply> {
  const record = findNodeBalancer(context);
  if (!record) return notFound();
  for (const config of configsOf(context, record.id)) {
    context.health.unwatch(config.id);
    await context.dataPlane.stop(config.id);
    for (const node of nodesOf(context, config.id)) context.state.nodes.delete(node.id);
    context.state.configs.delete(config.id);
  }
  context.state.nodeBalancers.delete(record.id);
  context.events.record("nodebalancer_delete", nodeBalancerEntity(context, record));
  return ok({});
}

export const nodeBalancerHandlers: HandlerMap = {
  getNodeBalancers: (context) =>
    listReply(context, [...context.state.nodeBalancers.values()].map(presentNodeBalancer)),
  createNodeBalancer,
  getNodeBalancer: (context) => {
    const record = findNodeBalancer(context);
    return record ? ok(presentNodeBalancer(record)) : notFound();
  },
  updateNodeBalancer,
  deleteNodeBalancer,
};
