/**
 * The write operations a body suite exercises, found in the loaded description (never by path): every operation
 * of the API server that takes a JSON request body, so the suites grow with the description. Each becomes a write
 * target on this target: its path parameters filled by name from the resources the suite made, its request
 * schema, and what the suite says a valid body must also be there (its constraints beyond the schema). A body
 * field that names another resource (a list of the description offers its values: a `region`) is given a value
 * that list offers ({@link withListedValues}), found through the description as any fixture is.
 * @module
 */
import fc from "fast-check";
import type { BodySchema, RequestBodyConstraints } from "../../generators/request-body.ts";
import { requestSchemaOf } from "../../generators/request-body.ts";
import type { LiveResponse } from "../../runner/contracts.ts";
import type { CaseContext, RequestOptions } from "../../runner/suite-api.ts";
import type { OperationInfo } from "../../spec/types.ts";
import { fixtureFields, resolveFixture } from "../fixtures.ts";
import { apiOperations, type PathValue, pathOf } from "../operations.ts";

/** Generator constraints of one write operation, and what the target's state adds to them. */
export interface WriteConstraints extends RequestBodyConstraints {
  /** Why this operation cannot be written to on this target (the case says so, and does not count it passed). */
  readonly unavailable?: string;
  /** A body the target's current state would refuse for reasons outside the body (a port now in use). */
  readonly stale?: (body: Record<string, unknown>) => boolean;
  /** Notes what an accepted body changed (a port now in use). */
  readonly accepted?: (body: Record<string, unknown>) => void;
}

export interface WriteTarget {
  readonly operation: OperationInfo;
  /** Its path parameters' values, in the order of its path template. */
  readonly params: readonly PathValue[];
  /** Its concrete path. */
  readonly path: string;
  readonly schema: BodySchema;
  readonly constraints: WriteConstraints;
}

/** Path parameter values by the description's parameter names (`nodeBalancerId`); undefined: none known. */
export type PathValues = Readonly<Record<string, PathValue | undefined>>;

const isJson = (type: string) => type.split(";")[0]?.trim() === "application/json";

/** Operations on the API server with a JSON request body, creates first, updates next, actions last. */
export function jsonWriteOperations(t: CaseContext): OperationInfo[] {
  const writes = apiOperations(t).filter(
    (operation) =>
      ["post", "put", "patch"].includes(operation.method) &&
      (operation.requestBody?.contentTypes ?? []).some(isJson) &&
      requestSchemaOf(t.spec, operation.operationId) !== undefined,
  );
  return writes
    .map((operation, index) => ({ operation, index, rank: writeRank(t, operation) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.operation);
}

/**
 * 0: creates, 1: updates, 2: actions (`POST .../{id}/rebuild`: no read at that path, a literal after an id),
 * which may replace what the others wrote to and so go last.
 */
function writeRank(t: CaseContext, operation: OperationInfo): number {
  if (operation.method !== "post") return 1;
  const segments = operation.pathTemplate.split("/").filter(Boolean);
  const readable = t.spec.operations
    .all()
    .some((other) => other.method === "get" && other.pathTemplate === operation.pathTemplate);
  const action =
    !readable && !(segments.at(-1) ?? "").startsWith("{") && (segments.at(-2) ?? "").startsWith("{");
  return action ? 2 : 0;
}

/** The values of the operation's path parameters in order, or the name of the first one with no value. */
export function pathParameters(
  operation: OperationInfo,
  values: PathValues,
): { readonly params: PathValue[] } | { readonly missing: string } {
  const params: PathValue[] = [];
  for (const [, name] of operation.pathTemplate.matchAll(/\{([^}]+)\}/g)) {
    const value = values[name!];
    if (value === undefined) return { missing: name! };
    params.push(value);
  }
  return { params };
}

/**
 * `constraints` with each body field that names another resource (`fixtureFields`: a list of the description
 * offers its values) set to the value the target's list offers, unless the constraints already set it or leave it
 * out; without a usable value the operation is unavailable, saying which fixture it lacks.
 */
export async function withListedValues(
  t: CaseContext,
  operation: OperationInfo,
  constraints: WriteConstraints,
): Promise<WriteConstraints> {
  if (constraints.unavailable) return constraints;
  const overrides = { ...constraints.overrides };
  for (const field of fixtureFields(t.spec, operation).keys()) {
    const pointer = `/${field}`;
    if (pointer in overrides || constraints.exclude?.includes(pointer)) continue;
    const found = await resolveFixture(t, field, { for: operation });
    if ("lacking" in found) return { ...constraints, unavailable: found.lacking };
    overrides[pointer] = fc.constant(found.value);
  }
  return { ...constraints, overrides };
}

/**
 * The write targets on this target: each JSON write operation whose path parameters `values` fill and whose
 * constraints (`constraintsOf`, by operationId) do not say it is unavailable. Each one left out is logged with
 * why; a case with none left is skipped.
 */
export function writeTargets(
  t: CaseContext,
  values: PathValues,
  constraintsOf: (operationId: string) => WriteConstraints,
): WriteTarget[] {
  const targets: WriteTarget[] = [];
  const leftOut: string[] = [];
  const leave = (operation: OperationInfo, why: string) => {
    t.log(`${operation.operationId} left out: ${why}`);
    leftOut.push(`${operation.method.toUpperCase()} ${operation.pathTemplate}: ${why}`);
  };
  for (const operation of jsonWriteOperations(t)) {
    const where = pathParameters(operation, values);
    if ("missing" in where) {
      leave(operation, `no resource of this suite fills its path parameter {${where.missing}}`);
      continue;
    }
    const constraints = constraintsOf(operation.operationId);
    if (constraints.unavailable) {
      leave(operation, constraints.unavailable);
      continue;
    }
    targets.push({
      operation,
      params: where.params,
      path: pathOf(operation, ...where.params),
      schema: requestSchemaOf(t.spec, operation.operationId)!,
      constraints,
    });
  }
  if (targets.length === 0) {
    const shown = leftOut.slice(0, 3).join("; ");
    const more = leftOut.length > 3 ? ` and ${leftOut.length - 3} more` : "";
    t.skip(
      `no write operation with a JSON body can be exercised on this target${shown ? ` (${shown}${more})` : ""}`,
    );
  }
  return targets;
}

/** Sends a request to the target's operation at its path: a JSON body, or a raw one with its own headers. */
export function sendTo(t: CaseContext, target: WriteTarget, request: RequestOptions): Promise<LiveResponse> {
  return t.api.request(target.operation.method.toUpperCase(), target.path, request);
}

/** Sends `body` as JSON to the target's operation. */
export function sendBody(t: CaseContext, target: WriteTarget, body: unknown): Promise<LiveResponse> {
  return sendTo(t, target, { json: body });
}
