/**
 * Fixtures found through the description: a value a body field needs that must name something the target holds
 * (a `region`, an instance `type`, any `<thing>` or `<thing>_id` of another resource) is read from a list of the
 * description whose items it names, never from an operationId or a path word of the bundled description. A list
 * fits a field when it is a catalogue (a read without path parameters whose items carry an `id`, and nothing in the
 * description writes to it or its items: a body never points at what the account made), and its last segment is
 * the field's name or its plural (`region` ↔ `/regions`, `type` ↔ `/compute/types`) or its items' schema is named
 * for it (`region` ↔ items of `#/components/schemas/Region` at `/zones`); among several, the one sharing most of
 * its path with the operation that sends the body. An item is usable when its `status` (if the schema has one) is
 * not an outage and its `capabilities` (if the schema lists them) offer those asked for. Settings in
 * `suiteOptions.fixtures` (`region`, `type`, `image`, any field's name) win over what a list offers.
 * @module
 */
import { requestSchemaOf, responseSchemaOf } from "../generators/request-body.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { apiFacts, conventionsOf } from "../spec/conventions.ts";
import { propertyDeclarations } from "../spec/normalize-schema.ts";
import { deref, isObject, isRef, valueAt } from "../spec/pointer.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";
import { expectBody, shape } from "./readers.ts";
import { expectStatus } from "./responses.ts";

/** The region capabilities of this API, by what they offer. */
export type Capability = keyof typeof apiFacts.capabilities;

/** A list of the description whose items can fill a body field, and what its item schema says of them. */
export interface FixtureList {
  readonly operation: OperationInfo;
  /** The item schema has `status`: an item in outage is not usable. */
  readonly hasStatus: boolean;
  /** The item schema has `capabilities` (an array): an item must offer those asked for. */
  readonly hasCapabilities: boolean;
}

/** What a fixture is for. */
export interface FixtureNeed {
  /** The operation (or its operationId) whose body takes the value: its list is preferred, a skip names it. */
  readonly for?: OperationInfo | string;
  /** What the item must offer (read from the item's `capabilities`, when its schema lists them). */
  readonly capabilities?: readonly Capability[];
  /** A value not to take (another region than this one). */
  readonly except?: string;
}

/** Statuses of an item that cannot take new resources (facts.md, "Region"). */
const unusableStatuses: ReadonlySet<string> = new Set(["outage"]);

const loose = (text: string) => text.replace(/[_-]/g, "").toLowerCase();

/** The names a list of `field`'s values may go by: `region`, `regions`; `policy_id` → `policy`, `policies`. */
function namesOf(field: string): Set<string> {
  const bare = loose(field.replace(/(?:_id|Id|ID)$/, ""));
  return new Set([bare, `${bare}s`, `${bare}es`, bare.replace(/y$/, "ies")]);
}

/** The names of the component schemas a list's items are (`Region` for `data: {items: {$ref: .../Region}}`). */
function itemSchemaNames(spec: ApiSpec, listSchemaPointer: string): string[] {
  const schema = valueAt(spec.document, listSchemaPointer);
  const arrays = [schema, ...(propertyDeclarations(spec.document, schema).get("data") ?? [])];
  return arrays.flatMap((declaration) => {
    const items = (deref(spec.document, declaration) as { items?: unknown } | undefined)?.items;
    return isRef(items) ? [items.$ref.split("/").at(-1) ?? ""] : [];
  });
}

/**
 * Does the description write to the collection at `template` or its items (`template/{id}`)? Then it holds the
 * account's resources, not a catalogue: a body naming one would change what the run did not make.
 */
function writable(spec: ApiSpec, template: string): boolean {
  return spec.operations
    .all()
    .some(
      (other) =>
        other.method !== "get" &&
        other.method !== "head" &&
        (other.pathTemplate === template ||
          /^\/\{[^/]+\}$/.test(other.pathTemplate.slice(template.length))) &&
        other.pathTemplate.startsWith(template),
    );
}

/** The list `operation` answers, as a fixture list, when its items carry an `id`. */
function asFixtureList(
  spec: ApiSpec,
  operation: OperationInfo,
): (FixtureList & { names: string[] }) | undefined {
  const schema = responseSchemaOf(spec, operation.operationId, 200);
  const items = schema?.properties?.data?.items ?? schema?.items;
  if (!schema || !items?.properties?.id) return undefined;
  const capabilities = items.properties.capabilities;
  return {
    operation,
    hasStatus: items.properties.status !== undefined,
    hasCapabilities: capabilities !== undefined && (capabilities.types?.includes("array") ?? false),
    names: [operation.pathTemplate.split("/").at(-1) ?? "", ...itemSchemaNames(spec, schema.pointer)],
  };
}

const sharedSegments = (a: string, b: string) => {
  const [left, right] = [a.split("/"), b.split("/")];
  let shared = 0;
  while (shared < left.length && left[shared] === right[shared]) shared += 1;
  return shared;
};

