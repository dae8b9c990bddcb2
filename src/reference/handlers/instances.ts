/**
 * Compute instances: create, list, read, update, delete, the power actions and the per-instance address view.
 * The spec validated each body's shape before these run; the rules here are the semantic ones (facts.md).
 *
 * Choices beyond the description and facts.md:
 * - create reports every problem at once: unknown region, unknown type, label taken, weak root_pass, and an
 *   image with no credential (no field: no single field is at fault);
 * - labels are unique per account, compared exactly; a generated label is `compute<id>`, with `-2`, `-3`, ...
 *   appended in the rare case a user already took that name;
 * - root_pass is scored against the account's own words (see password-strength.ts), checked, and dropped: no
 *   record keeps it and no timer closure holds the request;
 * - every instance gets one public IPv4 (its own address record, rdns set) and one SLAAC IPv6 at creation;
 * - delete marks the instance not running and tells node health before removing it and its addresses, so
 *   back-end nodes on it go down (health.ts finds a node's instance through the instance's addresses).
 * Power-action transitions are in instance-lifecycle.ts.
 * @module
 */

import {
  linkLocalAddress,
  publicIpv4Record,
  publicPool,
  slaacAddress,
  takeAddress,
} from "../address-pool.ts";
import type { HandlerContext, HandlerMap } from "../context.ts";
import { notFound } from "../errors.ts";
import { type ApiErrorItem, badRequest, fieldError, ok, type Reply } from "../http/reply.ts";
import { isStrongPassword } from "../password-strength.ts";
import type { InstanceRecord, ReferenceState } from "../state.ts";
import {
  applyPowerAction,
  cancelLifecycle,
  instanceEntity,
  lifecycleServices,
  type PowerAction,
  setStatus,
  startProvisioning,
} from "./instance-lifecycle.ts";
import { presentIp } from "./ips.ts";
import { bodyOf, has, intParam, listReply, timestamp } from "./shared.ts";

export const instanceReasons = Object.freeze({
  weakPassword: "Password does not meet strength requirement",
  noCredential: "Must provide valid root_pass, authorized_keys, or authorized_users",
  unknownRegion: (region: string) => `Region ${region} does not exist`,
  unknownType: (type: string) => `Type ${type} does not exist`,
  labelTaken: (label: string) => `Label ${label} is already used by another compute instance`,
  noPublicAddress: "No public IPv4 address is left to assign",
});

/** The instance as the API shows it: specs come from its type; nothing secret is stored to leak. */
export function presentInstance(instance: InstanceRecord, state: ReferenceState) {
  const type = state.types.get(instance.type);
  return {
    id: instance.id,
    label: instance.label,
    region: instance.region,
    type: instance.type,
    image: instance.image,
    group: instance.group,
    tags: [...instance.tags],
    status: instance.status,
    ipv4: [...instance.ipv4],
    ipv6: instance.ipv6,
    specs: {
      disk: type?.disk ?? 0,
      memory: type?.memory ?? 0,
      vcpus: type?.vcpus ?? 0,
      gpus: type?.gpus ?? 0,
      transfer: type?.transfer ?? 0,
    },
    created: instance.created,
    updated: instance.updated,
    hypervisor: instance.hypervisor,
  };
}

function labelTaken(state: ReferenceState, label: string, except?: number): boolean {
  for (const instance of state.instances.values()) {
    if (instance.label === label && instance.id !== except) return true;
  }
  return false;
}

function generatedLabel(state: ReferenceState, id: number): string {
  const base = `compute${id}`;
  let label = base;
  for (let n = 2; labelTaken(state, label); n += 1) label = `${base}-${n}`;
  return label;
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];

function findInstance(context: HandlerContext): InstanceRecord | undefined {
  return context.state.instances.get(intParam(context, "computeId"));
}

