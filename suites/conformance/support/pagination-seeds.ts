/**
 * The pagination suite's seed data: on the embedded reference server (which starts empty), the body fixtures (a
 * load balancer with a profile and a node, an instance...) and more items in every nested list the fixtures reach
 * (`/nodebalancers/{id}/configs`, `.../nodes`), so the nested lists' pages have items to compare. Valid bodies as
 * the body suites draw them; all on the cleanup ledger.
 * @module
 */
import fc from "fast-check";
import {
  apiOperations,
  type CaseContext,
  createBodyFixtures,
  isSuccess,
  registerWritten,
  requestBody,
  sendBody,
  type WriteTarget,
  written,
} from "../../../src/index.ts";
import { bodyTargets } from "./bodies-domain.ts";

/** Items each nested list holds after seeding (the fixture's own included): pages of one compare nothing. */
const seededPerList = 3;

/** Creates with a path parameter whose path is a paginated list's: each adds an item to a nested list. */
function nestedListCreates(t: CaseContext, targets: readonly WriteTarget[]): WriteTarget[] {
  const lists = new Set(
    apiOperations(t)
      .filter((operation) => operation.method === "get" && operation.paginated)
      .map((operation) => operation.pathTemplate),
  );
  return targets.filter(
    (target) =>
      target.operation.method === "post" &&
      target.params.length > 0 &&
      lists.has(target.operation.pathTemplate),
  );
}

/** Adds items to the nested lists the body fixtures reach; skips off the embedded server. */
export async function seedNestedLists(t: CaseContext): Promise<void> {
  if (!t.target.embedded || !t.target.writesAllowed)
    t.skip(
      "seeding creates load balancers and their profiles and nodes: only on the embedded reference server",
    );
  const fixtures = await createBodyFixtures(t);
  if (fixtures.lacking) t.skip(fixtures.lacking);
  for (const target of nestedListCreates(t, await bodyTargets(t))) {
    const id = target.operation.operationId;
    for (let nth = 1; nth < seededPerList; nth += 1) {
      const [body] = fc.sample(requestBody(target.schema, target.constraints), {
        numRuns: 1,
        seed: t.seed + nth,
      });
      const response = await sendBody(t, target, body!.value);
      if (!t.expect(`${id}: a seed item is made`, isSuccess(response), { expected: "2xx", response })) break;
      target.constraints.accepted?.(body!.value);
      registerWritten(t, target.operation, written(t, target, response), body!.value);
    }
  }
}
