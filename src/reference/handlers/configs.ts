/**
 * Configuration profiles of a load balancer (`/nodebalancers/{id}/configs`): one port each, its protocol,
 * balancing and health checks. The rules live in `config-rules.ts`, the rebuild in `config-rebuild.ts`.
 *
 * Presentation is in `config-present.ts` (ssl_cert and ssl_key never echoed, nodes_status computed at read).
 * After a create or an update the profile's probe loop is (re)started (`health.watch`) and it listens on its port
 * (`dataPlane.sync`, resolved before the answer); on delete both stop.
 * Deleting a profile deletes its nodes (one `nodebalancer_config_delete` event covers them). Events name a
 * profile by its label, or `<protocol>:<port>` when it has none.
 * @module
 */
import type { HandlerContext, HandlerMap } from "../context.ts";
import { notFound } from "../errors.ts";
import { badRequest, ok, type Reply } from "../http/reply.ts";
import { configEntity, configsOf, findConfig, findNodeBalancer, nodesOf } from "./balancer-shared.ts";
import { configEventLabel, presentConfig } from "./config-present.ts";
import { rebuildNodeBalancerConfig } from "./config-rebuild.ts";
import { applyProfile, draftProfile, type ProfileRecord } from "./config-rules.ts";
import { bodyOf, listReply } from "./shared.ts";

async function createConfig(context: HandlerContext): Promise<Reply> {
  const nodeBalancer = findNodeBalancer(context);
  if (!nodeBalancer) return notFound();
  const result = draftProfile(context, nodeBalancer, bodyOf(context));
  if (!result.ok) return badRequest(result.errors);
  const record: ProfileRecord = {
    id: context.state.nextId("config"),
    nodebalancer_id: nodeBalancer.id,
    ...result.draft,
  };
  context.state.configs.set(record.id, record);
  context.health.watch(record);
  await context.dataPlane.sync(record);
  context.events.record(
    "nodebalancer_config_create",
    configEntity(context, record, configEventLabel(record)),
  );
  return ok(presentConfig(record, context.state));
}

async function updateConfig(context: HandlerContext): Promise<Reply> {
  const found = findConfig(context);
  if (!found) return notFound();
  const { nodeBalancer, config } = found;
  const result = draftProfile(context, nodeBalancer, bodyOf(context), config);
  if (!result.ok) return badRequest(result.errors);
  applyProfile(config, result.draft);
  context.health.watch(config);
  await context.dataPlane.sync(config);
  context.events.record(
    "nodebalancer_config_update",
    configEntity(context, config, configEventLabel(config)),
  );
  return ok(presentConfig(config, context.state));
}

async function deleteConfig(context: HandlerContext): Promise<Reply> {
  const found = findConfig(context);
  if (!found) return notFound();
  const { config } = found;
  context.health.unwatch(config.id);
  await context.dataPlane.stop(config.id);
  for (const node of nodesOf(context, config.id)) context.state.nodes.delete(node.id);
  context.state.configs.delete(config.id);
  context.events.record(
    "nodebalancer_config_delete",
    configEntity(context, config, configEventLabel(config)),
  );
  return ok({});
}

export const configHandlers: HandlerMap = {
  getNodeBalancerConfigs: (context) => {
    const nodeBalancer = findNodeBalancer(context);
    if (!nodeBalancer) return notFound();
    const configs = configsOf(context, nodeBalancer.id);
    return listReply(
      context,
      configs.map((config) => presentConfig(config, context.state)),
    );
  },
  createNodeBalancerConfig: createConfig,
  getNodeBalancerConfig: (context) => {
    const found = findConfig(context);
    return found ? ok(presentConfig(found.config, context.state)) : notFound();
  },
  updateNodeBalancerConfig: updateConfig,
  deleteNodeBalancerConfig: deleteConfig,
  rebuildNodeBalancerConfig,
};
