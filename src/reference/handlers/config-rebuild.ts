/**
 * `POST .../configs/{configId}/rebuild`: profile fields to change plus the complete node set, checked as a
 * whole before anything changes. Profile problems name their field (`port`), node problems their place in the
 * set (`nodes[1].address`). Nodes given with an `id` of this profile are kept and updated, nodes without one
 * are created, the profile's other nodes are deleted.
 *
 * Choices beyond the description: an `id` that is not a node of this profile, or appears twice, is refused on
 * `nodes[i].id`; labels must be unique within the new set (the later duplicate is the one named); a kept node
 * keeps its weight and mode unless given; one `nodebalancer_config_rebuild` event covers the whole change.
 * @module
 */
import type { HandlerContext } from "../context.ts";
import { notFound } from "../errors.ts";
import { type ApiErrorItem, badRequest, fieldError, ok, type Reply } from "../http/reply.ts";
import type { NodeRecord } from "../state.ts";
import { configEntity, findConfig, nodesOf } from "./balancer-shared.ts";
import { configEventLabel, presentConfig } from "./config-present.ts";
import { applyProfile, draftProfile } from "./config-rules.ts";
import { applyNode, draftNode, type NodeDraft } from "./node-rules.ts";
import { bodyOf } from "./shared.ts";

interface PlannedNode {
  readonly current: NodeRecord | undefined;
  readonly draft: NodeDraft;
}

function asObject(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export async function rebuildNodeBalancerConfig(context: HandlerContext): Promise<Reply> {
  const found = findConfig(context);
  if (!found) return notFound();
  const { nodeBalancer, config } = found;
  const body = bodyOf(context);
  const errors: ApiErrorItem[] = [];
  const profile = draftProfile(context, nodeBalancer, body, config);
  if (!profile.ok) errors.push(...profile.errors);

  const existing = new Map(nodesOf(context, config.id).map((node) => [node.id, node]));
  const items = Array.isArray(body.nodes) ? body.nodes : [];
  if (!Array.isArray(body.nodes)) errors.push(fieldError("nodes", "nodes is required (an array of nodes)"));
  const labels = new Set<string>();
  const keptIds = new Set<number>();
  const planned: PlannedNode[] = [];
  items.forEach((value, index) => {
    const prefix = `nodes[${index}].`;
    const item = asObject(value);
    if (!item) {
      errors.push(fieldError(`nodes[${index}]`, `nodes[${index}] must be an object`));
      return;
    }
    let current: NodeRecord | undefined;
    if (item.id !== undefined) {
      current = typeof item.id === "number" ? existing.get(item.id) : undefined;
      if (!current) {
        errors.push(
          fieldError(`${prefix}id`, `${prefix}id ${String(item.id)} is not a node of this profile`),
        );
      } else if (keptIds.has(current.id)) {
        errors.push(fieldError(`${prefix}id`, `${prefix}id ${current.id} appears more than once`));
        current = undefined;
      } else keptIds.add(current.id);
    }
    const result = draftNode(context, nodeBalancer, item, {
      prefix,
      labelTaken: (label) => labels.has(label),
      ...(current ? { current } : {}),
    });
    if (typeof item.label === "string") labels.add(item.label);
    if (!result.ok) errors.push(...result.errors);
    else planned.push({ current, draft: result.draft });
  });
  if (errors.length > 0 || !profile.ok) return badRequest(errors);

  applyProfile(config, profile.draft);
  for (const node of existing.values()) {
    if (!keptIds.has(node.id)) context.state.nodes.delete(node.id);
  }
  for (const { current, draft } of planned) {
    if (current) {
      applyNode(current, draft);
      continue;
    }
    const record: NodeRecord = {
      id: context.state.nextId("node"),
      config_id: config.id,
      nodebalancer_id: nodeBalancer.id,
      ...draft,
      status: "Unknown",
      failures: 0,
    };
    context.state.nodes.set(record.id, record);
  }
  context.events.record(
    "nodebalancer_config_rebuild",
    configEntity(context, config, configEventLabel(config)),
  );
  const reply = ok(presentConfig(config, context.state));
  context.health.watch(config);
  await context.dataPlane.sync(config);
  return reply;
}
