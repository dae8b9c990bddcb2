/**
 * Lookups and event entities shared by the load balancer, profile and node handlers. A profile is found only
 * under the load balancer that owns it, a node only under its profile: a wrong parent answers 404 like an
 * unknown id.
 * @module
 */
import type { HandlerContext } from "../context.ts";
import type { EventEntity } from "../events.ts";
import type { ConfigRecord, NodeBalancerRecord, NodeRecord } from "../state.ts";
import { intParam } from "./shared.ts";

export function findNodeBalancer(context: HandlerContext): NodeBalancerRecord | undefined {
  return context.state.nodeBalancers.get(intParam(context, "nodeBalancerId"));
}

/** The profile of the path, when it belongs to the path's load balancer. */
export function findConfig(
  context: HandlerContext,
): { nodeBalancer: NodeBalancerRecord; config: ConfigRecord } | undefined {
  const nodeBalancer = findNodeBalancer(context);
  const config = context.state.configs.get(intParam(context, "configId"));
  if (!nodeBalancer || !config || config.nodebalancer_id !== nodeBalancer.id) return undefined;
  return { nodeBalancer, config };
}

/** The node of the path, when it belongs to the path's profile and load balancer. */
export function findNode(
  context: HandlerContext,
): { nodeBalancer: NodeBalancerRecord; config: ConfigRecord; node: NodeRecord } | undefined {
  const parent = findConfig(context);
  const node = context.state.nodes.get(intParam(context, "nodeId"));
  if (!parent || !node || node.config_id !== parent.config.id) return undefined;
  return { ...parent, node };
}

/** The nodes of one profile, in creation order. */
export function nodesOf(context: HandlerContext, configId: number): NodeRecord[] {
  return [...context.state.nodes.values()].filter((node) => node.config_id === configId);
}

/** The profiles of one load balancer, in creation order. */
export function configsOf(context: HandlerContext, nodeBalancerId: number): ConfigRecord[] {
  return [...context.state.configs.values()].filter((config) => config.nodebalancer_id === nodeBalancerId);
}

/** The API's path prefix (`/v4`), for event entity URLs. */
function apiPath(context: HandlerContext): string {
  try {
    return new URL(context.urls.baseUrl).pathname.replace(/\/$/, "");
  } catch {
    return "/v4";
  }
}

export function nodeBalancerEntity(context: HandlerContext, record: NodeBalancerRecord): EventEntity {
  return {
    id: record.id,
    label: record.label,
    type: "nodebalancer",
    url: `${apiPath(context)}/nodebalancers/${record.id}`,
  };
}

export function configEntity(context: HandlerContext, record: ConfigRecord, label: string): EventEntity {
  return {
    id: record.id,
    label,
    type: "nodebalancer_config",
    url: `${apiPath(context)}/nodebalancers/${record.nodebalancer_id}/configs/${record.id}`,
  };
}

export function nodeEntity(context: HandlerContext, record: NodeRecord): EventEntity {
  return {
    id: record.id,
    label: record.label,
    type: "nodebalancer_node",
    url: `${apiPath(context)}/nodebalancers/${record.nodebalancer_id}/configs/${record.config_id}/nodes/${record.id}`,
  };
}
