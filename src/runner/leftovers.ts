/**
 * Leftovers of runs that never cleaned up (killed, crashed, a machine gone): every resource whose label carries a
 * run's prefix, across load balancers (with their profiles and nodes), instances, OAuth clients and personal
 * access tokens, found over HTTP and deleted children first: a load balancer's nodes, then its profiles, then the
 * load balancer; then instances (no node points at them any more); then OAuth clients; personal access tokens
 * last. `conform cleanup` is the command; `dryRun` lists without deleting.
 *
 * A label matches when it is the prefix or starts with it followed by `-` (labels are `<prefix>-<run>-<name>`),
 * so `conform` never matches `conformance-prod`. The token the cleanup itself uses is never deleted. A resource
 * already gone (404) counts as deleted.
 * @module
 */
import { ConfigError, TargetUnreachableError } from "../core/errors.ts";
import { SecretValues } from "../core/redact.ts";
import type { LiveResponse } from "./contracts.ts";
import { HttpClient, TransportError } from "./http-client.ts";
import { RatePacer } from "./rate-pacer.ts";

export type LeftoverKind = "node" | "profile" | "load balancer" | "instance" | "OAuth client" | "token";

export interface Leftover {
  readonly kind: LeftoverKind;
  readonly id: string;
  /** The label, or what stands for it (`port 80` for a profile without one). */
  readonly label: string;
  /** Path under the base URL. */
  readonly deletePath: string;
  /** The load balancer a node or profile belongs to. */
  readonly parent?: string;
}

export interface LeftoverOptions {
  /** The API base URL (ends in /v4). */
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly prefix: string;
  readonly dryRun: boolean;
  readonly ca?: string;
  readonly insecure?: boolean;
  readonly timeoutMs?: number;
  /** Headers added to every request (`--header`), names lower-cased. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Told about each step (found, deleted, failed), for a person watching. */
  readonly onProgress?: (line: string) => void;
}

export interface LeftoverReport {
  /** Everything found, in deletion order. */
  readonly found: readonly Leftover[];
  readonly deleted: readonly Leftover[];
  /** What could not be listed or deleted, with why. */
  readonly failed: readonly string[];
  /** Found but kept on purpose, with why. */
  readonly kept: readonly string[];
}

const prefixPattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,}$/;

/** Whether a label belongs to runs with this prefix. */
export function labelMatches(label: unknown, prefix: string): boolean {
  if (typeof label !== "string" || !label.startsWith(prefix)) return false;
  return label.length === prefix.length || prefix.endsWith("-") || label[prefix.length] === "-";
}

/** Pacing keys by kind of endpoint (`DELETE /nodebalancers/{id}`), so rate-limit windows are learned per endpoint. */
function endpointKey(method: string, url: string): string {
  return `${method} ${new URL(url).pathname.replace(/\/\d+(?=\/|$)/g, "/{id}")}`;
}

interface Listed {
  id?: unknown;
  label?: unknown;
  port?: unknown;
  token?: unknown;
}

class Lister {
  readonly failed: string[] = [];
  private readonly client: HttpClient;
  private readonly options: LeftoverOptions;

  constructor(client: HttpClient, options: LeftoverOptions) {
    this.client = client;
    this.options = options;
  }

  async send(method: string, path: string): Promise<LiveResponse> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    try {
      return await this.client.send({ method, url: `${this.options.baseUrl}${path}`, headers });
    } catch (error) {
      // No answer at all (refused, timed out, TLS not trusted): the cleanup cannot do its job. The client's
      // message already says why in people's words (`transportReason`).
      if (error instanceof TransportError) {
        throw new TargetUnreachableError(`target ${this.options.baseUrl} is unreachable: ${error.message}`, {
          cause: error,
        });
      }
      throw error;
    }
  }

  /** Every item of a paginated list (at most 100 pages of 500), or undefined when it cannot be listed. */
  async all(path: string, what: string): Promise<Listed[] | undefined> {
    const items: Listed[] = [];
    for (let page = 1, pages = 1; page <= pages && page <= 100; page += 1) {
      const response = await this.send("GET", `${path}?page=${page}&page_size=500`);
      if (response.status === 401) {
        throw new ConfigError(
          `the target refused the token (401) listing ${what}: give a valid --token or --token-env`,
        );
      }
      const body = response.json as { data?: Listed[]; pages?: unknown } | undefined;
      if (response.status !== 200 || !Array.isArray(body?.data)) {
        this.failed.push(`${what} could not be listed (GET ${path} answered ${response.status})`);
        return undefined;
      }
      items.push(...body.data);
      pages = typeof body.pages === "number" ? body.pages : 1;
    }
    return items;
  }
}

