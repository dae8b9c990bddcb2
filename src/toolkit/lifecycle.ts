/**
 * The generic lifecycle of a resource of the description (`resourcesOf`): for each one with a create and a
 * delete, a chain of requests built from the description alone (the generic generators), each step its own judged
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
import type { LiveResponse } from "../runner/http-client.ts";
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

type Ids = Readonly<Record<string, PathValue>>;

/** An item the chain made: its ids (the parents' and its own), and what its create sent. */
interface Made {
  readonly ids: Ids;
  readonly id: PathValue;
  readonly sent: Readonly<Record<string, unknown>>;
  readonly response: LiveResponse;
}

/** The bodies a valid request is tried with, in order: `true` for a minimal one. */
const attempts = [false, false, true, true, true] as const;

const fill = (template: string, ids: Ids) =>
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

  constructor(t: CaseContext, resource: Resource) {
    this.t = t;
    this.resource = resource;
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
    const found = await heldValues(this.t, operation);
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
    const found = await heldValues(this.t, create);
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
    const found = await heldValues(this.t, create);
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
): Promise<Made | undefined> {
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

const is2xx = (response: LiveResponse) => response.status >= 200 && response.status <= 299;

/**
 * Runs the lifecycle of `resource` (see the module's comment). Answers whether the chain went through to the delete
 * (false when it stopped early: nothing made, or a target that keeps nothing).
 */
export async function runLifecycle(t: CaseContext, resource: Resource): Promise<boolean> {
  const chain = new Chain(t, resource);
  try {
    return await chainSteps(chain);
  } finally {
    chain.conclude();
  }
}

async function chainSteps(chain: Chain): Promise<boolean> {
  const { t, resource } = chain;
  const parentIds = await makeAncestors(chain);
  if (parentIds === undefined) return notMade(chain, "its parents can be made");
  const made = await createItem(chain, resource, parentIds, "create");
  if (made === undefined) return notMade(chain, "create answers 2xx with an id");
  if (!(await readBackAndList(chain, made, parentIds))) return false;
  await filterFinds(chain, made, parentIds);
  await updateKept(chain, made);
  for (const child of childResources(t.spec, resource)) await childUnderItsParentOnly(chain, child, made);
  await deleteAndAfter(chain, made, parentIds);
  await failedCreateLeavesNothing(chain, parentIds);
  return true;
}

/**
 * A chain that could not make what it needs: a failure, unless every valid body was refused with a 4xx (a rule the
 * description does not state, such as an address that must be one of the account's instances): then not judged,
 * said at the end of the run.
 */
function notMade(chain: Chain, name: string): false {
  const refusal = chain.lastRefusal;
  if (refusal) {
    const why = `${chain.resource.name}: its lifecycle is not judged: every valid body was refused (${refusal.status}: ${refusal.text.slice(0, 200)}), so it needs what the description does not state`;
    chain.t.log(why);
    chain.t.thinEvidence(why);
  } else if (!chain.failed()) chain.judge(name, false, { expected: "2xx with an id", actual: "not made" });
  return false;
}

/**
 * Read back and list: each judged, unless both miss what was created, then said once (the target keeps nothing it
 * is given: a stateless mock) and the chain stops.
 */
async function readBackAndList(chain: Chain, made: Made, parentIds: Ids): Promise<boolean> {
  const { resource, t } = chain;
  const fields = comparableFields(t.spec, resource.create!, resource.read ?? resource.list, made.sent);
  const read =
    resource.read && (await chain.send("read back", "GET", fill(resource.read.pathTemplate, made.ids)));
  const readMisses =
    read === undefined ? undefined : is2xx(read) ? differing(fields, made.sent, read.parsed) : fields;
  const items = await listAll(chain, resource.list!, fill(resource.list!.pathTemplate, parentIds), "list");
  const listed = itemWithId(resource, items, made.id);
  const listMisses = listed ? differing(fields, made.sent, listed) : fields;
  // Kept nothing: neither the read back nor the list shows the item as sent (its label, or any field of it).
  const lost = (misses: readonly string[] | undefined) =>
    misses === undefined || misses.length === fields.length || misses.includes("label");
  if (fields.length > 0 && lost(readMisses) && (listed === undefined || lost(listMisses))) {
    chain.keepsNothing(
      `the read back ${read ? `(${read.status}) differs in ${readMisses?.join(", ") || "nothing"}` : "is not described"}; the list ${listed ? `differs in ${listMisses.join(", ")}` : `lacks id ${made.id}`}`,
      read,
    );
    return false;
  }
  if (read && readMisses)
    chain.judge(
      "read back equals what was sent",
      readMisses.length === 0,
      {
        expected: fields.map((name) => `${name}=${JSON.stringify(made.sent[name])}`).join(", "),
        actual: is2xx(read) ? `differs in ${readMisses.join(", ")}` : read.status,
        response: read,
      },
      "kept",
    );
  chain.judge(
    "the list holds it",
    listed !== undefined,
    {
      expected: `an item with id ${made.id}`,
      actual: "absent",
    },
    "kept",
  );
  return true;
}

/** A filter on a filterable scalar field the item carries finds it (when the list takes the filter header). */
async function filterFinds(chain: Chain, made: Made, parentIds: Ids): Promise<void> {
  const { resource } = chain;
  const list = resource.list!;
  const field = list.filterableFields.find(
    (candidate) =>
      candidate.path === undefined &&
      candidate.lenient !== true &&
      ["string", "integer"].includes(candidate.type) &&
      ["string", "number"].includes(typeof made.sent[candidate.name]),
  );
  if (!field) return;
  const value = made.sent[field.name];
  const path = fill(list.pathTemplate, parentIds);
  const response = await chain.send(`list filtered by ${field.name}`, "GET", path, {
    filter: { [field.name]: value },
  });
  const found = is2xx(response) ? itemWithId(resource, itemsOf(response.parsed), made.id) : undefined;
  chain.judge(`a filter on ${field.name} finds it`, found !== undefined, {
    expected: `an item with id ${made.id} for ${JSON.stringify({ [field.name]: value })}`,
    actual: is2xx(response) ? "absent" : response.status,
    response,
  });
}

/** Each field the update sent reads back so. */
async function updateKept(chain: Chain, made: Made): Promise<void> {
  const { resource, t } = chain;
  if (!resource.update) return;
  const { response: answer, sent } = await chain.sendValid("update", resource.update, made.ids);
  if (
    !chain.judge("update answers 2xx", is2xx(answer), {
      expected: "2xx",
      actual: answer.status,
      response: answer,
    })
  )
    return;
  const reader = resource.read ?? resource.list!;
  const fields = comparableFields(t.spec, resource.update, reader, sent);
  if (fields.length === 0) return;
  const read = resource.read
    ? await chain.send("read after update", "GET", fill(resource.read.pathTemplate, made.ids))
    : undefined;
  const item = read
    ? read.parsed
    : itemWithId(
        resource,
        await listAll(
          chain,
          resource.list!,
          fill(resource.list!.pathTemplate, made.ids),
          "list after update",
        ),
        made.id,
      );
  const misses = differing(fields, sent, item);
  chain.judge(
    "the update is kept",
    misses.length === 0,
    {
      expected: fields.map((name) => `${name}=${JSON.stringify(sent[name])}`).join(", "),
      actual: `differs in ${misses.join(", ")}`,
      ...(read ? { response: read } : {}),
    },
    "kept",
  );
}

/** A child made under the item is listed under it, not under a sibling, and read through the sibling is 404. */
async function childUnderItsParentOnly(chain: Chain, child: Resource, made: Made): Promise<void> {
  const { resource } = chain;
  // The other parent under ancestors of its own: a sibling under the same ones may clash with the first (a port).
  const otherIds = await makeAncestors(chain);
  const sibling = otherIds && (await createItem(chain, resource, otherIds, `make another ${resource.name}`));
  const grandchildIds = sibling && (await makeBetween(chain, child, made.ids));
  const item =
    grandchildIds && (await createItem(chain, child, grandchildIds, `create a ${child.name} under it`));
  if (!sibling || !grandchildIds || !item) {
    notMade(chain, `a ${child.name} can be made under it`);
    return;
  }
  const parameter = child.parent!.parameter;
  const elsewhere = { ...item.ids, ...sibling.ids, [parameter]: sibling.id };
  const under = await listAll(
    chain,
    child.list!,
    fill(child.list!.pathTemplate, item.ids),
    `list ${child.name} under it`,
  );
  chain.judge(`its ${child.name} is listed under it`, itemWithId(child, under, item.id) !== undefined, {
    expected: `an item with id ${item.id}`,
    actual: "absent",
  });
  const other = await listAll(
    chain,
    child.list!,
    fill(child.list!.pathTemplate, elsewhere),
    `list ${child.name} under the other`,
  );
  chain.judge(
    `its ${child.name} is not listed under another ${resource.name}`,
    itemWithId(child, other, item.id) === undefined,
    {
      expected: `no item with id ${item.id}`,
      actual: "listed there",
    },
  );
  if (child.read) {
    const read = await chain.send(
      `read the ${child.name} through the other`,
      "GET",
      fill(child.read.pathTemplate, elsewhere),
    );
    chain.judge(`its ${child.name} read through another ${resource.name} is 404`, read.status === 404, {
      expected: 404,
      actual: read.status,
      response: read,
    });
  }
  await chain.send(`delete the ${child.name}`, "DELETE", fill(child.delete!.pathTemplate, item.ids));
}

/** Ids for `child` under `ids`, making any resource between them (a grandchild's parent). */
async function makeBetween(chain: Chain, child: Resource, ids: Ids): Promise<Ids | undefined> {
  let current = ids;
  const all = resourcesOf(chain.t.spec);
  const between = ancestorsOf(all, child).filter(
    (ancestor) => ancestor.idParameter && !(ancestor.idParameter in ids),
  );
  for (const ancestor of between) {
    const made = await createItem(chain, ancestor, current, `make a ${ancestor.name} to live under`);
    if (!made) return undefined;
    current = made.ids;
  }
  return current;
}

/** Delete; then read 404, not listed, a second delete 404, an update 404; a new create gets a new id. */
async function deleteAndAfter(chain: Chain, made: Made, parentIds: Ids): Promise<void> {
  const { resource } = chain;
  const itemPath = fill(resource.delete!.pathTemplate, made.ids);
  const removed = await chain.send("delete", "DELETE", itemPath);
  if (
    !chain.judge("delete answers 2xx", is2xx(removed), {
      expected: "2xx",
      actual: removed.status,
      response: removed,
    })
  )
    return;
  const gone = async (
    why: string,
    method: string,
    template: string | undefined,
    options: RequestOptions = {},
  ) => {
    if (template === undefined) return;
    const response = await chain.send(why, method, fill(template, made.ids), options);
    chain.judge(
      `${why} after the delete is 404`,
      response.status === 404,
      {
        expected: 404,
        actual: response.status,
        response,
      },
      "gone",
    );
  };
  await gone("a read", "GET", resource.read?.pathTemplate);
  const items = await listAll(
    chain,
    resource.list!,
    fill(resource.list!.pathTemplate, parentIds),
    "list after the delete",
  );
  chain.judge(
    "the list lacks it after the delete",
    itemWithId(resource, items, made.id) === undefined,
    {
      expected: `no item with id ${made.id}`,
      actual: items ? "still listed" : "the list did not answer",
    },
    "gone",
  );
  await gone("a second delete", "DELETE", resource.delete!.pathTemplate);
  if (resource.update) {
    const request = await chain.validRequest(resource.update, made.ids, true);
    await gone("an update", resource.update.method.toUpperCase(), resource.update.pathTemplate, {
      ...(request.body === undefined ? {} : { json: request.body }),
    });
  }
  const again = await createItem(chain, resource, parentIds, "create another");
  if (again)
    chain.judge(
      "a new create gets a new id, not the deleted one",
      String(again.id) !== String(made.id),
      {
        expected: `an id other than ${made.id}`,
        actual: again.id,
        response: again.response,
      },
      "kept",
    );
}

/**
 * A create the target must refuse leaves no item with its label in the list: one naming a value the target does
 * not hold (a `region` drawn from its schema, not from the regions listed: refused by the server's own checks),
 * else one breaking a rule of its body's schema.
 */
async function failedCreateLeavesNothing(chain: Chain, parentIds: Ids): Promise<void> {
  const { resource, t } = chain;
  const refused = (await chain.absentReference(parentIds)) ?? (await schemaBreakingCreate(chain, parentIds));
  // Found by the label it was given: a create whose body takes none cannot be looked for.
  const labelled = requestSchemaOf(t.spec, resource.create!.operationId)?.properties?.label;
  if (!refused || !labelled?.types?.includes("string")) return;
  const label = t.label(`${resource.name.split("/").at(-1)!.slice(0, 8)}-bad`);
  const path = fill(resource.create!.pathTemplate, parentIds);
  const response = await chain.send(refused.why, "POST", path, {
    json: { ...refused.body, label },
    ...(refused.breaks ? { breaks: refused.breaks } : {}),
  });
  registerMade(t, response, {
    what: `${resource.name} (a create that should have been refused)`,
    label,
    idKey: resource.idField?.name ?? "id",
    deletePath: (made) =>
      fill(resource.delete!.pathTemplate, { ...parentIds, [resource.idParameter!]: made }),
    kind: { resource, parentIds },
  });
  if (response.status < 400 || response.status > 499) {
    t.log(`${resource.name}: ${refused.why} answered ${response.status}: no refusal to judge a leak after`);
    return;
  }
  const items = await listAll(chain, resource.list!, path, "list after the refused create");
  const left = items?.find((item) => item.label === label);
  chain.judge("a refused create leaves nothing in the list", left === undefined, {
    expected: `no item labelled ${label}`,
    actual: left ? `listed: ${JSON.stringify(left).slice(0, 200)}` : "the list did not answer",
  });
}

interface RefusedCreate {
  readonly why: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly breaks?: string;
}

/** A create body breaking one rule of its schema (not its label's), when there is one to break. */
async function schemaBreakingCreate(chain: Chain, parentIds: Ids): Promise<RefusedCreate | undefined> {
  const invalid = await chain.invalidCreate(parentIds);
  const body = invalid?.body;
  if (!invalid || typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  if (invalid.broken.some((rule) => rule.at === "label")) return undefined;
  const breaks = invalid.broken.map((rule) => `${rule.in} ${rule.at}: ${rule.rule}`).join("; ");
  return { why: "a create breaking a rule", body: body as Record<string, unknown>, breaks };
}
