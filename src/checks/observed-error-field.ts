/**
 * `observed-error-field`: a 400 to a request whose fault is one input names a field: an X-Filter or a page
 * parameter the description refuses, or a JSON body breaking the request schema at a field (unless the
 * description marks that value refused without a field, `x-*-refused-without-field`). Judged from the request
 * alone, so it holds for any client's traffic.
 * @module
 */
import { failed, passed } from "../core/result.ts";
import { checkFilterHeader } from "../oracles/filter-oracle.ts";
import { expectPage } from "../oracles/pagination-oracle.ts";
import { conventionsOf } from "../spec/conventions.ts";
import { parsePointer } from "../spec/pointer.ts";
import { refusedWithoutField } from "../spec/refused-without-field.ts";
import type { OperationInfo } from "../spec/types.ts";
import { filterTextOf, isObject, observedOperation, pageQueryOf } from "./_internals/observed.ts";
import type { AnsweredExchange, CheckContext, CheckDefinition } from "./types.ts";

export const observedErrorField: CheckDefinition = {
  id: "observed-error-field",
  title: "A 400 to a request whose fault is one input names the field",
  check(context, exchange) {
    const operation = observedOperation(context, exchange);
    const { response } = exchange;
    if (!operation || response.status !== 400 || !isObject(response.json)) return undefined;
    const envelope = conventionsOf(context.spec).errorEnvelope;
    const errors = response.json[envelope.list];
    if (!Array.isArray(errors)) return undefined; // error-body-shape says so
    const faultAt = faultyField(context, operation, exchange);
    if (faultAt === undefined) return undefined;
    const named = errors.filter(isObject).some((error) => typeof error[envelope.field] === "string");
    if (named) return passed;
    return failed(`a 400 to a request whose fault is ${faultAt} names no ${envelope.field}`, {
      expected: `an error with ${envelope.field}`,
      actual: errors,
    });
  },
};

/** The one input the request got wrong, when the description alone says so. */
function faultyField(
  context: CheckContext,
  operation: OperationInfo,
  exchange: AnsweredExchange,
): string | undefined {
  const { spec } = context;
  if (operation.paginated) {
    const text = filterTextOf(context, exchange);
    if (text !== undefined && checkFilterHeader(text, operation.filterableFields).status === "invalid")
      return conventionsOf(spec).filterHeader;
    const expected = expectPage(pageQueryOf(new URL(exchange.request.url)), 0, conventionsOf(spec).pageSize);
    if (expected.status === "refused") return expected.fields.join(", ");
  }
  const { body } = exchange.request;
  if (!operation.requestBody || body === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined; // a body that is not JSON is no single field's fault
  }
  if (!isObject(value) || JSON.stringify(value).includes("REDACTED")) return undefined;
  const outcome = spec.validators.request(operation.operationId, "application/json")?.(value);
  if (!outcome || outcome.valid) return undefined;
  const issue = outcome.issues.find((entry) => entry.field !== "");
  if (!issue) return undefined;
  // The description says a refusal of this value names no field (x-*-refused-without-field).
  if (refusedWithoutField(spec, operation.operationId, parsePointer(issue.instancePath) ?? []))
    return undefined;
  return `field ${issue.field}`;
}
