/**
 * What the generic lifecycle of a resource of the description (`resourcesOf`) is made of (its steps are in
 * `lifecycle-steps.ts`): for each one with a create and a delete, a chain of requests built from the description alone (the generic generators), each step its own judged
 * assertion: create; read back equal to what was sent (write-only fields and fields the answer does not describe
 * excepted); in the list, and found by a filter on a filterable field it carries; update, read back; a child
 * listed under it only (read through another parent: 404); delete; then read 404, absent from the list, a second
 * delete 404, an update 404; a new create gets a new id; a failed create leaves nothing in the list. A failure
 * shows the chain that led to it as numbered steps. A target that keeps nothing it is given (a stateless mock:
 * the read back and the list both miss what was created) is said once per resource, and its chain stops there.
 * @module
 */
import fc from "fast-check";
import type { BrokenRule } from "../core/exchange.ts";
import { type OperationRequest, operationRequest, pathValueFits } from "../generators/operation-request.ts";
import { brokenRulesOf, operationRequestInvalid } from "../generators/operation-request-invalid.ts";
import { type BodySchema, requestSchemaOf, responseSchemaOf } from "../generators/request-body.ts";
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext, RequestOptions } from "../runner/suite-api.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { ancestorsOf, type Resource, resourceAt, resourcesOf } from "../spec/resources.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";
import { bodyValueLists, foundBodyValues } from "./operation-requests.ts";
import type { PathValue } from "./operations.ts";
import { itemsOf, PathHarvest } from "./path-values.ts";
import { registerMade } from "./resources.ts";

/** The resources a lifecycle runs for: those with a create and a delete of their items. */
export function lifecycleResources(spec: ApiSpec): Resource[] {
  return resourcesOf(spec).filter(
    (resource) => resource.create && resource.delete && resource.itemPath && resource.idParameter,
  );
}

export type Ids = Readonly<Record<string, PathValue>>;

/** An item the chain made: its ids (the parents' and its own), and what its create sent. */
export interface ChainItem {
  readonly ids: Ids;
  readonly id: PathValue;
  readonly sent: Readonly<Record<string, unknown>>;
  readonly response: LiveResponse;
}

/**
 * A body value the description does not say how to get, that the run can make (on this API a back-end node's
 * `address` is the private address of one of the account's instances in its load balancer's region): given to
 * {@link Chain} by the suite that knows it, and sent by every valid request of the operations it is for.
 */
export interface MadeValue {
  /** The top-level body property it fills. */
  readonly field: string;
  /** The operations (creates, updates) whose body takes it, by operationId. */
  readonly for: readonly string[];
  /**
   * The value for a request to `operation` at `ids` (its path values: the ids of what it lives under), anything
   * made for it on the cleanup ledger; undefined when it cannot be made (a drawn value is sent instead).
   */
  readonly make: (
    t: CaseContext,
    at: { readonly operation: OperationInfo; readonly ids: Ids },
  ) => Promise<unknown>;
}

/** The bodies a valid request is tried with, in order: `true` for a minimal one. */
const attempts = [false, false, true, true, true] as const;

export const fill = (template: string, ids: Ids) =>
  template.replace(/\{([^{}]+)\}/g, (_all, name: string) => encodeURIComponent(String(ids[name])));

interface JudgeDetails {
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly response?: LiveResponse;
  readonly message?: string;
}

