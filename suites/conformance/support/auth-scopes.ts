/**
 * The auth suite's scope matrix: every operation that needs a token called with tokens of each scope level of
 * each area and with `*`, each answer judged by whether it must be let through, and its scope headers. Every
 * request is a harmless probe (unknown ids, a body every target refuses), so a target that wrongly lets a token
 * through still changes nothing.
 * @module
 */
import {
  apiFacts,
  type CaseContext,
  expectDocumentedHeader,
  guardedOperations,
  type LiveResponse,
  type MintedToken,
  mintOrSkip,
  type Operation,
  sameScopes,
  scopeSet,
  sendProbe,
  tokenName,
} from "../../../src/index.ts";

const { everyScope } = apiFacts;

export const areaOf = (scope: string) => scope.split(":")[0] ?? scope;
export const levelOf = (scope: string) => scope.split(":")[1] ?? "";

/**
 * Answers a probe (unknown ids, a body of the wrong shape) may get before the target looks at the token's scope:
 * the description does not order the checks, so a refusal for the request itself says nothing of the scope.
 */
const judgedBeforeScope = new Set([400, 404, 405, 422]);

/**
 * One row of the matrix: an operation called with one token, and whether it must be let through. Answers false
 * when a row that must be refused could not be judged (the target refused the probe itself first).
 */
export function judgeRow(
  t: CaseContext,
  operation: Operation,
  token: MintedToken,
  allowed: boolean,
  rule: string,
  response: LiveResponse,
  scopeFirst: boolean,
): boolean {
  const needed = operation.security.scopes;
  const at = `${operation.operationId} with ${tokenName(token)}`;
  if (!allowed && !scopeFirst && judgedBeforeScope.has(response.status)) return false;
  const held = allowed ? response.status !== 401 && response.status !== 403 : response.status === 403;
  const verdict = allowed ? `was refused (${response.status})` : `answered ${response.status}`;
  t.expect(rule, held, {
    message: `${at} ${verdict}; it needs ${needed.join(" or ") || "any valid token"}`,
    expected: allowed ? "not 401 or 403" : 403,
    actual: response.status,
    response,
  });
  if (response.status === 401) return true;
  // An operation naming no scope (getProfile) takes any valid token and says so with `*`.
  const names = (value?: string) =>
    needed.length === 0
      ? value === apiFacts.publicAcceptedScopes
      : needed.some((scope) => scopeSet(value).has(scope));
  const needs = { where: at, expected: needed.join(" or ") || apiFacts.publicAcceptedScopes };
  expectDocumentedHeader(
    t,
    "X-Accepted-OAuth-Scopes names the needed scope",
    response,
    "X-Accepted-OAuth-Scopes",
    names,
    needs,
  );
  const echoes = (value?: string) => sameScopes(value, token.scopes);
  const own = { where: at, expected: token.scopes };
  expectDocumentedHeader(
    t,
    "X-OAuth-Scopes echoes the token's scopes",
    response,
    "X-OAuth-Scopes",
    echoes,
    own,
  );
  return true;
}

export interface RowPlan {
  readonly token: MintedToken | undefined;
  readonly allowed: boolean;
  readonly rule: string;
}

/** The matrix's rows for an operation naming scopes: its own, read_write over read_only, read_only, another area, *. */
export function scopeRows(
  operation: Operation,
  areas: readonly string[],
  tokens: ReadonlyMap<string, MintedToken>,
  star: MintedToken,
): RowPlan[] {
  const { scopes } = operation.security;
  const needed = scopes[0]!;
  const area = areaOf(needed);
  const plan: RowPlan[] = [
    {
      token: tokens.get(needed),
      allowed: true,
      rule: "a token with exactly the needed scope is let through",
    },
  ];
  if (levelOf(needed) === "read_only") {
    plan.push({
      token: tokens.get(`${area}:read_write`),
      allowed: true,
      rule: "read_write implies read_only",
    });
  } else if (levelOf(needed) === "read_write" && !scopes.some((s) => levelOf(s) === "read_only")) {
    plan.push({
      token: tokens.get(`${area}:read_only`),
      allowed: false,
      rule: "a read_only token cannot write",
    });
  }
  const otherArea = areas.find((candidate) => !scopes.some((s) => areaOf(s) === candidate));
  if (otherArea)
    plan.push({
      token: tokens.get(`${otherArea}:read_write`),
      allowed: false,
      rule: "a token of another area gets 403",
    });
  plan.push({ token: star, allowed: true, rule: "a * token does everything" });
  return plan;
}

/**
 * Every operation naming a scope: exactly its scope suffices, read_write implies read_only, read_only cannot write,
 * another area gets 403, `*` does all; an operation naming none lets any valid token through.
 */
export async function judgeScopeMatrix(t: CaseContext): Promise<void> {
  const operations = guardedOperations(t).filter((operation) => operation.security.scopes.length > 0);
  if (operations.length === 0) return t.skip("no operation of the spec names a scope");
  const areas = [...new Set(operations.flatMap((operation) => operation.security.scopes.map(areaOf)))];
  // One token per scope level of each area the description uses, and one with *.
  const tokens = new Map<string, MintedToken>();
  for (const area of areas) {
    for (const level of ["read_only", "read_write"]) {
      tokens.set(`${area}:${level}`, await mintOrSkip(t, `scope-${area}-${level}`, `${area}:${level}`));
    }
  }
  const star = await mintOrSkip(t, "scope-all", everyScope);
  let rows = 0;
  const unjudged: string[] = [];
  // Operations that name no scope take any valid token (getProfile on the real service).
  const anyToken = guardedOperations(t).filter((operation) => operation.security.scopes.length === 0);
  const plans: [Operation, RowPlan[]][] = [
    ...anyToken.map((operation): [Operation, RowPlan[]] => [
      operation,
      [
        {
          token: tokens.get(`${areas[0]}:read_only`),
          allowed: true,
          rule: "an operation naming no scope lets any valid token through",
        },
      ],
    ]),
    ...operations.map((operation): [Operation, RowPlan[]] => [
      operation,
      scopeRows(operation, areas, tokens, star),
    ]),
  ];
  for (const [operation, plan] of plans) {
    const sent: [RowPlan & { token: MintedToken }, LiveResponse][] = [];
    for (const entry of plan) {
      const response = entry.token && (await sendProbe(t, operation, entry.token.token));
      if (entry.token && response) sent.push([{ ...entry, token: entry.token }, response]);
    }
    rows += sent.length;
    // A 403 to one refused row shows this operation judges the scope before the request itself.
    const scopeFirst = sent.some(([entry, response]) => !entry.allowed && response.status === 403);
    for (const [entry, response] of sent) {
      if (!judgeRow(t, operation, entry.token, entry.allowed, entry.rule, response, scopeFirst))
        unjudged.push(`${operation.operationId} with ${tokenName(entry.token)} (${response.status})`);
    }
  }
  t.log(
    `scope matrix: ${operations.length + anyToken.length} operations, ${rows} requests, ${tokens.size + 1} tokens`,
  );
  if (unjudged.length > 0)
    t.log(
      `scope matrix: ${unjudged.length} refusals not judged: the target refused the probe itself before its scope (${unjudged.slice(0, 3).join(", ")}${unjudged.length > 3 ? ", ..." : ""})`,
    );
}
