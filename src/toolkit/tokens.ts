/**
 * Personal access tokens a suite mints for itself with the run's token (operation createPersonalAccessToken),
 * each marked secret and revoked at the end of the run through deletePersonalAccessToken's path; and the skip of
 * a case that would change the account where writes are not allowed.
 * @module
 */
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { call, pathOf, requireOperation } from "./operations.ts";
import { registerMade } from "./resources.ts";
import { sameScopes } from "./responses.ts";

export interface MintedToken {
  readonly id: number;
  readonly token: string;
  /** The scopes as the target granted them (its normalised form); the scopes asked for when it does not say. */
  readonly scopes: string;
  /** The scopes asked for: what a report names the token by (a target may grant others). */
  readonly requested: string;
  readonly expiry: string | null;
}

export type MintOutcome =
  | { readonly ok: true; readonly minted: MintedToken; readonly response: LiveResponse }
  | { readonly ok: false; readonly response: LiveResponse };

/**
 * A minted token as a report names it: by the scopes asked for, and what the target granted where that differs (a
 * token named by the granted scopes alone would hide a target that grants other scopes than were asked).
 */
export function tokenName(token: MintedToken): string {
  return sameScopes(token.scopes, token.requested)
    ? `a "${token.requested}" token`
    : `a token asked for "${token.requested}" (granted "${token.scopes}")`;
}

/** Skips the case unless writes are allowed here, saying `why` it would write. */
export function requireWrites(t: CaseContext, why: string): void {
  if (!t.target.writesAllowed) t.skip(`${why}: run against the embedded target or pass --allow-writes`);
}

/**
 * Mints a personal access token with `scopes` (and `expiry`, an ISO date-time, when given), registers its
 * revocation and marks it secret. Answers the refusal instead when the target refuses. Skips the case when the
 * description has no way to mint or to revoke one (a token nobody can revoke is never made).
 */
export async function mintToken(
  t: CaseContext,
  name: string,
  scopes: string,
  expiry?: string,
): Promise<MintOutcome> {
  const revoke = requireOperation(t, "deletePersonalAccessToken");
  const label = t.label(name);
  const response = await call(t, "createPersonalAccessToken", {
    json: { label, scopes, ...(expiry ? { expiry } : {}) },
  });
  // Registered from whatever the answer reveals (its JSON whatever the label, its Location, else by label), before
  // anything judges it: a token left behind is a credential still valid.
  registerMade(t, response, {
    what: "personal access token",
    note: scopes,
    label,
    deletePath: (id) => pathOf(revoke, id),
  });
  const body = response.parsed as Partial<MintedToken> | undefined;
  if (typeof body?.token === "string") t.secret(body.token);
  if (response.status !== 200 || typeof body?.token !== "string" || typeof body.id !== "number") {
    return { ok: false, response };
  }
  return {
    ok: true,
    response,
    minted: {
      id: body.id,
      token: body.token,
      scopes: typeof body.scopes === "string" ? body.scopes : scopes,
      requested: scopes,
      expiry: typeof body.expiry === "string" ? body.expiry : null,
    },
  };
}

/** Mints a token or skips the case, saying why (writes not allowed here, or the target refused). */
export async function mintOrSkip(t: CaseContext, name: string, scopes: string): Promise<MintedToken> {
  requireWrites(t, "minting a token changes the account");
  const outcome = await mintToken(t, name, scopes);
  if (outcome.ok) return outcome.minted;
  return t.skip(
    `the target refused to mint a token with scopes "${scopes}" (${outcome.response.status}); the run's token may lack account:read_write or those scopes`,
  );
}

/**
 * The run token's scopes as the target says them (`X-OAuth-Scopes` on `response`), for minting tokens that may not
 * exceed them. A value the description's scope list refuses (a mock's placeholder, say) is the target's fault: it
 * fails an assertion of the case, and the answer is undefined, so no request of ours is built from it (which would
 * error the case as the suite's own defect).
 */
export function runTokenScopes(t: CaseContext, response: LiveResponse): string | undefined {
  const scopes = response.headers["x-oauth-scopes"];
  if (scopes === undefined) return undefined;
  const validate = t.spec.validators.request(requireOperation(t, "createPersonalAccessToken").operationId);
  const outcome = validate?.({ label: "conform-scopes-probe", scopes });
  const refused = outcome && !outcome.valid && outcome.issues.some((issue) => issue.field === "scopes");
  t.expect("X-OAuth-Scopes names scopes of the description's list", !refused, {
    message: `X-OAuth-Scopes is ${JSON.stringify(scopes)}: not a scope list the description knows`,
    expected: "*, or <area>:read_only / <area>:read_write separated by spaces",
    actual: scopes,
    response,
  });
  return refused ? undefined : scopes;
}