/** Finds (and unless `dryRun`, deletes) the leftovers of runs with the given label prefix. */
export async function cleanLeftovers(options: LeftoverOptions): Promise<LeftoverReport> {
  if (!prefixPattern.test(options.prefix)) {
    throw new ConfigError(
      `--prefix ${JSON.stringify(options.prefix)} is too broad or malformed: give at least 3 characters of letters, digits, '.', '_' or '-' (e.g. conform, or conform-ab12cd for one run)`,
    );
  }
  const secrets = new SecretValues();
  secrets.add(options.token);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const client = new HttpClient({
    timeoutMs,
    ca: options.ca,
    insecure: options.insecure ?? false,
    connections: 4,
    maxResponseBytes: 32 * 1024 * 1024,
    requestDeadlineMs: Math.max(60_000, timeoutMs),
    maxRetries: 5,
    maxWaitMs: 120_000,
    pacer: new RatePacer({ kind: "auto" }, undefined, undefined, 120_000),
    secrets,
    matchOperation: endpointKey,
    ...(options.headers && Object.keys(options.headers).length > 0 ? { addedHeaders: options.headers } : {}),
  });
  const progress = options.onProgress ?? (() => {});
  const lister = new Lister(client, options);
  const found: Leftover[] = [];
  const kept: string[] = [];
  try {
    const mine = (items: Listed[] | undefined) =>
      (items ?? []).filter((item) => labelMatches(item.label, options.prefix));

    for (const balancer of mine(await lister.all("/nodebalancers", "load balancers"))) {
      const base = `/nodebalancers/${String(balancer.id)}`;
      const parent = `load balancer ${String(balancer.id)}`;
      const profiles = (await lister.all(`${base}/configs`, `profiles of ${parent}`)) ?? [];
      for (const profile of profiles) {
        const path = `${base}/configs/${String(profile.id)}`;
        for (const node of (await lister.all(`${path}/nodes`, `nodes of profile ${String(profile.id)}`)) ??
          []) {
          found.push({
            kind: "node",
            id: String(node.id),
            label: String(node.label),
            deletePath: `${path}/nodes/${String(node.id)}`,
            parent,
          });
        }
      }
      for (const profile of profiles) {
        const label = typeof profile.label === "string" ? profile.label : `port ${String(profile.port)}`;
        found.push({
          kind: "profile",
          id: String(profile.id),
          label,
          deletePath: `${base}/configs/${String(profile.id)}`,
          parent,
        });
      }
      found.push({
        kind: "load balancer",
        id: String(balancer.id),
        label: String(balancer.label),
        deletePath: base,
      });
    }
    for (const instance of mine(await lister.all("/compute/instances", "instances"))) {
      found.push({
        kind: "instance",
        id: String(instance.id),
        label: String(instance.label),
        deletePath: `/compute/instances/${String(instance.id)}`,
      });
    }
    for (const client of mine(await lister.all("/account/oauth-clients", "OAuth clients"))) {
      found.push({
        kind: "OAuth client",
        id: String(client.id),
        label: String(client.label),
        deletePath: `/account/oauth-clients/${encodeURIComponent(String(client.id))}`,
      });
    }
    for (const token of mine(await lister.all("/profile/tokens", "personal access tokens"))) {
      // Lists show a token's first characters then `...`: never delete the token this cleanup runs with.
      const shown = typeof token.token === "string" ? token.token.replace(/\.\.\.$/, "") : "";
      if (options.token && shown.length >= 8 && options.token.startsWith(shown)) {
        kept.push(`token ${String(token.id)} ${String(token.label)}: it is the token this cleanup uses`);
        continue;
      }
      found.push({
        kind: "token",
        id: String(token.id),
        label: String(token.label),
        deletePath: `/profile/tokens/${String(token.id)}`,
      });
    }
    for (const leftover of found)
      progress(`${options.dryRun ? "would delete" : "found"} ${describe(leftover)}`);
    for (const reason of kept) progress(`kept ${reason}`);

    const deleted: Leftover[] = [];
    if (!options.dryRun) {
      for (const leftover of found) {
        const response = await lister.send("DELETE", leftover.deletePath);
        if (response.status < 300 || response.status === 404) {
          deleted.push(leftover);
          progress(`deleted ${describe(leftover)}${response.status === 404 ? " (already gone)" : ""}`);
        } else {
          const reason = `${describe(leftover)}: DELETE ${leftover.deletePath} answered ${response.status}`;
          lister.failed.push(reason);
          progress(`failed ${reason}`);
        }
      }
    }
    return { found, deleted, failed: lister.failed, kept };
  } finally {
    await client.close();
  }
}

export function describe(leftover: Leftover): string {
  return `${leftover.kind} ${leftover.id} (${leftover.label})${leftover.parent ? ` of ${leftover.parent}` : ""}`;
}
