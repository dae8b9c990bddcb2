/**
 * IP addresses: list, allocate to an instance, read, and set reverse DNS. Pools and record shapes are in
 * address-pool.ts.
 *
 * Choices beyond the description and facts.md:
 * - allocation reports every problem at once (type, compute_id); an instance holds at most one private IPv4
 *   (a second one is refused on field `public`), any number of public ones;
 * - a new address is appended to its instance's `ipv4`, and node health is told (a node may name it);
 * - rdns can be set on public addresses only (private ones have none: 400 on field `rdns`); null restores the
 *   default `<dashed address>.ip.example.net`; a name must be a syntactically valid host name (the real service
 *   also checks forward DNS, which a sandbox cannot);
 * - only IPv4 records are kept: the IPv6 addresses shown by `GET /compute/instances/{id}/ips` are not listed here.
 * Events: `ipaddress_allocate`, `ipaddress_update`, each about the address.
 * @module
 */
import {
  defaultRdns,
  privateIpv4Record,
  privatePool,
  publicIpv4Record,
  publicPool,
  takeAddress,
} from "../address-pool.ts";
import type { HandlerContext, HandlerMap } from "../context.ts";
import { notFound } from "../errors.ts";
import type { EventEntity } from "../events.ts";
import { type ApiErrorItem, badRequest, fieldError, ok, type Reply } from "../http/reply.ts";
import type { IpRecord } from "../state.ts";
import { bodyOf, listReply, stringParam, timestamp } from "./shared.ts";

export const ipReasons = Object.freeze({
  onlyIpv4: "Only addresses of type ipv4 are currently supported.",
  typeRequired: "type is required",
  unknownInstance: (id: unknown) => `Compute instance ${String(id)} does not exist`,
  publicNotBoolean: "public must be true or false",
  onePrivate: (id: number, address: string) =>
    `Compute instance ${id} already has a private IPv4 address (${address}); an instance can have only one`,
  poolSpent: (range: string) => `No address is left in ${range}`,
  privateRdns: "Reverse DNS can only be set on a public address",
  badRdns: "rdns must be a valid host name (labels of letters, digits and hyphens, at most 253 characters)",
});

/** The address as the API shows it (every field is public information). */
export function presentIp(ip: IpRecord) {
  return {
    address: ip.address,
    gateway: ip.gateway,
    subnet_mask: ip.subnet_mask,
    prefix: ip.prefix,
    type: ip.type,
    public: ip.public,
    rdns: ip.rdns,
    compute_id: ip.compute_id,
    region: ip.region,
  };
}

function entity(ip: IpRecord): EventEntity {
  return { id: ip.address, label: ip.address, type: "ipaddress", url: `/v4/networking/ips/${ip.address}` };
}

const hostLabel = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

function validHostName(name: string): boolean {
  const trimmed = name.endsWith(".") ? name.slice(0, -1) : name;
  return (
    trimmed.length > 0 && trimmed.length <= 253 && trimmed.split(".").every((label) => hostLabel.test(label))
  );
}

function allocate(context: HandlerContext): Reply {
  const body = bodyOf(context);
  const { state } = context;
  const errors: ApiErrorItem[] = [];
  // The real service names no field when refusing another type (facts.md, "Address").
  if (body.type === undefined) errors.push(fieldError("type", ipReasons.typeRequired));
  else if (body.type !== "ipv4") errors.push({ reason: ipReasons.onlyIpv4 });
  const instance = typeof body.compute_id === "number" ? state.instances.get(body.compute_id) : undefined;
  if (!instance) errors.push(fieldError("compute_id", ipReasons.unknownInstance(body.compute_id)));
  if (typeof body.public !== "boolean") errors.push(fieldError("public", ipReasons.publicNotBoolean));
  const isPublic = body.public === true;
  if (instance && body.public === false) {
    const existing = [...state.ips.values()].find((ip) => ip.compute_id === instance.id && !ip.public);
    if (existing) errors.push(fieldError("public", ipReasons.onePrivate(instance.id, existing.address)));
  }
  if (errors.length > 0 || !instance) return badRequest(errors);

  const pool = isPublic ? publicPool : privatePool;
  const address = takeAddress(state, pool);
  if (address === undefined) return badRequest([{ reason: ipReasons.poolSpent(pool.label) }]);
  const record = (isPublic ? publicIpv4Record : privateIpv4Record)(address, instance.id, instance.region);
  state.ips.set(address, record);
  instance.ipv4.push(address);
  instance.updated = timestamp(context);
  context.health.instanceChanged(instance.id);
  context.events.record("ipaddress_allocate", entity(record));
  return ok(presentIp(record));
}

function updateRdns(context: HandlerContext): Reply {
  const ip = context.state.ips.get(stringParam(context, "address"));
  if (!ip) return notFound();
  const { rdns } = bodyOf(context);
  if (!ip.public) return badRequest([fieldError("rdns", ipReasons.privateRdns)]);
  if (rdns !== null && (typeof rdns !== "string" || !validHostName(rdns)))
    return badRequest([fieldError("rdns", ipReasons.badRdns)]);
  ip.rdns = rdns === null ? defaultRdns(ip.address) : rdns;
  context.events.record("ipaddress_update", entity(ip));
  return ok(presentIp(ip));
}

export const ipHandlers: HandlerMap = {
  getIPs: (context) => listReply(context, [...context.state.ips.values()].map(presentIp)),
  allocateIP: allocate,
  getIP: (context) => {
    const ip = context.state.ips.get(stringParam(context, "address"));
    return ip ? ok(presentIp(ip)) : notFound();
  },
  updateIP: updateRdns,
};