/** The numbered steps of one resource's chain, and its assertions, each showing the steps that led to it. */
export class Chain {
  readonly #steps: string[] = [];
  readonly t: CaseContext;
  readonly resource: Resource;
  #salt = 0;
  readonly #verdicts: {
    name: string;
    ok: boolean;
    details: JudgeDetails;
    side: "kept" | "gone" | undefined;
  }[] = [];
  #keptNothing: { evidence: string; response: LiveResponse | undefined } | undefined;
  /** The 4xx that refused every valid body of the last create that made nothing, if that is why. */
  lastRefusal: LiveResponse | undefined;

  readonly #madeValues: readonly MadeValue[];

  constructor(t: CaseContext, resource: Resource, madeValues: readonly MadeValue[] = []) {
    this.t = t;
    this.resource = resource;
    this.#madeValues = madeValues;
  }

  /** Values the target holds for `operation`'s body properties, and those made for it at `ids`. */
  async found(operation: OperationInfo, ids: Ids): Promise<Record<string, unknown[]>> {
    const found = await heldValues(this.t, operation);
    for (const made of this.#madeValues) {
      if (!made.for.includes(operation.operationId)) continue;
      const value = await made.make(this.t, { operation, ids });
      if (value !== undefined) found[made.field] = [value];
    }
    return found;
  }

  async send(why: string, method: string, path: string, options: RequestOptions = {}): Promise<LiveResponse> {
    const response = await this.t.api.request(method, path, options);
    this.#steps.push(`${this.#steps.length + 1}. ${why}: ${method} ${path} → ${response.status}`);
    return response;
  }

  /**
   * A step's verdict named `<resource>: <name>`, its message ending with the chain so far; held until
   * {@link conclude}. `side`: evidence that the target keeps what it is given (`kept`) or that a delete is final
   * (`gone`).
   */
  judge(name: string, ok: boolean, details: JudgeDetails, side?: "kept" | "gone"): boolean {
    const message = `chain of ${this.resource.name}:\n${this.#steps.join("\n")}`;
    this.#verdicts.push({ name, ok, details: { ...details, message }, side });
    return ok;
  }

  /** Whether a step of the chain failed so far. */
  failed(): boolean {
    return this.#verdicts.some((verdict) => !verdict.ok);
  }

  /** Says the target keeps nothing it is given, with what shows it: the chain's one verdict. */
  keepsNothing(evidence: string, response: LiveResponse | undefined): void {
    this.#keptNothing = { evidence, response };
  }

  /**
   * Records the chain's verdicts: each step's own, unless the target keeps nothing it is given (said so, or both
   * what it keeps and what it deletes fail: a stateless mock answering examples), then one verdict saying so.
   */
  conclude(): void {
    const failed = (side: "kept" | "gone") => this.#verdicts.filter((each) => !each.ok && each.side === side);
    const both = [...failed("kept"), ...failed("gone")];
    const keptNothing =
      this.#keptNothing ??
      (failed("kept").length > 0 && failed("gone").length > 0
        ? { evidence: both.map((each) => each.name).join("; "), response: both[0]!.details.response }
        : undefined);
    if (keptNothing) {
      this.t.expect(`${this.resource.name}: the target keeps what it is given`, false, {
        expected: "what was created, updated and deleted stays so",
        actual: `the target does not keep what it is given: ${keptNothing.evidence}`,
        message: `chain of ${this.resource.name}:\n${this.#steps.join("\n")}`,
        ...(keptNothing.response ? { response: keptNothing.response } : {}),
      });
      return;
    }
    for (const verdict of this.#verdicts)
      this.t.expect(`${this.resource.name}: ${verdict.name}`, verdict.ok, verdict.details);
  }

  /** A seed per request of the chain, from the run's and the resource's: the same run sends the same chain. */
  #nextSeed(): number {
    this.#salt += 1;
    let hash = (this.t.seed ^ this.#salt) | 0;
    for (const char of this.resource.path) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
    return hash;
  }

  /** A valid request for `operation` at `ids` (a fresh one each call), with values the target holds. */
  async validRequest(operation: OperationInfo, ids: Ids, minimal: boolean) {
    const found = await this.found(operation, ids);
    const arbitrary = operationRequest(this.t.spec, operation, {
      pathValues: ids,
      found,
      minimal,
      label: () => this.t.label(this.resource.name.split("/").at(-1)!.slice(0, 10)),
    });
    const request = fc.sample(arbitrary, { numRuns: 1, seed: this.#nextSeed() })[0]!.value;
    return operation.method === "post" ? this.#labelled(operation, request) : request;
  }

  /**
   * A create's body with the run's label even where a minimal body left the optional `label` out: what the run
   * makes is then found by `conform cleanup` whatever stops the run.
   */
  #labelled(operation: OperationInfo, request: OperationRequest): OperationRequest {
    const body = request.body;
    const schema = requestSchemaOf(this.t.spec, operation.operationId)?.properties?.label;
    if (typeof body !== "object" || body === null || Array.isArray(body) || "label" in body) return request;
    if (!schema?.types?.includes("string")) return request;
    const label = this.t.label(this.resource.name.split("/").at(-1)!.slice(0, 10));
    if (label.length > (schema.maxLength ?? Infinity) || label.length < (schema.minLength ?? 0))
      return request;
    return { ...request, body: { ...body, label } };
  }

  /**
   * Sends a valid request to `operation` at `ids` until one is not refused with a 4xx: fuller bodies first, then
   * minimal ones, at most {@link attempts} (a schema-valid body may break a rule the description does not state:
   * `ssl_cert` only with `https`, a region without the capability). Answers the last attempt and what its body sent.
   */
  async sendValid(why: string, operation: OperationInfo, ids: Ids) {
    let last: { response: LiveResponse; sent: Record<string, unknown> } | undefined;
    for (const [index, minimal] of attempts.entries()) {
      const request = await this.validRequest(operation, ids, minimal);
      const body = request.body;
      const sent = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
      const response = await this.send(
        index === 0 ? why : `${why} (again, another valid body)`,
        operation.method.toUpperCase(),
        fill(operation.pathTemplate, { ...ids, ...request.path }),
        { query: request.query, ...(body === undefined ? {} : { json: body }) },
      );
      last = { response, sent };
      if (response.status < 400 || response.status > 499) break;
    }
    return last!;
  }

  /**
   * A create body valid by its schema whose property naming a held value (`region`) names one the target does not
   * hold: drawn from the schema instead of the list; undefined when no such property or draw.
   */
  async absentReference(ids: Ids): Promise<RefusedCreate | undefined> {
    const create = this.resource.create!;
    const found = await this.found(create, ids);
    for (const [name, held] of Object.entries(found)) {
      const rest = Object.fromEntries(Object.entries(found).filter(([other]) => other !== name));
      for (const minimal of [true, false]) {
        const arbitrary = operationRequest(this.t.spec, create, {
          pathValues: ids,
          found: rest,
          minimal,
          label: () => "x",
        });
        const body = fc.sample(arbitrary, { numRuns: 1, seed: this.#nextSeed() })[0]!.value.body;
        if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
        const value = (body as Record<string, unknown>)[name];
        if (value !== undefined && !held.some((one) => one === value))
          return {
            why: `a create naming a ${name} the target does not hold`,
            body: body as Record<string, unknown>,
          };
      }
    }
    return undefined;
  }

  /** An invalid create body (one rule broken in it), or undefined when its description constrains nothing. */
  async invalidCreate(ids: Ids): Promise<{ body: unknown; broken: readonly BrokenRule[] } | undefined> {
    const create = this.resource.create!;
    const found = await this.found(create, ids);
    const arbitrary = operationRequestInvalid(this.t.spec, create, {
      pathValues: ids,
      found,
      parts: ["body"],
      rules: 1,
    });
    try {
      const generated = fc.sample(arbitrary, { numRuns: 1, seed: this.#nextSeed() })[0]!;
      return { body: generated.value.body, broken: brokenRulesOf(generated.meta) };
    } catch {
      return undefined;
    }
  }
}

/** Values the target holds for `operation`'s body properties (regions, types), read once per run. */
async function heldValues(t: CaseContext, operation: OperationInfo): Promise<Record<string, unknown[]>> {
  let held = harvests.get(t);
  if (!held) {
    held = { harvest: new PathHarvest(), read: new Set() };
    harvests.set(t, held);
  }
  for (const { list } of bodyValueLists(t, operation)) {
    if (held.read.has(list.pathTemplate)) continue;
    held.read.add(list.pathTemplate);
    const response = await t.reuse(`lifecycle:${list.operationId}`, () => t.api.get(list.pathTemplate));
    held.harvest.record(list.pathTemplate, {}, response);
  }
  return foundBodyValues(t, operation, held.harvest);
}

/** What a case read of the lists naming body values, read once per case. */
const harvests = new WeakMap<CaseContext, { harvest: PathHarvest; read: Set<string> }>();

/** Creates one item of `resource` under `parentIds`, on the ledger at once; undefined when it was not made. */
export async function createItem(
  chain: Chain,
  resource: Resource,
  parentIds: Ids,
  why: string,
): Promise<ChainItem | undefined> {
  const { t } = chain;
  const { response, sent } = await chain.sendValid(why, resource.create!, parentIds);
  const id = registerMade(t, response, {
    what: resource.name,
    label: typeof sent.label === "string" ? sent.label : undefined,
    idKey: resource.idField?.name ?? "id",
    deletePath: (made) =>
      fill(resource.delete!.pathTemplate, { ...parentIds, [resource.idParameter!]: made }),
    kind: { resource, parentIds },
  });
  if (id === undefined) {
    chain.lastRefusal = response.status >= 400 && response.status <= 499 ? response : undefined;
    return undefined;
  }
  // An id its own item's path cannot take (below the parameter's minimum, not its type): the target's failure,
  // and the end of the chain (no request of the description can name that item).
  const item = resource.read ?? resource.delete!;
  if (!pathValueFits(t.spec, item, resource.idParameter!, id)) {
    chain.lastRefusal = undefined;
    chain.judge("the create's id fits its item's path parameter", false, {
      expected: `a value of {${resource.idParameter}} as ${item.operationId} describes it`,
      actual: id,
      response,
    });
    return undefined;
  }
  return { ids: { ...parentIds, [resource.idParameter!]: id }, id, sent, response };
}

/** Fresh items of each ancestor, outermost first: the ids `resource` lives under; undefined when one failed. */
export async function makeAncestors(chain: Chain): Promise<Ids | undefined> {
  let ids: Ids = {};
  for (const ancestor of ancestorsOf(resourcesOf(chain.t.spec), chain.resource)) {
    if (!ancestor.create || !ancestor.delete) return undefined;
    const made = await createItem(chain, ancestor, ids, `make a ${ancestor.name} to live under`);
    if (!made) return undefined;
    ids = made.ids;
  }
  return ids;
}

/** Fields of `sent` the answer should show: not write-only, and described by the answer's schema when it has one. */
export function comparableFields(
  spec: ApiSpec,
  write: OperationInfo,
  read: OperationInfo | undefined,
  sent: Readonly<Record<string, unknown>>,
): string[] {
  const request: BodySchema | undefined = requestSchemaOf(spec, write.operationId);
  const answer = read && responseSchemaOf(spec, read.operationId, 200);
  return Object.keys(sent).filter(
    (name) =>
      request?.properties?.[name]?.writeOnly !== true &&
      request?.properties?.[name]?.readOnly !== true &&
      (answer?.properties === undefined || answer.properties[name] !== undefined),
  );
}

/** Whether `actual` holds `expected` (a null sent: anything): equal scalars; objects by the keys sent; arrays item by item. */
export function holds(expected: unknown, actual: unknown): boolean {
  // A null sent asks for no value: the answer may show null or the default it stands for (`tags: []`).
  if (expected === null) return true;
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => holds(item, actual[index]))
    );
  if (typeof expected === "object" && expected !== null)
    return (
      typeof actual === "object" &&
      actual !== null &&
      Object.entries(expected).every(([key, value]) => holds(value, (actual as Record<string, unknown>)[key]))
    );
  return Object.is(expected, actual);
}

/** The fields of `sent` an answer's item does not hold. */
export function differing(fields: readonly string[], sent: Readonly<Record<string, unknown>>, item: unknown) {
  const record = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
  return fields.filter((name) => !holds(sent[name], record[name]));
}

/** Every item of the list at `path` (at most 20 pages of the largest size): undefined when it does not answer 2xx. */
export async function listAll(
  chain: Chain,
  list: OperationInfo,
  path: string,
  why: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<Record<string, unknown>[] | undefined> {
  const takes = (name: string) => list.parameters.some((parameter) => parameter.name === name);
  const size = conventionsOf(chain.t.spec).pageSize.max;
  const items: Record<string, unknown>[] = [];
  for (let page = 1, pages = 1; page <= pages && page <= 20; page += 1) {
    const query: Record<string, number> = {};
    if (takes("page")) query.page = page;
    if (takes("page_size")) query.page_size = size;
    const response = await chain.send(page === 1 ? why : `${why} (page ${page})`, "GET", path, {
      query,
      headers,
    });
    if (response.status < 200 || response.status > 299) return undefined;
    items.push(...itemsOf(response.parsed));
    const body = response.parsed as { pages?: unknown } | undefined;
    pages = takes("page") && typeof body?.pages === "number" ? body.pages : 1;
  }
  return items;
}

/** The list item whose id field is `id`. */
export function itemWithId(
  resource: Resource,
  items: readonly Record<string, unknown>[] | undefined,
  id: PathValue,
) {
  const key = resource.idField?.name ?? "id";
  return items?.find((item) => item[key] === id || String(item[key]) === String(id));
}

/** The resources living directly under `resource` that a chain can make and list. */
export function childResources(spec: ApiSpec, resource: Resource): Resource[] {
  return lifecycleResources(spec).filter(
    (child) =>
      child.parent?.path === resource.path && child.list && resourceAt(resourcesOf(spec), child.path),
  );
}

/** A create the target must refuse: why, its body, and the rules it breaks in one line (none: valid by schema). */
export interface RefusedCreate {
  readonly why: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly breaks?: string;
}
