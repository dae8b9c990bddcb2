/**
 * Where the reference server's instance addresses come from, and the address records it keeps.
 *
 * - Public IPv4: 198.19.0.0/16 (RFC 2544 benchmarking space; the load balancers use 198.18.0.0/16), handed out
 *   as /24 networks whose `.1` is the gateway: 198.19.0.2, 198.19.0.3, ... 198.19.0.254, 198.19.1.2, ...
 * - Private IPv4: 192.168.128.0/17 (facts.md), from 192.168.128.1 upwards. Hosts ending in `.0` or `.255` are
 *   skipped in both pools (valid in a /17, but easy to mistake for network or broadcast addresses).
 * - Addresses are sequential per server and never reused, even after their instance is deleted, so an old
 *   address in a report never points at a newer instance.
 * - IPv6: one SLAAC address per instance in 2001:db8::/32 (RFC 3849 documentation space), built from its id
 *   (high and low 16 bits, hex): `2001:db8:c0:<high>:<low>::1` in the /64 `2001:db8:c0:<high>::/64`, shown on
 *   the instance as `<address>/128`; its link-local twin is `fe80::c0:<high>:<low>:1`.
 *
 * The counters live beside the server's state (one pool per ReferenceState), not in module globals.
 * @module
 */
import type { IpRecord, ReferenceState } from "./state.ts";

interface PoolRange {
  readonly label: string;
  /** First address as a 32-bit integer. */
  readonly base: number;
  readonly size: number;
  /** Host bytes (last octet) never handed out. */
  readonly skipLastOctets: readonly number[];
}

export const publicPool: PoolRange = Object.freeze({
  label: "198.19.0.0/16",
  base: toInt("198.19.0.0"),
  size: 2 ** 16,
  skipLastOctets: [0, 1, 255],
});

export const privatePool: PoolRange = Object.freeze({
  label: "192.168.128.0/17",
  base: toInt("192.168.128.0"),
  size: 2 ** 15,
  skipLastOctets: [0, 255],
});

const cursors = new WeakMap<ReferenceState, Map<PoolRange, number>>();

function toInt(address: string): number {
  return address.split(".").reduce((value, octet) => value * 256 + Number(octet), 0);
}

function toDotted(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** The next unused address of a pool, or undefined when the pool is spent. */
export function takeAddress(state: ReferenceState, pool: PoolRange): string | undefined {
  let byPool = cursors.get(state);
  if (!byPool) {
    byPool = new Map();
    cursors.set(state, byPool);
  }
  let offset = byPool.get(pool) ?? 0;
  while (offset < pool.size) {
    const candidate = pool.base + offset;
    offset += 1;
    if (pool.skipLastOctets.includes(candidate % 256)) continue;
    const address = toDotted(candidate);
    if (state.ips.has(address)) continue;
    byPool.set(pool, offset);
    return address;
  }
  byPool.set(pool, offset);
  return undefined;
}

/** The reverse DNS name a public address has until one is set: `198-19-0-2.ip.example.net`. */
export function defaultRdns(address: string): string {
  return `${address.replaceAll(".", "-")}.ip.example.net`;
}

export function publicIpv4Record(address: string, computeId: number, region: string): IpRecord {
  return {
    address,
    gateway: address.replace(/\.\d+$/, ".1"),
    subnet_mask: "255.255.255.0",
    prefix: 24,
    type: "ipv4",
    public: true,
    rdns: defaultRdns(address),
    compute_id: computeId,
    region,
  };
}

export function privateIpv4Record(address: string, computeId: number, region: string): IpRecord {
  return {
    address,
    gateway: null,
    subnet_mask: "255.255.128.0",
    prefix: 17,
    type: "ipv4",
    public: false,
    rdns: null,
    compute_id: computeId,
    region,
  };
}

function idGroups(instanceId: number): string {
  return `${Math.floor(instanceId / 65536).toString(16)}:${(instanceId % 65536).toString(16)}`;
}

/** The instance's SLAAC IPv6 address (no prefix length). */
export function slaacAddress(instanceId: number): string {
  return `2001:db8:c0:${idGroups(instanceId)}::1`;
}

export function linkLocalAddress(instanceId: number): string {
  return `fe80::c0:${idGroups(instanceId)}:1`;
}