/**
 * The list of the description that offers values for body field `field`, the one nearest `near`'s path among
 * several (then the shortest path, then the description's order); undefined when none fits.
 */
export function fixtureList(spec: ApiSpec, field: string, near?: OperationInfo): FixtureList | undefined {
  const wanted = namesOf(field);
  const lists = spec.operations
    .all()
    .filter((operation) => operation.method === "get" && operation.serverUrl === undefined)
    .filter((operation) => !operation.pathTemplate.includes("{") && !writable(spec, operation.pathTemplate))
    .flatMap((operation) => asFixtureList(spec, operation) ?? [])
    .filter((list) => list.names.some((name) => wanted.has(loose(name))));
  const closeness = (list: FixtureList) =>
    near === undefined ? 0 : sharedSegments(list.operation.pathTemplate, near.pathTemplate);
  const best = lists.reduce<(typeof lists)[number] | undefined>((chosen, list) => {
    if (chosen === undefined) return list;
    const nearer = closeness(list) - closeness(chosen);
    if (nearer !== 0) return nearer > 0 ? list : chosen;
    return list.operation.pathTemplate.length < chosen.operation.pathTemplate.length ? list : chosen;
  }, undefined);
  if (!best) return undefined;
  const { names: _names, ...list } = best;
  return list;
}

/**
 * The top-level fields of `operation`'s JSON body whose values a list of the description offers, by field: the
 * body fields that name another resource. Fields with listed values (`enum`, `const`) are not among them.
 */
export function fixtureFields(spec: ApiSpec, operation: OperationInfo): Map<string, FixtureList> {
  const found = new Map<string, FixtureList>();
  const properties = requestSchemaOf(spec, operation.operationId)?.properties ?? {};
  for (const [field, schema] of Object.entries(properties)) {
    const scalar = schema.types?.some((type) => type === "string" || type === "integer") ?? false;
    if (!scalar || schema.enum !== undefined || schema.hasConst || schema.readOnly) continue;
    const list = fixtureList(spec, field, operation);
    if (list) found.set(field, list);
  }
  return found;
}