function createInstance(context: HandlerContext): Reply {
  const body = bodyOf(context);
  const { state } = context;
  const errors: ApiErrorItem[] = [];
  const region = text(body.region) ?? "";
  const type = text(body.type) ?? "";
  const label = text(body.label);
  const image = text(body.image) ?? null;
  const group = text(body.group) ?? "";
  const tags = texts(body.tags);
  if (!state.regions.has(region)) errors.push(fieldError("region", instanceReasons.unknownRegion(region)));
  if (!state.types.has(type)) errors.push(fieldError("type", instanceReasons.unknownType(type)));
  if (label !== undefined && labelTaken(state, label))
    errors.push(fieldError("label", instanceReasons.labelTaken(label)));

  const rootPass = text(body.root_pass);
  if (rootPass !== undefined) {
    const userInputs = [label ?? "", group, ...tags, state.user.username, state.user.email];
    if (!isStrongPassword(rootPass, userInputs))
      errors.push(fieldError("root_pass", instanceReasons.weakPassword));
  }
  const hasCredential =
    rootPass !== undefined ||
    texts(body.authorized_keys).length > 0 ||
    texts(body.authorized_users).length > 0;
  if (image !== null && !hasCredential) errors.push({ reason: instanceReasons.noCredential });
  if (errors.length > 0) return badRequest(errors);

  const publicAddress = takeAddress(state, publicPool);
  if (publicAddress === undefined) return badRequest([{ reason: instanceReasons.noPublicAddress }]);
  const id = state.nextId("instance");
  const now = timestamp(context);
  const instance: InstanceRecord = {
    id,
    label: label ?? generatedLabel(state, id),
    region,
    type,
    image,
    group,
    tags,
    status: "provisioning",
    ipv4: [publicAddress],
    ipv6: `${slaacAddress(id)}/128`,
    hypervisor: "kvm",
    created: now,
    updated: now,
  };
  state.instances.set(id, instance);
  state.ips.set(publicAddress, publicIpv4Record(publicAddress, id, region));
  startProvisioning(lifecycleServices(context), instance, body.booted !== false);
  context.events.record("compute_create", instanceEntity(instance));
  return ok(presentInstance(instance, state));
}

function updateInstance(context: HandlerContext): Reply {
  const instance = findInstance(context);
  if (!instance) return notFound();
  const body = bodyOf(context);
  const label = text(body.label);
  if (label !== undefined && labelTaken(context.state, label, instance.id))
    return badRequest([fieldError("label", instanceReasons.labelTaken(label))]);
  if (label !== undefined) instance.label = label;
  if (has(body, "group")) instance.group = text(body.group) ?? "";
  if (has(body, "tags")) instance.tags = texts(body.tags);
  instance.updated = timestamp(context);
  context.events.record("compute_update", instanceEntity(instance));
  return ok(presentInstance(instance, context.state));
}

function deleteInstance(context: HandlerContext): Reply {
  const instance = findInstance(context);
  if (!instance) return notFound();
  const { state } = context;
  cancelLifecycle(lifecycleServices(context), instance);
  // While the record still lists its addresses, so health finds the nodes on it and sees it not running.
  setStatus(lifecycleServices(context), instance, "offline");
  for (const [address, ip] of state.ips) {
    if (ip.compute_id === instance.id) state.ips.delete(address);
  }
  state.instances.delete(instance.id);
  context.events.record("compute_delete", instanceEntity(instance));
  return ok({});
}

function powerAction(action: PowerAction) {
  return (context: HandlerContext): Reply => {
    const instance = findInstance(context);
    if (!instance) return notFound();
    const refused = applyPowerAction(lifecycleServices(context), instance, action);
    // The action's event (started, then finished) is recorded by the lifecycle step it starts.
    if (refused !== undefined) return badRequest([{ reason: refused }]);
    return ok({});
  };
}

/** `GET /compute/instances/{id}/ips`: addresses grouped by family and visibility, as the real service shows. */
function instanceIps(context: HandlerContext): Reply {
  const instance = findInstance(context);
  if (!instance) return notFound();
  const ips = [...context.state.ips.values()].filter((ip) => ip.compute_id === instance.id);
  const ipv6Record = (address: string, prefix: number, isPublic: boolean, gateway: string | null) => ({
    address,
    gateway,
    subnet_mask: "ffff:ffff:ffff:ffff::",
    prefix,
    type: "ipv6",
    public: isPublic,
    rdns: null,
    compute_id: instance.id,
    region: instance.region,
  });
  return ok({
    ipv4: {
      public: ips.filter((ip) => ip.public).map(presentIp),
      private: ips.filter((ip) => !ip.public).map(presentIp),
      shared: [],
      reserved: [],
    },
    ipv6: {
      slaac: instance.ipv6 === null ? null : ipv6Record(slaacAddress(instance.id), 64, true, "fe80::1"),
      link_local: ipv6Record(linkLocalAddress(instance.id), 64, false, "fe80::1"),
      global: [],
    },
  });
}

export const instanceHandlers: HandlerMap = {
  getComputeInstances: (context) =>
    listReply(
      context,
      [...context.state.instances.values()].map((instance) => presentInstance(instance, context.state)),
    ),
  createComputeInstance: createInstance,
  getComputeInstance: (context) => {
    const instance = findInstance(context);
    return instance ? ok(presentInstance(instance, context.state)) : notFound();
  },
  updateComputeInstance: updateInstance,
  deleteComputeInstance: deleteInstance,
  bootComputeInstance: powerAction("boot"),
  rebootComputeInstance: powerAction("reboot"),
  shutdownComputeInstance: powerAction("shutdown"),
  getComputeInstanceIPs: instanceIps,
};
