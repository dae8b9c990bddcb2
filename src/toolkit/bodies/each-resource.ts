/**
 * One resource of each kind the description lets the run create and delete, for the body suites on a description
 * whose own fixtures cannot be made (not ours): the writes at their paths (`PUT /widgets/{widgetId}`) then get a
 * path value, as the bundled fixtures give ours. Each is made with a valid body drawn from its request schema
 * (fields naming a catalogue entry take one from its list; a `label` is the run's), parents before children, and
 * goes on the cleanup ledger at once. A kind the description cannot delete is not made; one the target refuses is
 * logged and its writes are left out, saying so.
 * @module
 */
import fc from "fast-check";
import { requestBodyValue, requestSchemaOf } from "../../generators/request-body.ts";
import type { CaseContext } from "../../runner/suite-api.ts";
import type { OperationInfo } from "../../spec/types.ts";
import { type PathValue, pathOf } from "../operations.ts";
import { templateParameters } from "../path-values.ts";
import { registerMade } from "../resources.ts";
import { jsonWriteOperations, type PathValues, pathParameters, withListedValues } from "./write-targets.ts";
import { createdResource } from "./written.ts";

/** The DELETE at the path of what `create` makes, and the parameter naming it there. */
function deletable(t: CaseContext, create: OperationInfo) {
  const made = createdResource(t, create);
  const remove = t.spec.operations
    .all()
    .find((other) => other.method === "delete" && other.pathTemplate === made?.operation.pathTemplate);
  return made && remove ? { remove, parameter: made.parameter } : undefined;
}

/** Makes one resource through `create` at `params`; answers its id, or undefined (logged) when none was made. */
async function makeOne(
  t: CaseContext,
  create: OperationInfo,
  params: readonly PathValue[],
  remove: OperationInfo,
): Promise<PathValue | undefined> {
  const schema = requestSchemaOf(t.spec, create.operationId)!;
  const label = schema.properties?.label ? t.label("fixture") : undefined;
  const labelled = label === undefined ? {} : { overrides: { "/label": fc.constant(label) } };
  const constraints = await withListedValues(t, create, labelled);
  if (constraints.unavailable) {
    t.log(`${create.operationId}: nothing made (${constraints.unavailable})`);
    return undefined;
  }
  const [body] = fc.sample(requestBodyValue(schema, { ...constraints, nulls: false }), {
    numRuns: 1,
    seed: t.seed,
  });
  const response = await t.api.request(create.method.toUpperCase(), pathOf(create, ...params), {
    json: body,
  });
  const id = registerMade(t, response, {
    what: `what ${create.operationId} made`,
    label,
    deletePath: (made) => pathOf(remove, ...params, made),
  });
  if (id === undefined)
    t.log(`${create.operationId} answered ${response.status}: nothing made to write against`);
  return id;
}

/**
 * Makes one resource of each kind the description can create (a POST at a collection whose item path has a
 * DELETE) and fills its path values from what was made before; answers the path values by parameter name.
 */
export async function makeEachResource(t: CaseContext): Promise<PathValues> {
  const values: Record<string, PathValue> = {};
  const creates = jsonWriteOperations(t)
    .filter((operation) => operation.method === "post" && deletable(t, operation) !== undefined)
    .sort((a, b) => templateParameters(a.pathTemplate).length - templateParameters(b.pathTemplate).length);
  for (const create of creates) {
    const { remove, parameter } = deletable(t, create)!;
    const where = pathParameters(create, values);
    if ("missing" in where || values[parameter] !== undefined) continue;
    const id = await makeOne(t, create, where.params, remove);
    if (id !== undefined) values[parameter] = id;
  }
  return values;
}
