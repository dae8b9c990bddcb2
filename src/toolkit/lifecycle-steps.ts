/**
 * The steps of a resource's lifecycle (see `lifecycle.ts`): create, read back and list, filter, update, children
 * under their parent only, delete and what must follow it, and a refused create leaving nothing.
 * @module
 */

import { requestSchemaOf } from "../generators/request-body.ts";
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext, RequestOptions } from "../runner/suite-api.ts";
import { ancestorsOf, type Resource, resourcesOf } from "../spec/resources.ts";
import {
  Chain,
  type ChainItem,
  childResources,
  comparableFields,
  createItem,
  differing,
  fill,
  type Ids,
  itemWithId,
  listAll,
  type MadeValue,
  makeAncestors,
  type RefusedCreate,
} from "./lifecycle.ts";
import { itemsOf } from "./path-values.ts";
import { registerMade } from "./resources.ts";

const is2xx = (response: LiveResponse) => response.status >= 200 && response.status <= 299;

/**
 * Runs the lifecycle of `resource` (see the module's comment), its bodies taking the values `madeValues` make.
 * Answers whether the chain went through to the delete (false when it stopped early: nothing made, or a target that
 * keeps nothing).
 */
export async function runLifecycle(
  t: CaseContext,
  resource: Resource,
  madeValues: readonly MadeValue[] = [],
): Promise<boolean> {
  const chain = new Chain(t, resource, madeValues);
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
async function readBackAndList(chain: Chain, made: ChainItem, parentIds: Ids): Promise<boolean> {
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
async function filterFinds(chain: Chain, made: ChainItem, parentIds: Ids): Promise<void> {
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
async function updateKept(chain: Chain, made: ChainItem): Promise<void> {
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
async function childUnderItsParentOnly(chain: Chain, child: Resource, made: ChainItem): Promise<void> {
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
async function deleteAndAfter(chain: Chain, made: ChainItem, parentIds: Ids): Promise<void> {
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

/** A create body breaking one rule of its schema (not its label's), when there is one to break. */
async function schemaBreakingCreate(chain: Chain, parentIds: Ids): Promise<RefusedCreate | undefined> {
  const invalid = await chain.invalidCreate(parentIds);
  const body = invalid?.body;
  if (!invalid || typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  if (invalid.broken.some((rule) => rule.at === "label")) return undefined;
  const breaks = invalid.broken.map((rule) => `${rule.in} ${rule.at}: ${rule.rule}`).join("; ");
  return { why: "a create breaking a rule", body: body as Record<string, unknown>, breaks };
}
