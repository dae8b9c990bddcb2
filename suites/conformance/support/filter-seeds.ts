/**
 * The filters suite's seed data: on the embedded reference server (which starts empty), lists with fewer than
 * five items get load balancers and instances (and private addresses) with values chosen so that generated
 * filters select something, tie and differ in case; all on the cleanup ledger.
 * @module
 */
import {
  type CaseContext,
  call,
  chooseImage,
  chooseType,
  conventionsOf,
  createRegistered,
  expectCreated,
  findRegions,
  forgetLists,
  requireCreateDelete,
  requireOperation,
} from "../../../src/index.ts";
import { filterable } from "./filter-lists.ts";

/** Labels and values for the lists `seed-data` fills. */
const balancerSeeds = [
  { name: "fb-alpha", client_conn_throttle: 0, tags: ["Alpha", "web"] },
  { name: "fb-beta", client_conn_throttle: 5, tags: ["alpha"] },
  { name: "fb-gamma", client_conn_throttle: 20, tags: [] },
  { name: "fb-delta", client_conn_throttle: 10, tags: ["web", "Beta"] },
  { name: "fb-epsilon", client_conn_throttle: 20, tags: ["beta", "web"] },
];
const instanceSeeds = [
  { name: "fi-web1", group: "web", tags: ["prod", "Blue"], image: true },
  { name: "fi-web2", group: "web", tags: ["prod"], image: false },
  { name: "fi-db1", group: "db", tags: ["prod", "db"], image: true },
  { name: "fi-db2", group: "db", tags: [], image: false },
  { name: "fi-cache", group: "", tags: ["blue"], image: true },
  { name: "fi-batch", group: "Batch", tags: ["Prod"], image: false },
];
/** Lists with fewer items than this get seeded (the embedded reference starts empty). */
const fewItems = 5;

/** Fills the load balancer and instance lists (and private addresses) when they hold fewer than {@link fewItems}. */
export async function seedData(t: CaseContext): Promise<void> {
  if (!t.target.embedded || !t.target.writesAllowed) {
    t.skip("seeding creates load balancers and instances: only on the embedded reference server");
  }
  // Every operation first: a case skipped half-way must not leave what it made unregistered for cleanup.
  for (const create of ["createNodeBalancer", "createComputeInstance"]) requireCreateDelete(t, create);
  requireOperation(t, "allocateIP");
  const count = async (operationId: string) => {
    const page = await call(t, operationId, { query: { page_size: conventionsOf(t.spec).pageSize.min } });
    return page.status === 200 ? ((page.json as { results?: number }).results ?? 0) : Number.NaN;
  };
  const balancers = await count("getNodeBalancers");
  const instances = await count("getComputeInstances");
  if (!(balancers < fewItems) && !(instances < fewItems)) t.skip("every list already holds items to filter");
  const regions = await findRegions(t, ["instances", "balancers"]);
  if (regions.length === 0) t.skip("no region with instances and load balancers is listed");
  const type = await chooseType(t);
  const regionAt = (index: number) => regions[index % Math.min(3, regions.length)]!;
  /** Creates one item (`what`: "a load balancer") and registers it for deletion; its id, if created. */
  const create = async (what: string, operationId: string, json: object) => {
    const created = await createRegistered(t, operationId, what.replace(/^an? /, ""), { json });
    return expectCreated(t, `${what} to filter is created`, created) ? created.id : undefined;
  };
  for (const [index, { name, ...seed }] of (balancers < fewItems ? balancerSeeds : []).entries()) {
    const json = { region: regionAt(index), label: t.label(name), ...seed };
    if ((await create("a load balancer", "createNodeBalancer", json)) === undefined) break;
  }
  const password = `Filter-seed-${t.seed}-correct-horse-battery`;
  t.secret(password);
  for (const [index, { name, image, ...seed }] of (instances < fewItems ? instanceSeeds : []).entries()) {
    const credentials = image ? { image: chooseImage(t), root_pass: password } : {};
    const json = {
      region: regionAt(index),
      type,
      label: t.label(name),
      ...seed,
      booted: false,
      ...credentials,
    };
    const id = await create("an instance", "createComputeInstance", json);
    if (id === undefined) break;
    if (index % 2 !== 0) continue;
    // A private address too: the address list gets non-public entries, the instance a second ipv4.
    const address = await call(t, "allocateIP", { json: { type: "ipv4", public: false, compute_id: id } });
    t.expect("a private address to filter is allocated", address.status === 200, { actual: address.status });
  }
  forgetLists(t, filterable);
}