/** `suiteOptions.fixtures.<field>` (or the older `suiteOptions.workflows.<field>`) when it is a string. */
function configured(t: CaseContext, field: string): string | undefined {
  for (const group of ["fixtures", "workflows"]) {
    const value = (t.options[group] as Record<string, unknown> | undefined)?.[field];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

function operationOf(t: CaseContext, need: FixtureNeed): OperationInfo | undefined {
  return typeof need.for === "string" ? t.spec.operations.byId(need.for) : need.for;
}

/** Why no list offers `field`: "no list in the description offers a `region` for POST /x's body". */
export function noListReason(field: string, operation?: OperationInfo): string {
  const where = operation ? ` for ${operation.method.toUpperCase()} ${operation.pathTemplate}'s body` : "";
  return `no list in the description offers a \`${field}\`${where}`;
}

/** What a list page must be for fixtures to be chosen from it (a page's `data`, or a bare array). */
const listPage = shape.object({ data: shape.array(shape.record) });
const listArray = shape.array(shape.record);

/**
 * Every item of `list` (one page of the largest size). A list that cannot be read fails the case's assertion
 * `<operationId> answers 200` and skips the rest of it, saying so: choosing from a list that was never read would
 * skip with the wrong reason ("no region offers ..."). The read is sent once per run (`t.reuse`): choosing a
 * fixture judges nothing a second read would change, and every suite that chooses one would read it again.
 */
async function listItems(t: CaseContext, list: FixtureList): Promise<readonly Record<string, unknown>[]> {
  const { operation } = list;
  const id = operation.operationId;
  const sized = operation.parameters.some((entry) => entry.in === "query" && entry.name === "page_size");
  const query = sized ? { page_size: conventionsOf(t.spec).pageSize.max } : undefined;
  // A public list is read without a token, as any client of it would.
  const token = operation.security.public ? { token: null } : {};
  const key = `${id}${query ? `?page_size=${query.page_size}` : ""}${operation.security.public ? " without a token" : ""}`;
  const page = await t.reuse(key, () =>
    t.api.request("GET", operation.pathTemplate, { ...(query ? { query } : {}), ...token }),
  );
  const message = `${id} answered ${page.status}: the list to choose fixtures from cannot be read`;
  if (!expectStatus(t, `${id} answers 200`, page, 200, message))
    return t.skip(`${id} answered ${page.status}: nothing to choose a fixture from`);
  const body = Array.isArray(page.json)
    ? expectBody(t, `${id} is a list`, page, listArray)
    : expectBody(t, `${id} is a page of the list`, page, listPage)?.data;
  if (!body) return t.skip(`${id}'s answer is not a list: nothing to choose a fixture from`);
  return body.filter((item) => typeof item.id === "string" || Number.isSafeInteger(item.id));
}

/**
 * The usable items the description's list offers for `field` (in the list's order), or the reason there is no
 * such list. Reads the list (once per run).
 */
export async function fixtureItems(
  t: CaseContext,
  field: string,
  need: FixtureNeed = {},
): Promise<{ readonly items: readonly Record<string, unknown>[] } | { readonly lacking: string }> {
  const operation = operationOf(t, need);
  const list = fixtureList(t.spec, field, operation);
  if (!list) return { lacking: noListReason(field, operation) };
  const wanted = (need.capabilities ?? []).map((capability) => apiFacts.capabilities[capability]);
  if (wanted.length > 0 && !list.hasCapabilities) {
    t.log(`${list.operation.operationId}'s items list no capabilities: ${wanted.join(" and ")} not checked`);
  }
  const offers = (item: Record<string, unknown>) =>
    !list.hasCapabilities ||
    wanted.every((capability) => Array.isArray(item.capabilities) && item.capabilities.includes(capability));
  const items = (await listItems(t, list)).filter(
    (item) =>
      !(list.hasStatus && unusableStatuses.has(String(item.status))) &&
      offers(item) &&
      String(item.id) !== need.except,
  );
  return { items };
}

/** The ids of the usable items the description's list offers for `field`; none when it has no such list. */
export async function findFixtures(t: CaseContext, field: string, need: FixtureNeed = {}): Promise<string[]> {
  const found = await fixtureItems(t, field, need);
  return "lacking" in found ? [] : found.items.map((item) => String(item.id));
}

/** Which of the usable items to take (the first, unless a fixture says otherwise). */
export type FixturePick = (
  items: readonly Readonly<Record<string, unknown>>[],
) => Readonly<Record<string, unknown>> | undefined;

/**
 * The configured value of `field`, or the one `pick` takes (the first) among the usable items its list offers;
 * otherwise which fixture is lacking and why. Reads the list (once per run).
 */
export async function resolveFixture(
  t: CaseContext,
  field: string,
  need: FixtureNeed = {},
  pick: FixturePick = (items) => items[0],
): Promise<{ readonly value: string } | { readonly lacking: string }> {
  const given = configured(t, field);
  if (given) return { value: given };
  const found = await fixtureItems(t, field, need);
  if ("lacking" in found) return found;
  const chosen = pick(found.items);
  if (chosen) return { value: String(chosen.id) };
  const offering = (need.capabilities ?? []).map((capability) => apiFacts.capabilities[capability]);
  return {
    lacking:
      offering.length > 0
        ? `no listed ${field} offers ${offering.join(" and ")} on this target`
        : `no usable ${field} is listed on this target`,
  };
}

/** {@link resolveFixture}'s value; the case is skipped, saying which fixture it lacked, when there is none. */
export async function chooseFixture(
  t: CaseContext,
  field: string,
  need: FixtureNeed = {},
  pick?: FixturePick,
): Promise<string> {
  const resolved = await resolveFixture(t, field, need, pick);
  return "lacking" in resolved ? t.skip(resolved.lacking) : resolved.value;
}

/** The first listed region not in outage offering every capability asked for (other than `except`). */
export async function findRegion(
  t: CaseContext,
  capabilities: readonly Capability[],
  except?: string,
): Promise<string | undefined> {
  return (await findFixtures(t, "region", { capabilities, ...(except ? { except } : {}) }))[0];
}

/** Every listed region not in outage offering every capability asked for, in the list's order. */
export function findRegions(t: CaseContext, capabilities: readonly Capability[]): Promise<string[]> {
  return findFixtures(t, "region", { capabilities });
}

/** The configured region, or the first listed one offering every capability; skips the case without one. */
export function chooseRegion(
  t: CaseContext,
  capabilities: readonly Capability[],
  forOperation?: OperationInfo | string,
): Promise<string> {
  return chooseFixture(t, "region", { capabilities, ...(forOperation ? { for: forOperation } : {}) });
}

const numberOr = (value: unknown, otherwise: number) => (typeof value === "number" ? value : otherwise);

/** An instance type's price per hour: `price.hourly`, else its monthly price over 730 hours; unpriced last. */
function hourlyPrice(type: Readonly<Record<string, unknown>>): number {
  const price = (isObject(type.price) ? type.price : {}) as Readonly<Record<string, unknown>>;
  return numberOr(price.hourly, numberOr(price.monthly, Number.POSITIVE_INFINITY) / 730);
}

/** The cheapest instance type, of class `kind` when one is listed. */
export function cheapestType(kind?: string): FixturePick {
  return (types) => {
    const ofKind = types.filter((type) => type.class === kind);
    return [...(ofKind.length > 0 ? ofKind : types)].sort((a, b) => hourlyPrice(a) - hourlyPrice(b))[0];
  };
}

/** The configured instance type, or the cheapest listed one (of class `kind` when one is); skips without any. */
export function chooseType(
  t: CaseContext,
  kind?: string,
  forOperation?: OperationInfo | string,
): Promise<string> {
  return chooseFixture(t, "type", forOperation ? { for: forOperation } : {}, cheapestType(kind));
}

/** The configured image, or one every target of this API offers. */
export function chooseImage(t: CaseContext): string {
  return configured(t, "image") ?? apiFacts.defaultImage;
}
