/**
 * The reference server's in-memory state: one collection per resource, integer ids from per-collection
 * counters (deterministic for a given sequence of requests), nothing shared between server instances.
 * Records hold what the server knows; handlers decide what a response shows (secrets are never echoed).
 * @module
 */
import { randomInt } from "node:crypto";
import type { ComputeTypeRecord, RegionRecord } from "./catalogue.ts";

export interface NodeBalancerRecord {
  id: number;
  label: string;
  region: string;
  hostname: string;
  ipv4: string;
  ipv6: string;
  client_conn_throttle: number;
  tags: string[];
  created: string;
  updated: string;
}

export interface ConfigRecord {
  id: number;
  /** Profiles have an optional label in the description (not in the real service). */
  label?: string;
  nodebalancer_id: number;
  port: number;
  protocol: "http" | "https" | "tcp";
  algorithm: "roundrobin" | "leastconn" | "source";
  stickiness: "none" | "table" | "http_cookie";
  check: "none" | "connection" | "http" | "http_body";
  check_interval: number;
  check_timeout: number;
  check_attempts: number;
  check_path: string;
  check_body: string;
  check_passive: boolean;
  proxy_protocol: "none" | "v1" | "v2";
  cipher_suite: "recommended" | "legacy";
  ssl_cert: string | null;
  ssl_key: string | null;
  ssl_commonname: string;
  ssl_fingerprint: string;
}

export type NodeStatus = "Unknown" | "UP" | "DOWN";

export interface NodeRecord {
  id: number;
  config_id: number;
  nodebalancer_id: number;
  label: string;
  /** `<private_ipv4>:<port>` as registered. */
  address: string;
  weight: number;
  mode: "accept" | "reject" | "drain" | "backup";
  status: NodeStatus;
  /** Consecutive failed probes, for `check_attempts`. */
  failures: number;
}

export type InstanceStatus =
  | "provisioning"
  | "offline"
  | "booting"
  | "running"
  | "shutting_down"
  | "rebooting";

export interface InstanceRecord {
  id: number;
  label: string;
  region: string;
  type: string;
  image: string | null;
  group: string;
  tags: string[];
  status: InstanceStatus;
  ipv4: string[];
  ipv6: string | null;
  hypervisor: string;
  created: string;
  updated: string;
  /** Pending lifecycle timer, cancelled on delete or a new action. */
  timer?: NodeJS.Timeout;
  /** The `started` event of the power action the timer ends (finished when it ends, failed when cancelled). */
  pendingEvent?: EventRecord;
}

export interface IpRecord {
  address: string;
  gateway: string | null;
  subnet_mask: string;
  prefix: number;
  type: "ipv4";
  public: boolean;
  rdns: string | null;
  compute_id: number;
  region: string;
}

export interface TokenRecord {
  id: number;
  label: string;
  /** `*` or space-separated scopes, as granted. */
  scopes: string;
  token: string;
  created: string;
  /** Epoch ms; null never expires. */
  expiresAt: number | null;
  kind: "personal" | "oauth";
  /** OAuth tokens: the client that obtained it. */
  clientId?: string;
}

export interface OAuthClientRecord {
  id: string;
  label: string;
  redirect_uri: string;
  public: boolean;
  secret: string;
  status: "active" | "disabled" | "suspended";
  thumbnail_url: string | null;
}

export interface AuthCodeRecord {
  code: string;
  clientId: string;
  scopes: string;
  redirectUri: string;
  expiresAt: number;
}

export interface RefreshTokenRecord {
  token: string;
  clientId: string;
  scopes: string;
}

export interface EventRecord {
  id: number;
  action: string;
  created: string;
  username: string;
  seen: boolean;
  read: boolean;
  status: "failed" | "finished" | "started" | "notification";
  entity: { id: number | string; label: string; type: string; url: string } | null;
  percent_complete: number | null;
}

export interface User {
  readonly username: string;
  readonly password: string;
  readonly email: string;
  readonly uuid: string;
}

/** Counters start apart so an id in a report tells which collection it came from at a glance. */
const firstIds = { nodeBalancer: 1001, config: 2001, node: 3001, instance: 4001, token: 5001, event: 6001 };

export class ReferenceState {
  readonly nodeBalancers = new Map<number, NodeBalancerRecord>();
  readonly configs = new Map<number, ConfigRecord>();
  readonly nodes = new Map<number, NodeRecord>();
  readonly instances = new Map<number, InstanceRecord>();
  readonly ips = new Map<string, IpRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly oauthClients = new Map<string, OAuthClientRecord>();
  readonly authCodes = new Map<string, AuthCodeRecord>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  readonly events: EventRecord[] = [];
  readonly regions: ReadonlyMap<string, RegionRecord>;
  readonly types: ReadonlyMap<string, ComputeTypeRecord>;
  readonly user: User;
  /**
   * The host of 198.18.0.0/16 (one of its 256 × 254 usable hosts) this server's load balancers start at, drawn at
   * start: their addresses' loopback stand-ins (data-plane.ts), where profiles listen, then almost never meet those
   * of another reference server on the same machine (tests run many at once).
   */
  readonly balancerOffset = randomInt(256 * 254);
  /** What the profile holds beyond the user: its display timezone (`updateProfile` changes it). */
  readonly profile = { timezone: "UTC" };
  readonly #next = { ...firstIds };

  constructor(
    catalogue: { regions: readonly RegionRecord[]; types: readonly ComputeTypeRecord[] },
    user: User,
  ) {
    this.regions = new Map(catalogue.regions.map((region) => [region.id, region]));
    this.types = new Map(catalogue.types.map((type) => [type.id, type]));
    this.user = user;
  }

  nextId(collection: keyof typeof firstIds): number {
    const id = this.#next[collection];
    this.#next[collection] = id + 1;
    return id;
  }
}
