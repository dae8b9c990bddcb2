/**
 * Operations as suites find them: by operationId in the loaded description (never by path), or by what the
 * description says of them (served by the API server, public, paginated, deprecated, the scope they need). A case
 * that needs an operation the description lacks is skipped with "the description has no operation <id>".
 * Also harmless probes: a request to any operation that cannot change anything on any target.
 * @module
 */
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext, RequestOptions } from "../runner/suite-api.ts";
import type { OperationInfo } from "../spec/types.ts";

export type Operation = OperationInfo;

/** A path parameter's value. */
export type PathValue = string | number;

/** The operation with this operationId; the case is skipped when the loaded description has none. */
export function requireOperation(t: CaseContext, operationId: string): OperationInfo {
  const operation = t.spec.operations.byId(operationId);
  if (!operation) return t.skip(`the description has no operation ${operationId}`);
  return operation;
}

/**
 * The operation's concrete path: its path parameters filled in order with `values` (URL-encoded). Values by
 * position, not by name, so another edition that renames a parameter still works.
 */
export function pathOf(operation: OperationInfo, ...values: readonly PathValue[]): string {
  let index = 0;
  return operation.pathTemplate.replace(/\{[^}]+\}/g, (template) => {
    const value = values[index++];
    if (value === undefined) {
      throw new TypeError(`${operation.operationId}: no value for ${template} in ${operation.pathTemplate}`);
    }
    return encodeURIComponent(String(value));
  });
}

/** The path of operation `operationId` with its parameters filled in order; skips when the description lacks it. */
export function pathFor(t: CaseContext, operationId: string, ...values: readonly PathValue[]): string {
  return pathOf(requireOperation(t, operationId), ...values);
}

export interface CallOptions extends RequestOptions {
  /** Path parameters, in the order of the path template. */
  readonly params?: readonly PathValue[];
}

/** Calls operation `operationId` with its method and concrete path (skips when the description lacks it). */
export function call(t: CaseContext, operationId: string, options: CallOptions = {}): Promise<LiveResponse> {
  const operation = requireOperation(t, operationId);
  const { params = [], ...request } = options;
  const client = operation.serverUrl === undefined ? t.api : t.auth;
  return client.request(operation.method.toUpperCase(), pathOf(operation, ...params), request);
}

/** Operations of the API server (not the login server's) the run selects, in the description's order. */
export function apiOperations(t: CaseContext): OperationInfo[] {
  return t.spec.operations
    .all()
    .filter((operation) => operation.serverUrl === undefined && t.isOperationSelected(operation.operationId));
}

/** Operations of the API server that need a token. */
export function guardedOperations(t: CaseContext): OperationInfo[] {
  return apiOperations(t).filter((operation) => !operation.security.public);
}

const hasNoParameter = (operation: OperationInfo) => !operation.pathTemplate.includes("{");

/** The first read without a path parameter that needs a token, not a list when one exists (the profile here). */
export function plainRead(t: CaseContext, operations = guardedOperations(t)): OperationInfo | undefined {
  const reads = operations.filter((op) => op.method === "get" && hasNoParameter(op));
  return reads.find((op) => !op.paginated) ?? reads[0];
}

/** The first public read without a path parameter (a catalogue list here). */
export function publicRead(t: CaseContext): OperationInfo | undefined {
  return apiOperations(t).find((op) => op.security.public && op.method === "get" && hasNoParameter(op));
}

/** The paginated GET lists of the API server whose path has no parameter (top-level collections). */
export function topLevelLists(t: CaseContext): OperationInfo[] {
  return apiOperations(t).filter((op) => op.paginated && op.method === "get" && hasNoParameter(op));
}

/** A value no target holds for a path parameter of this schema: ids far beyond any in use, a documentation IPv4. */
export function unknownValue(schema: unknown): string {
  const shape = (typeof schema === "object" && schema !== null ? schema : {}) as {
    type?: unknown;
    format?: unknown;
    maximum?: unknown;
  };
  if (shape.type === "integer" || shape.type === "number") {
    const ceiling = typeof shape.maximum === "number" ? shape.maximum : Number.POSITIVE_INFINITY;
    return String(Math.min(987_654_321, ceiling));
  }
  if (shape.format === "ipv4" || shape.format === "ip") return "192.0.2.1"; // RFC 5737 TEST-NET-1
  if (shape.format === "ipv6") return "2001:db8::dead"; // RFC 3849
  return "conform-unknown-0";
}

/** The operation's path with every path parameter set to an unknown value. */
export function unknownPath(operation: OperationInfo): string {
  return operation.pathTemplate.replace(/\{([^}]+)\}/g, (_all, name: string) => {
    const parameter = operation.parameters.find((entry) => entry.in === "path" && entry.name === name);
    return encodeURIComponent(unknownValue(parameter?.schema));
  });
}

/** What the probe's `[]` body breaks (a deliberately invalid request says so). */
export const probeBodyBreaks =
  "body: a JSON array where the request schema wants an object (refused, so harmless)";

/**
 * A request to `operation` that cannot change anything on any target, whatever the token: unknown ids in the
 * path, and for an operation with a body a JSON array where an object is expected (refused as a bad request; the
 * probe says it breaks the schema: `breaks`). Undefined for a write with neither (it could act on something real).
 */
export function harmlessProbe(
  operation: OperationInfo,
): { method: string; path: string; json: unknown; breaks: string | undefined } | undefined {
  const path = unknownPath(operation);
  const json = operation.requestBody ? [] : undefined;
  const acts = operation.method !== "get" && operation.method !== "head";
  if (acts && path === operation.pathTemplate && json === undefined) return undefined;
  return {
    method: operation.method.toUpperCase(),
    path,
    json,
    breaks: json === undefined ? undefined : probeBodyBreaks,
  };
}

/** Sends the harmless probe of `operation` with `token` (null: none); undefined when it has none. */
export function sendProbe(
  t: CaseContext,
  operation: OperationInfo,
  token: string | null | undefined,
  options: Pick<RequestOptions, "headers" | "retry" | "pace"> = {},
): Promise<LiveResponse> | undefined {
  const probe = harmlessProbe(operation);
  if (!probe) return undefined;
  return t.api.request(probe.method, probe.path, {
    token,
    ...(probe.json !== undefined ? { json: probe.json } : {}),
    ...(probe.breaks !== undefined ? { breaks: probe.breaks } : {}),
    ...options,
  });
}
