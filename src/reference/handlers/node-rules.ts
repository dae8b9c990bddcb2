/**
 * The rules of a back-end node, shared by node create/update and the profile rebuild (which reports them
 * under `nodes[i].<field>`). The spec already checked the label pattern, the address shape, weight and mode.
 *
 * Rules (facts.md, the description, and the sandbox network of ARCHITECTURE.md):
 * - label: 3..32 of `[a-zA-Z0-9._-]`, unique among the nodes of its profile (exact comparison);
 * - address: `<ipv4>:<port>`, port 1..65535; the IPv4 must be private, which in the reference server's sandbox
 *   means 192.168.0.0/16 (other RFC 1918 ranges pass the spec but are refused here); and it must be the private
 *   address of a compute instance (an `ips` record, not public, with a compute_id whose instance exists) in the
 *   load balancer's region;
 * - weight 1..255 (default 50), mode accept|reject|drain|backup (default accept).
 * Omitted fields keep the current node's values (update, rebuild of a kept node) or take the defaults.
 * @module
 */
import type { HandlerContext } from "../context.ts";
import { type ApiErrorItem, fieldError } from "../http/reply.ts";
import type { NodeBalancerRecord, NodeRecord } from "../state.ts";

export type NodeDraft = Pick<NodeRecord, "label" | "address" | "weight" | "mode">;

const nodeDefaults = { weight: 50, mode: "accept" } as const;
const modes: readonly NodeRecord["mode"][] = ["accept", "reject", "drain", "backup"];
const labelPattern = /^[a-zA-Z0-9._-]{3,32}$/;
const addressPattern = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/;

type Body = Readonly<Record<string, unknown>>;

/** Why an address cannot be a node of this load balancer (to follow the field's name), or undefined. */
export function addressProblem(
  context: HandlerContext,
  nodeBalancer: NodeBalancerRecord,
  address: string,
): string | undefined {
  const match = addressPattern.exec(address);
  const octets = match ? match.slice(1, 5).map(Number) : [];
  if (!match || octets.some((octet) => octet > 255)) {
    return `must be <private_ipv4>:<port> (e.g. 192.168.130.10:80), not ${address}`;
  }
  const port = Number(match[5]);
  if (port < 1 || port > 65535) return `port must be from 1 to 65535, not ${port}`;
  const ip = octets.join(".");
  if (octets[0] !== 192 || octets[1] !== 168) {
    return `must be a private IPv4 address (192.168.0.0/16); ${ip} is not private`;
  }
  const record = context.state.ips.get(ip);
  const instance =
    record && !record.public && typeof record.compute_id === "number"
      ? context.state.instances.get(record.compute_id)
      : undefined;
  if (!instance || instance.region !== nodeBalancer.region) {
    return `must be the private IPv4 address of a compute instance in the load balancer's region (${nodeBalancer.region}); ${ip} is not`;
  }
  return undefined;
}

export type NodeDraftResult =
  | { readonly ok: true; readonly draft: NodeDraft }
  | { readonly ok: false; readonly errors: ApiErrorItem[] };

/**
 * The node a request asks for, checked. `prefix` is put before field names (`nodes[1].` in a rebuild);
 * `labelTaken` says whether another node of the same profile already has a label.
 */
export function draftNode(
  context: HandlerContext,
  nodeBalancer: NodeBalancerRecord,
  body: Body,
  options: {
    readonly current?: NodeRecord;
    readonly prefix?: string;
    readonly labelTaken: (label: string) => boolean;
  },
): NodeDraftResult {
  const { current, prefix = "", labelTaken } = options;
  const errors: ApiErrorItem[] = [];
  const field = (name: string) => `${prefix}${name}`;

  const label = typeof body.label === "string" ? body.label : current?.label;
  if (label === undefined) errors.push(fieldError(field("label"), `${field("label")} is required`));
  else if (!labelPattern.test(label)) {
    errors.push(
      fieldError(field("label"), `${field("label")} must be 3 to 32 letters, digits, '.', '_' or '-'`),
    );
  } else if (labelTaken(label)) {
    errors.push(fieldError(field("label"), `Label ${label} is already used by another node of this profile`));
  }

  const address = typeof body.address === "string" ? body.address : current?.address;
  if (address === undefined) errors.push(fieldError(field("address"), `${field("address")} is required`));
  else if (address !== current?.address) {
    const problem = addressProblem(context, nodeBalancer, address);
    if (problem) errors.push(fieldError(field("address"), `${field("address")} ${problem}`));
  }

  const weight = typeof body.weight === "number" ? body.weight : (current?.weight ?? nodeDefaults.weight);
  if (!Number.isInteger(weight) || weight < 1 || weight > 255) {
    errors.push(fieldError(field("weight"), `${field("weight")} must be an integer from 1 to 255`));
  }
  const mode = modes.find((m) => m === body.mode) ?? current?.mode ?? nodeDefaults.mode;

  if (errors.length > 0 || label === undefined || address === undefined) return { ok: false, errors };
  return { ok: true, draft: { label, address, weight, mode } };
}

/** Copies a checked draft onto a node; a new address makes its status `Unknown` until the next probe. */
export function applyNode(record: NodeRecord, draft: NodeDraft): void {
  if (record.address !== draft.address) {
    record.status = "Unknown";
    record.failures = 0;
  }
  record.label = draft.label;
  record.address = draft.address;
  record.weight = draft.weight;
  record.mode = draft.mode;
}

/** Starts a probe round of the profile without waiting for it (a node's first status comes from it). */
export function probeSoon(context: HandlerContext, configId: number): void {
  context.health.probeConfig(configId).catch(() => undefined);
}
