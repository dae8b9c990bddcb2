/**
 * Leftovers of runs that never cleaned up (killed, crashed, a machine gone): every resource whose label carries a
 * run's prefix, in every collection the loaded description lists and can delete (`resourcesOf`), found over HTTP
 * and deleted children first: what lives under a matching item (listed through the description's child
 * collections, whatever its own label) before the item itself. No path of the API is written here: a description
 * whose paths differ is cleaned by what it says. `conform cleanup` is the command; `dryRun` lists without deleting.
 *
 * A label matches when it is the prefix or starts with it followed by `-` (labels are `<prefix>-<run>-<name>`),
 * so `conform` never matches `conformance-prod`. The token the cleanup itself uses is never deleted (an item that
 * shows its first characters). A resource already gone (404) counts as deleted.
 * @module
 */
import { ConfigError, TargetUnreachableError } from "../core/errors.ts";
import { SecretValues } from "../core/redact.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { idFieldCandidates, type Resource, resourcesOf } from "../spec/resources.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";
import type { LiveResponse } from "./contracts.ts";
import { HttpClient, TransportError } from "./http-client.ts";
import { RatePacer } from "./rate-pacer.ts";

export interface Leftover {
  /** The resource's name in the description (`nodebalancers/configs`). */
  readonly kind: string;
  readonly id: string;
  /** The label, or `(no label)`. */
  readonly label: string;
  /** Path under the base URL. */
  readonly deletePath: string;
  /** The item it lives under (`nodebalancers 12`). */
  readonly parent?: string;
}

export interface LeftoverOptions {
  /** The description whose collections are searched and whose deletes are used. */
  readonly spec: ApiSpec;
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

type Listed = Readonly<Record<string, unknown>>;

/** A template's path filled with values by parameter name, each encoded. */
function filled(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^{}]+)\}/g, (_all, name: string) => encodeURIComponent(values[name] ?? ""));
}

class Lister {
  readonly failed: string[] = [];
  private readonly client: HttpClient;
  private readonly options: LeftoverOptions;
  private readonly pageSize: number;

  constructor(client: HttpClient, options: LeftoverOptions) {
    this.client = client;
    this.options = options;
    this.pageSize = conventionsOf(options.spec).pageSize.max;
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

  /**
   * Every item of a list (a page envelope's `data` or an array; at most 100 pages, of the largest size the
   * description allows when the list takes `page` and `page_size`), or undefined when it cannot be listed.
   */
  async all(list: OperationInfo, path: string, what: string): Promise<Listed[] | undefined> {
    const takes = (name: string) => list.parameters.some((parameter) => parameter.name === name);
    const paged = takes("page");
    const items: Listed[] = [];
    for (let page = 1, pages = 1; page <= pages && page <= 100; page += 1) {
      const query = [paged ? `page=${page}` : "", takes("page_size") ? `page_size=${this.pageSize}` : ""]
        .filter(Boolean)
        .join("&");
      const response = await this.send("GET", query === "" ? path : `${path}?${query}`);
      if (response.status === 401) {
        throw new ConfigError(
          `the target refused the token (401) listing ${what}: give a valid --token or --token-env`,
        );
      }
      const body = response.json as { data?: unknown; pages?: unknown } | unknown[] | undefined;
      const data = Array.isArray(body) ? body : body?.data;
      if (response.status !== 200 || !Array.isArray(data)) {
        this.failed.push(`${what} could not be listed (GET ${path} answered ${response.status})`);
        return undefined;
      }
      items.push(...data.filter((item): item is Listed => typeof item === "object" && item !== null));
      pages = paged && !Array.isArray(body) && typeof body?.pages === "number" ? body.pages : 1;
    }
    return items;
  }
}

/** The resources cleanup can reach: listed and deleted by the description, each item by its id. */
function cleanable(spec: ApiSpec): Resource[] {
  return resourcesOf(spec).filter(
    (resource) => resource.list && resource.delete && resource.idParameter !== undefined,
  );
}

/** The item's id as its path takes it: the create's id field, else the parameter's candidate names. */
function idOf(resource: Resource, item: Listed): string | undefined {
  const names = [
    ...(resource.idField ? [resource.idField.name] : []),
    ...idFieldCandidates(resource.idParameter!),
  ];
  const value = names.map((name) => item[name]).find((found) => found !== undefined && found !== null);
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

function labelOf(item: Listed): string {
  return typeof item.label === "string" ? item.label : "(no label)";
}

/**
 * Whether an item shows the start of the cleanup's own token (lists show a token's first characters then `...`):
 * at least 8 characters of it, in any of its string fields.
 */
function showsToken(item: Listed, token: string | undefined): boolean {
  if (!token) return false;
  return Object.values(item).some((value) => {
    if (typeof value !== "string" || !value.endsWith("...")) return false;
    const shown = value.slice(0, -3);
    return shown.length >= 8 && token.startsWith(shown);
  });
}

class Finder {
  readonly found: Leftover[] = [];
  readonly kept: string[] = [];
  readonly #resources: Resource[];
  readonly #lister: Lister;
  readonly #token: string | undefined;

  constructor(spec: ApiSpec, lister: Lister, token: string | undefined) {
    this.#resources = cleanable(spec);
    this.#lister = lister;
    this.#token = token;
  }

  /** The top-level collections' items carrying the prefix, each after what lives under it. */
  async search(prefix: string): Promise<void> {
    for (const resource of this.#resources.filter((each) => !each.path.includes("{"))) {
      const items = await this.#lister.all(resource.list!, resource.path, resource.name);
      for (const item of items ?? []) {
        if (labelMatches(item.label, prefix)) await this.#take(resource, item, {}, undefined);
      }
    }
  }

  /** Everything under the item first (its child collections, whatever their labels), then the item. */
  async #take(
    resource: Resource,
    item: Listed,
    values: Readonly<Record<string, string>>,
    parent: string | undefined,
  ): Promise<void> {
    const id = idOf(resource, item);
    if (id === undefined) {
      this.#lister.failed.push(`${resource.name} ${labelOf(item)}: its list item names no id`);
      return;
    }
    const label = labelOf(item);
    if (showsToken(item, this.#token)) {
      this.kept.push(`${resource.name} ${id} ${label}: it is the token this cleanup uses`);
      return;
    }
    const own = { ...values, [resource.idParameter!]: id };
    const name = `${resource.name} ${id}`;
    for (const child of this.#resources.filter((each) => each.parent?.path === resource.path)) {
      const path = filled(child.list!.pathTemplate, own);
      const items = await this.#lister.all(child.list!, path, `${child.name} of ${name}`);
      for (const childItem of items ?? []) await this.#take(child, childItem, own, name);
    }
    this.found.push({
      kind: resource.name,
      id,
      label,
      deletePath: filled(resource.delete!.pathTemplate, own),
      ...(parent === undefined ? {} : { parent }),
    });
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
  const finder = new Finder(options.spec, lister, options.token);
  try {
    await finder.search(options.prefix);
    const { found, kept } = finder;
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
