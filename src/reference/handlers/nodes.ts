/**
 * Back-end nodes of a configuration profile (`.../configs/{configId}/nodes`), and the deprecated alias that
 * creates one at the path the description shows for endpoint 5 (`POST .../configs/{configId}`), answering 299
 * with the node and a `warnings` array. The rules live in `node-rules.ts`.
 *
 * A new node is `Unknown` (counted as down) until the profile's next probe, which is started at once without
 * being awaited, so the create answer always shows `Unknown`. Choices beyond the description: an update that
 * keeps a node's address or label does not re-check it (the instance may have gone since); one that changes
 * the address makes the node `Unknown` again and probes at once.
 * @module
 */
import type { HandlerContext, HandlerMap } from "../context.ts";
import { notFound } from "../errors.ts";
import { badRequest, ok, type Reply } from "../http/reply.ts";
import type { NodeRecord } from "../state.ts";
import { findConfig, findNode, nodeEntity, nodesOf } from "./balancer-shared.ts";
import { applyNode, draftNode, probeSoon } from "./node-rules.ts";
import { bodyOf, listReply } from "./shared.ts";

export const deprecationWarning =
  "This endpoint is deprecated; use POST /nodebalancers/{nodeBalancerId}/configs/{configId}/nodes";

export function presentNode(record: NodeRecord): Record<string, unknown> {
  return {
    id: record.id,
    label: record.label,
    address: record.address,
    status: record.status,
    weight: record.weight,
    mode: record.mode,
    config_id: record.config_id,
    nodebalancer_id: record.nodebalancer_id,
  };
}

/** A label test over the profile's nodes, leaving one node out (the one being updated). */
function labelTakenIn(context: HandlerContext, configId: number, exceptId?: number) {
  const others = nodesOf(context, configId).filter((node) => node.id !== exceptId);
  return (label: string) => others.some((node) => node.label === label);
}

function createNode(context: HandlerContext): Reply {
  const found = findConfig(context);
  if (!found) return notFound();
  const { nodeBalancer, config } = found;
  const result = draftNode(context, nodeBalancer, bodyOf(context), {
    labelTaken: labelTakenIn(context, config.id),
  });
  if (!result.ok) return badRequest(result.errors);
  const record: NodeRecord = {
    id: context.state.nextId("node"),
    config_id: config.id,
    nodebalancer_id: nodeBalancer.id,
    ...result.draft,
    status: "Unknown",
    failures: 0,
  };
  context.state.nodes.set(record.id, record);
  context.events.record("nodebalancer_node_create", nodeEntity(context, record));
  const reply = ok(presentNode(record));
  probeSoon(context, config.id);
  return reply;
}

/** The deprecated alias: the same creation, answered 299 with the deprecation warning beside the node. */
function createNodeDeprecated(context: HandlerContext): Reply {
  const reply = createNode(context);
  if (reply.status !== 200) return reply;
  return { status: 299, body: { ...(reply.body as object), warnings: [deprecationWarning] } };
}

function updateNode(context: HandlerContext): Reply {
  const found = findNode(context);
  if (!found) return notFound();
  const { nodeBalancer, config, node } = found;
  const result = draftNode(context, nodeBalancer, bodyOf(context), {
    current: node,
    labelTaken: labelTakenIn(context, config.id, node.id),
  });
  if (!result.ok) return badRequest(result.errors);
  const moved = node.address !== result.draft.address;
  applyNode(node, result.draft);
  context.events.record("nodebalancer_node_update", nodeEntity(context, node));
  const reply = ok(presentNode(node));
  if (moved) probeSoon(context, config.id);
  return reply;
}

function deleteNode(context: HandlerContext): Reply {
  const found = findNode(context);
  if (!found) return notFound();
  context.state.nodes.delete(found.node.id);
  context.events.record("nodebalancer_node_delete", nodeEntity(context, found.node));
  return ok({});
}

export const nodeHandlers: HandlerMap = {
  createNodeBalancerNodeDeprecated: createNodeDeprecated,
  getNodeBalancerConfigNodes: (context) => {
    const found = findConfig(context);
    if (!found) return notFound();
    return listReply(context, nodesOf(context, found.config.id).map(presentNode));
  },
  createNodeBalancerConfigNode: createNode,
  getNodeBalancerConfigNode: (context) => {
    const found = findNode(context);
    return found ? ok(presentNode(found.node)) : notFound();
  },
  updateNodeBalancerConfigNode: updateNode,
  deleteNodeBalancerConfigNode: deleteNode,
};
