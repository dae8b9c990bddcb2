/**
 * The auth suite's 401s: the refusal the description gives a missing or bad token (401, `Invalid Token`,
 * `X-OAuth-Scopes: unknown`), over every operation that needs a token or on one plain read.
 * @module
 */
import {
  apiFacts,
  type CaseContext,
  errorReasons,
  expectDocumentedHeader,
  expectStatus,
  guardedOperations,
  type LiveResponse,
  type Operation,
  plainRead,
  sendProbe,
} from "../../../src/index.ts";

const { invalidTokenReason, unknownScopes } = apiFacts;

/** Asserts the 401 the description gives for a missing or bad token (`at`: the operation and how it was called). */
export function expectInvalidToken(t: CaseContext, at: string, response: LiveResponse): void {
  const rule = "a request without a valid token answers 401";
  if (!expectStatus(t, rule, response, 401, `${at} answered ${response.status}`)) return;
  const reasons = errorReasons(t, response);
  t.expect(`401 says ${invalidTokenReason}`, reasons.includes(invalidTokenReason), {
    message: `${at}: the 401's reasons do not include "${invalidTokenReason}"`,
    expected: invalidTokenReason,
    actual: reasons,
    response,
  });
  const unknown = (value?: string) => value === unknownScopes;
  const where = { where: at, expected: unknownScopes };
  expectDocumentedHeader(
    t,
    `401 carries X-OAuth-Scopes: ${unknownScopes}`,
    response,
    "X-OAuth-Scopes",
    unknown,
    where,
  );
}

/** Sends the harmless probe of every guarded operation with `token` and expects 401 each time. */
export async function everyOperationRefuses(
  t: CaseContext,
  what: string,
  token: string | null,
): Promise<void> {
  const operations = guardedOperations(t);
  if (operations.length === 0) return t.skip("the spec has no operation that needs a token");
  for (const operation of operations) {
    const response = await sendProbe(t, operation, token);
    if (response) expectInvalidToken(t, `${operation.operationId} ${what}`, response);
  }
}

/** The plain read 401 cases send a bad token to (the profile here); skips without one. */
export function guardedRead(t: CaseContext): Operation {
  return plainRead(t) ?? t.skip("the spec has no plain read that needs a token");
}
