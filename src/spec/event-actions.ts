/**
 * Which write records which event in the account's feed: a fact of this API the description leaves out ("Which
 * operations emit which events: not shown"), with the real service's action names (docs/api/facts.md, `linode`
 * written `compute`). The one place it is written: the events suite and the `observed-write-recorded` check judge
 * by it; the reference server's handlers follow it, held to it by test/reference/events.test.ts.
 * @module
 */

/** An event's action and the `entity.type` it names, for one write. */
export interface EventKind {
  readonly action: string;
  readonly entityType: string;
}

/**
 * Which write (by operationId) records which event. Deletes record `<kind>_delete` too; the boot, reboot and
 * shutdown actions record a `started` event that becomes `finished` when the instance reaches its status.
 */
export const eventActions: Readonly<Record<string, EventKind>> = {
  createNodeBalancer: { action: "nodebalancer_create", entityType: "nodebalancer" },
  updateNodeBalancer: { action: "nodebalancer_update", entityType: "nodebalancer" },
  deleteNodeBalancer: { action: "nodebalancer_delete", entityType: "nodebalancer" },
  createNodeBalancerConfig: { action: "nodebalancer_config_create", entityType: "nodebalancer_config" },
  updateNodeBalancerConfig: { action: "nodebalancer_config_update", entityType: "nodebalancer_config" },
  rebuildNodeBalancerConfig: { action: "nodebalancer_config_rebuild", entityType: "nodebalancer_config" },
  deleteNodeBalancerConfig: { action: "nodebalancer_config_delete", entityType: "nodebalancer_config" },
  createNodeBalancerConfigNode: { action: "nodebalancer_node_create", entityType: "nodebalancer_node" },
  createNodeBalancerNodeDeprecated: { action: "nodebalancer_node_create", entityType: "nodebalancer_node" },
  updateNodeBalancerConfigNode: { action: "nodebalancer_node_update", entityType: "nodebalancer_node" },
  deleteNodeBalancerConfigNode: { action: "nodebalancer_node_delete", entityType: "nodebalancer_node" },
  createComputeInstance: { action: "compute_create", entityType: "compute" },
  updateComputeInstance: { action: "compute_update", entityType: "compute" },
  deleteComputeInstance: { action: "compute_delete", entityType: "compute" },
  bootComputeInstance: { action: "compute_boot", entityType: "compute" },
  rebootComputeInstance: { action: "compute_reboot", entityType: "compute" },
  shutdownComputeInstance: { action: "compute_shutdown", entityType: "compute" },
  allocateIP: { action: "ipaddress_allocate", entityType: "ipaddress" },
  updateIP: { action: "ipaddress_update", entityType: "ipaddress" },
  createPersonalAccessToken: { action: "token_create", entityType: "token" },
  deletePersonalAccessToken: { action: "token_delete", entityType: "token" },
  createOAuthClient: { action: "oauth_client_create", entityType: "oauth_client" },
  updateOAuthClient: { action: "oauth_client_update", entityType: "oauth_client" },
  deleteOAuthClient: { action: "oauth_client_delete", entityType: "oauth_client" },
};
