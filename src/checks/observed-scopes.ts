/**
 * `observed-scopes`: `X-Accepted-OAuth-Scopes` names the scopes the description says the operation needs, and a
 * known caller's `X-OAuth-Scopes` stays the same from one answer to the next (a 401 says neither). The first
 * failure of the two is the verdict. Per-run state: each caller's last scopes (bounded).
 * @module
 */
import { type CheckOutcome, failed, passed } from "../core/result.ts";
import type { OperationInfo } from "../spec/types.ts";
import { observedOperation, remember } from "./_internals/observed.ts";
import type { AnsweredExchange, CheckDefinition } from "./types.ts";

export const observedScopes: CheckDefinition<Map<string, string>> = {
  id: "observed-scopes",
  title: "X-Accepted-OAuth-Scopes names the needed scopes; a token's X-OAuth-Scopes stays the same",
  state: () => new Map(),
  check(context, exchange, scopesByCaller) {
    const operation = observedOperation(context, exchange);
    if (!operation || exchange.response.status === 401) return undefined;
    const accepted = acceptedScopes(operation, exchange);
    const steady = sameScopes(scopesByCaller, context.caller, exchange);
    return [accepted, steady].find((outcome) => outcome?.status === "failed") ?? accepted ?? steady;
  },
};

function acceptedScopes(operation: OperationInfo, exchange: AnsweredExchange): CheckOutcome | undefined {
  const accepted = exchange.response.headers["x-accepted-oauth-scopes"];
  const needed = operation.security.scopes;
  if (accepted === undefined || operation.security.public || needed.length === 0) return undefined;
  const named = new Set(accepted.split(/[\s,]+/).filter(Boolean));
  if (needed.every((scope) => named.has(scope))) return passed;
  return failed(`X-Accepted-OAuth-Scopes does not name the scope ${operation.operationId} needs`, {
    expected: needed.join(" "),
    actual: accepted,
  });
}

function sameScopes(
  scopesByCaller: Map<string, string>,
  caller: string | undefined,
  exchange: AnsweredExchange,
): CheckOutcome | undefined {
  const scopes = exchange.response.headers["x-oauth-scopes"];
  if (caller === undefined || scopes === undefined) return undefined;
  const normal = scopes
    .split(/[\s,]+/)
    .filter(Boolean)
    .sort()
    .join(" ");
  const before = scopesByCaller.get(caller);
  remember(scopesByCaller, caller, normal);
  if (before === undefined || before === normal) return before === undefined ? undefined : passed;
  return failed("X-OAuth-Scopes changed between two answers to the same token", {
    expected: before,
    actual: normal,
  });
}
