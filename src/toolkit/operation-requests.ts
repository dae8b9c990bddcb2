/**
 * The generic layer: any operation of the description given valid and invalid requests from its description
 * alone, each carrying its intent (operation, positive or negative, the rules it breaks and where) for the
 * generic checks (`valid-request-accepted`, `invalid-request-refused`) to judge and a coverage table to count.
 *
 * Path values come from the target's answers ({@link PathHarvest}); a read without one draws it from the schema
 * and says so, a write acts only on what the run made and otherwise names an unknown resource (a 404 expected),
 * so nothing the account held before is changed. Everything a create made goes on the cleanup ledger at once.
 * Order: reads, creates, updates, actions, deletes ({@link operationOrder}), so values found stay valid.
 * @module
 */
import fc from "fast-check";
import { SuiteRequestError } from "../core/errors.ts";
import type { BrokenRule, RequestIntent } from "../core/exchange.ts";
import {
  type OperationRequest,
  operationRequest,
  pathValueFits,
  UnsatisfiableSchema,
  unbuildableRequest,
} from "../generators/operation-request.ts";
import {
  breakableIn,
  brokenRulesOf,
  operationRequestInvalidOrNone,
  type RequestPart,
} from "../generators/operation-request-invalid.ts";
import { requestSchemaOf } from "../generators/request-body.ts";
import type { LiveResponse } from "../runner/contracts.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { resourceOfOperation } from "../spec/resources.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";
import { apiOperations, type PathValue, unknownValue } from "./operations.ts";
import { fieldFor, itemsOf, PathHarvest, parentTemplate, templateParameters } from "./path-values.ts";
import { labelOf, registerMade } from "./resources.ts";

/** What an operation does, as its method and path say. */
export type OperationKind = "read" | "create" | "update" | "action" | "delete";

const kindRank: Readonly<Record<OperationKind, number>> = {
  read: 0,
  create: 1,
  update: 2,
  action: 3,
  delete: 4,
};

/** Is `template` an item of the collection at `collection`: the same path, then one parameter? */
const isItemOf = (collection: string, template: string) =>
  template.startsWith(`${collection}/{`) && /^\/\{[^/]+\}$/.test(template.slice(collection.length));

/** The DELETE of what `operation` (a POST) creates: the same path, then one parameter. */
export function deleteOperationFor(spec: ApiSpec, operation: OperationInfo): OperationInfo | undefined {
  return spec.operations
    .all()
    .find((other) => other.method === "delete" && isItemOf(operation.pathTemplate, other.pathTemplate));
}

export function operationKind(spec: ApiSpec, operation: OperationInfo): OperationKind {
  switch (operation.method) {
    case "get":
    case "head":
    case "options":
    case "trace":
      return "read";
    case "put":
    case "patch":
      return "update";
    case "delete":
      return "delete";
    default: {
      const hasItems = spec.operations
        .all()
        .some((other) => isItemOf(operation.pathTemplate, other.pathTemplate));
      return hasItems ? "create" : "action";
    }
  }
}

/** Reads first, then creates, updates, actions, deletes; parents before children, but children deleted first. */
export function operationOrder(spec: ApiSpec, operations: readonly OperationInfo[]): OperationInfo[] {
  const depth = (operation: OperationInfo) => templateParameters(operation.pathTemplate).length;
  return operations
    .map((operation, index) => ({ operation, index, kind: operationKind(spec, operation) }))
    .sort(
      (a, b) =>
        kindRank[a.kind] - kindRank[b.kind] ||
        (a.kind === "delete"
          ? depth(b.operation) - depth(a.operation)
          : depth(a.operation) - depth(b.operation)) ||
        a.index - b.index,
    )
    .map((entry) => entry.operation);
}

/** What one operation was sent and answered. */
export interface OperationOutcome {
  readonly operationId: string;
  readonly kind: OperationKind;
  /** Why it was not requested at all, if so. */
  readonly notRequested?: string;
  /** Statuses of its valid requests, in order. */
  readonly positive: readonly number[];
  /** Statuses of its invalid requests, with the parts each broke. */
  readonly negative: readonly { readonly status: number; readonly parts: readonly RequestPart[] }[];
}

/** A seed per operation, from the run's: the same run seed sends the same requests. */
function seedOf(t: CaseContext, operation: OperationInfo, salt: number): number {
  let hash = (t.seed ^ salt) | 0;
  for (const char of operation.operationId) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/**
 * One value of `arbitrary` (the first draw that satisfies the description), or undefined (logged, naming the
 * schema) when none does: a schema no drawn value fits is the description's puzzle, not a reason to stop the run.
 */
function drawOne<T>(t: CaseContext, operation: OperationInfo, arbitrary: fc.Arbitrary<T>, seed: number) {
  return firstOf(t, operation, arbitrary, seed, invalidTries);
}

/** Valid requests drawn before an operation whose rules cannot be broken as asked is given up. */
const invalidTries = 8;

/**
 * The first of a few draws that is a value, or undefined when none is (no rule of that kind to break there). A
 * draw whose schema no drawn value satisfied is passed over (another draw may take another `oneOf` branch); when
 * every draw was, the log names the schema.
 */
function firstOf<T>(
  t: CaseContext,
  operation: OperationInfo,
  arbitrary: fc.Arbitrary<T | undefined>,
  seed: number,
  draws = invalidTries,
): T | undefined {
  let unsatisfied: UnsatisfiableSchema | undefined;
  for (let draw = 0; draw < draws; draw += 1) {
    try {
      const [value] = fc.sample(arbitrary, { numRuns: 1, seed: seed + draw });
      if (value !== undefined) return value;
    } catch (error) {
      if (!(error instanceof UnsatisfiableSchema)) throw error;
      unsatisfied = error;
    }
  }
  if (unsatisfied) t.log(`${operation.operationId}: ${unsatisfied.message}`);
  return undefined;
}

/** The path of `operation` with values by name. */
function pathWith(operation: OperationInfo, values: Readonly<Record<string, PathValue>>): string {
  return operation.pathTemplate.replace(/\{([^}]+)\}/g, (_all, name: string) =>
    encodeURIComponent(String(values[name])),
  );
}

function breaksLine(broken: readonly BrokenRule[]): string {
  return broken
    .map(
      (rule) =>
        `${rule.in} ${rule.at || "(the whole body)"}: ${rule.rule}${rule.detail ? ` (${rule.detail})` : ""}`,
    )
    .join("; ");
}

/**
 * What to accept from an operation whose successful answers are not JSON (a CSV, a PDF, a YAML kubeconfig): their
 * media types, JSON last for its errors. Undefined where JSON answers (the client's default asks for it).
 */
export function acceptOf(operation: OperationInfo): string | undefined {
  const types = new Set(
    operation.responses
      .filter((response) => response.status.startsWith("2"))
      .flatMap((response) => response.contentTypes),
  );
  if (types.size === 0 || [...types].some((type) => /[/+]json\b/i.test(type))) return undefined;
  return [...types, "application/json;q=0.5"].join(", ");
}

/** Sends one generated request with its intent; negative ones say what they break. */
function send(t: CaseContext, operation: OperationInfo, request: OperationRequest, intent: RequestIntent) {
  const broken = intent.broken ?? [];
  const cookies = Object.entries(request.cookies).map(([name, value]) => `${name}=${value}`);
  const accept = acceptOf(operation);
  const headers = {
    ...request.headers,
    ...(cookies.length > 0 ? { cookie: cookies.join("; ") } : {}),
    ...(accept ? { accept } : {}),
  };
  return t.api.request(operation.method.toUpperCase(), pathWith(operation, request.path), {
    query: request.query,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(request.body === undefined ? {} : { json: request.body }),
    ...(broken.length > 0 ? { breaks: breaksLine(broken) } : {}),
    intent,
  });
}

/**
 * The lists without parameters whose items name what a top-level body property of `operation` takes: a property
 * `region` takes the `id`s of the items read at a list whose last segment is `regions` (`types` for `type`,
 * `policies` for `policy`).
 */
export function bodyValueLists(
  t: CaseContext,
  operation: OperationInfo,
): { readonly name: string; readonly list: OperationInfo }[] {
  const names = Object.keys(requestSchemaOf(t.spec, operation.operationId)?.properties ?? {});
  if (names.length === 0) return [];
  return apiOperations(t).flatMap((list) => {
    if (list.method !== "get" || list.pathTemplate.includes("{")) return [];
    const last = list.pathTemplate.split("/").at(-1) ?? "";
    const name = names.find((candidate) =>
      [`${candidate}s`, `${candidate}es`, candidate.replace(/y$/, "ies")].includes(last),
    );
    return name === undefined ? [] : [{ name, list }];
  });
}

/** Values the target holds for top-level body properties, from the lists {@link bodyValueLists} names. */
export function foundBodyValues(
  t: CaseContext,
  operation: OperationInfo,
  harvest: PathHarvest,
): Record<string, unknown[]> {
  const found: Record<string, unknown[]> = {};
  for (const { name, list } of bodyValueLists(t, operation)) {
    const ids = harvest.seenAt(list.pathTemplate).flatMap((item) => (item.id === undefined ? [] : [item.id]));
    if (ids.length > 0) found[name] = ids;
  }
  return found;
}

/** The seed of a path value drawn where the usual unknown value does not fit: the same value on every run. */
const unknownSeed = 987_654_321;

/**
 * A value no target holds for path parameter `name` (a number where the parameter takes integers), that fits its
 * schema: where the usual one does not (a `uuid`, a pattern), one drawn from the schema, which no target holds
 * but by chance (a target refusing `conform-unknown-0` for a uuid is right to).
 */
export function unknownPathValue(spec: ApiSpec, operation: OperationInfo, name: string): PathValue {
  const parameter = operation.parameters.find((entry) => entry.in === "path" && entry.name === name);
  const text = unknownValue(parameter?.schema);
  const unknown = /^\d+$/.test(text) ? Number(text) : text;
  if (pathValueFits(spec, operation, name, unknown)) return unknown;
  try {
    const [drawn] = fc.sample(operationRequest(spec, operation, { minimal: true }), {
      numRuns: 1,
      seed: unknownSeed,
    });
    return drawn?.value.path[name] ?? unknown;
  } catch (error) {
    if (error instanceof UnsatisfiableSchema) return unknown;
    throw error;
  }
}

function notRequested(operation: OperationInfo, kind: OperationKind, why: string): OperationOutcome {
  return { operationId: operation.operationId, kind, notRequested: why, positive: [], negative: [] };
}

interface Prepared {
  readonly operation: OperationInfo;
  /** Values the target holds for body properties, by name. */
  readonly found: Record<string, unknown[]>;
  readonly kind: OperationKind;
  readonly pathValues: Record<string, PathValue>;
  readonly drawn: readonly string[];
  /** For a create: the delete of what it makes. */
  readonly remove: OperationInfo | undefined;
}

/** Path values for `operation`: found in answers, else drawn (reads) or unknown (writes), each said in the log. */
function prepare(t: CaseContext, operation: OperationInfo, harvest: PathHarvest): Prepared {
  const kind = operationKind(t.spec, operation);
  const found = harvest.valuesFor(operation, kind !== "read", (name, value) =>
    pathValueFits(t.spec, operation, name, value),
  );
  const pathValues = { ...found.values };
  for (const name of found.missing) {
    if (kind === "read") continue;
    pathValues[name] = unknownPathValue(t.spec, operation, name);
  }
  if (found.missing.length > 0) {
    const how =
      kind === "read"
        ? "drawn from its schema"
        : "set to an unknown value (a write acts only on what the run made)";
    t.log(
      `${operation.operationId}: no value for {${found.missing.join("}, {")}} in the target's answers: ${how}`,
    );
  }
  return {
    operation,
    found: foundBodyValues(t, operation, harvest),
    kind,
    pathValues,
    drawn: found.missing,
    remove: kind === "create" ? deleteOperationFor(t.spec, operation) : undefined,
  };
}

/** Why an action's refusal is not judged. */
const actionState =
  "an action is taken or refused by the state of its resource (booting one already running), which the description does not state";

/** Why a fuller request's refusal is not judged (the minimal one is). */
const optionalTogether =
  "optional fields sent together: the description states no rule between them, so a refusal may follow one it does not state";

/** Registers what a 2xx create made (ledger at once, then the harvest), whatever the request meant to be. */
function registerCreated(
  t: CaseContext,
  prepared: Prepared,
  harvest: PathHarvest,
  request: OperationRequest,
  response: LiveResponse,
): void {
  const { operation, remove } = prepared;
  const label = labelOf(request.body);
  if (!remove) {
    if (response.status >= 200 && response.status < 300)
      t.cleanupUnidentified(`${operation.operationId} result`, label);
    return;
  }
  const idName = templateParameters(remove.pathTemplate).at(-1)!;
  const item = itemsOf(response.parsed)[0];
  const idKey = item ? fieldFor(idName, item) : undefined;
  const resource = resourceOfOperation(t.spec, remove);
  registerMade(t, response, {
    what: `${operation.operationId} result`,
    label,
    ...(idKey ? { idKey } : {}),
    ...(resource ? { kind: { resource, parentIds: prepared.pathValues } } : {}),
    deletePath: (id) => pathWith(remove, { ...prepared.pathValues, [idName]: id }),
  });
  harvest.record(operation.pathTemplate, prepared.pathValues, response, true);
}

/**
 * Sends `operation` its valid requests (a minimal one, then a fuller one when it differs) and its invalid ones
 * (one rule in the body, one in a parameter, several at once across parts), recording what answers reveal in
 * `harvest`. A create whose result the run could not delete gets only invalid requests. A delete gets its invalid
 * requests first (the resource is still there to refuse them about).
 */
export async function exerciseOperation(
  t: CaseContext,
  operation: OperationInfo,
  harvest: PathHarvest,
): Promise<OperationOutcome> {
  const unbuildable = unbuildableRequest(t.spec, operation);
  const kind = operationKind(t.spec, operation);
  if (unbuildable) return notRequested(operation, kind, unbuildable);
  const prepared = prepare(t, operation, harvest);
  const positive: number[] = [];
  const negative: { status: number; parts: RequestPart[] }[] = [];
  const valid = async () => {
    if (kind === "create" && !prepared.remove && !t.target.embedded) {
      t.log(
        `${operation.operationId}: no delete for what it creates in the description: only invalid requests are sent`,
      );
      return;
    }
    for (const response of await sendValid(t, prepared, harvest)) positive.push(response.status);
  };
  if (kind !== "delete") await valid();
  for (const { response, parts } of await sendInvalid(t, prepared, harvest))
    negative.push({ status: response.status, parts });
  if (kind === "delete") await valid();
  return { operationId: operation.operationId, kind, positive, negative };
}

/**
 * Sends a write only requests that cannot change anything on any target, for a run without writes: every path
 * parameter names an unknown resource (987654321) and stays so (a minimal valid request and invalid ones there),
 * and a write that names none gets only a body of the wrong JSON type (refused before anything is read). A write
 * with neither a path parameter nor a body is not requested (it could act on something real).
 */
export async function probeWrite(t: CaseContext, operation: OperationInfo): Promise<OperationOutcome> {
  const kind = operationKind(t.spec, operation);
  const names = templateParameters(operation.pathTemplate);
  const unbuildable =
    unbuildableRequest(t.spec, operation) ??
    (names.length === 0 && !requestSchemaOf(t.spec, operation.operationId)
      ? "a write naming no resource and taking no body could act on something real: not sent without --allow-writes"
      : undefined);
  if (unbuildable) return notRequested(operation, kind, unbuildable);
  const pathValues: Record<string, PathValue> = {};
  for (const name of names) {
    pathValues[name] = unknownPathValue(t.spec, operation, name);
  }
  const prepared: Prepared = { operation, found: {}, kind, pathValues, drawn: names, remove: undefined };
  const sent = await sendInvalid(t, prepared, new PathHarvest(), {
    parts: ["body", "query", "header", "cookie"],
    wholeBodyOnly: names.length === 0,
  });
  const negative = sent.map(({ response, parts }) => ({ status: response.status, parts }));
  // A valid request to an unknown resource is harmless too (a 404 is expected, and not held against it).
  const positive =
    names.length > 0 ? (await sendValid(t, prepared, new PathHarvest(), true)).map((r) => r.status) : [];
  return { operationId: operation.operationId, kind, positive, negative };
}

/**
 * Reads `operation` again on what the run made, once its creates have made something for every one of its path
 * parameters (a read of an empty account drew its values and met 404s): a minimal valid request. Undefined when
 * the run made nothing for it.
 */
export async function rereadMade(
  t: CaseContext,
  operation: OperationInfo,
  harvest: PathHarvest,
): Promise<number | undefined> {
  if (unbuildableRequest(t.spec, operation) || !operation.pathTemplate.includes("{")) return undefined;
  const found = harvest.valuesFor(operation, true, (name, value) =>
    pathValueFits(t.spec, operation, name, value),
  );
  if (found.missing.length > 0) return undefined;
  const prepared: Prepared = {
    operation,
    found: {},
    kind: "read",
    pathValues: found.values,
    drawn: [],
    remove: undefined,
  };
  const [response] = await sendValid(t, prepared, harvest, true);
  return response?.status;
}

async function sendValid(
  t: CaseContext,
  prepared: Prepared,
  harvest: PathHarvest,
  minimalOnly = false,
): Promise<LiveResponse[]> {
  const { operation, kind } = prepared;
  const constraints = {
    pathValues: prepared.pathValues,
    found: prepared.found,
    label: () => t.label(operation.operationId.slice(0, 12)),
  };
  const minimal = drawOne(
    t,
    operation,
    operationRequest(t.spec, operation, { ...constraints, minimal: true }),
    seedOf(t, operation, 1),
  );
  const fuller = !minimalOnly && kind !== "delete";
  const full = fuller
    ? drawOne(t, operation, operationRequest(t.spec, operation, constraints), seedOf(t, operation, 2))
    : undefined;
  const same =
    minimal !== undefined &&
    JSON.stringify({ ...full?.value, unpinned: [] }) === JSON.stringify({ ...minimal.value, unpinned: [] });
  const requests = [minimal, same ? undefined : full].filter((request) => request !== undefined);
  const responses: LiveResponse[] = [];
  for (const generated of requests) {
    const intent: RequestIntent = {
      operationId: operation.operationId,
      mode: "positive",
      scenario: generated.meta.scenario,
      ...(prepared.drawn.length > 0 ? { drawnPath: prepared.drawn } : {}),
      ...(generated.value.unpinned.length > 0 ? { unpinned: generated.value.unpinned } : {}),
      ...(kind === "action"
        ? { undecidable: actionState }
        : generated.meta.scenario === "request-valid"
          ? { undecidable: optionalTogether }
          : {}),
    };
    const response = await send(t, operation, generated.value, intent);
    responses.push(response);
    afterAnswer(t, prepared, harvest, generated.value, response);
  }
  return responses;
}

/** What an answer teaches: a read's items, a create's result (on the ledger first), a delete's absence. */
function afterAnswer(
  t: CaseContext,
  prepared: Prepared,
  harvest: PathHarvest,
  request: OperationRequest,
  response: LiveResponse,
): void {
  const { operation, kind } = prepared;
  const values = { ...request.path };
  if (kind === "create") registerCreated(t, prepared, harvest, request, response);
  else if (kind === "read") harvest.record(operation.pathTemplate, values, response);
  else if (kind === "delete" && response.status >= 200 && response.status < 300) {
    const name = templateParameters(operation.pathTemplate).at(-1);
    const parent = name === undefined ? undefined : parentTemplate(operation.pathTemplate, name);
    if (name !== undefined && parent !== undefined) {
      const value = values[name]!;
      for (const field of ["id", name]) harvest.forget(parent, values, field, value);
    }
  }
}

async function sendInvalid(
  t: CaseContext,
  prepared: Prepared,
  harvest: PathHarvest,
  only: { parts?: readonly RequestPart[]; wholeBodyOnly?: boolean } = {},
): Promise<{ response: LiveResponse; parts: RequestPart[] }[]> {
  const { operation } = prepared;
  const breakable = (only.parts ?? (["body", "query", "path", "header", "cookie"] as const)).filter((part) =>
    breakableIn(t.spec, operation, part),
  );
  if (breakable.length === 0) {
    t.log(
      `${operation.operationId}: no rule of its description can be broken in a request (nothing is constrained)`,
    );
    return [];
  }
  const plans: { parts: RequestPart[]; rules: number | { min: number; max: number } }[] = [];
  if (breakable.includes("body")) plans.push({ parts: ["body"], rules: 1 });
  const parameters = breakable.filter((part) => part !== "body");
  if (!only.wholeBodyOnly) {
    if (parameters.length > 0) plans.push({ parts: parameters, rules: 1 });
    plans.push({ parts: [...breakable], rules: { min: 2, max: 3 } });
  }
  const sent: { response: LiveResponse; parts: RequestPart[] }[] = [];
  const stillValid = new Set<string>();
  for (const [index, plan] of plans.entries()) {
    const arbitrary = operationRequestInvalidOrNone(t.spec, operation, {
      pathValues: prepared.pathValues,
      found: prepared.found,
      ...plan,
      ...(only.wholeBodyOnly ? { wholeBodyOnly: true } : {}),
      onStillValid: (line) => stillValid.add(line),
    });
    const generated =
      firstOf(t, operation, arbitrary, seedOf(t, operation, 10 + index)) ??
      wholeBodyInstead(t, prepared, plan, index);
    if (generated === undefined) continue;
    const broken = brokenRulesOf(generated.meta);
    // "Several at once" where only one rule could be broken repeats a single-rule request: not sent.
    if (typeof plan.rules !== "number" && broken.length < 2) continue;
    const intent: RequestIntent = {
      operationId: operation.operationId,
      mode: "negative",
      scenario: generated.meta.scenario,
      broken,
    };
    const response = await send(t, operation, generated.value, intent);
    // A target that took it made something: it goes on the ledger all the same.
    if (prepared.kind === "create") registerCreated(t, prepared, harvest, generated.value, response);
    sent.push({ response, parts: [...new Set(broken.map((rule) => rule.in))] });
  }
  if (stillValid.size > 0) t.log(stillValidLine(operation, stillValid));
  return sent;
}

/**
 * Where the one-rule body plan found no valid body to break (a `oneOf` no drawn value fits), a body of a type the
 * schema does not allow, which needs none.
 */
function wholeBodyInstead(
  t: CaseContext,
  prepared: Prepared,
  plan: { parts: RequestPart[]; rules: number | { min: number; max: number } },
  index: number,
) {
  if (plan.rules !== 1 || plan.parts.length !== 1 || plan.parts[0] !== "body") return undefined;
  const arbitrary = operationRequestInvalidOrNone(t.spec, prepared.operation, {
    pathValues: prepared.pathValues,
    found: prepared.found,
    ...plan,
    wholeBodyOnly: true,
  });
  return firstOf(t, prepared.operation, arbitrary, seedOf(t, prepared.operation, 10 + index));
}

/** The log's line for mutations another `anyOf`/`oneOf` branch accepts: dropped, never sent as invalid. */
function stillValidLine(operation: OperationInfo, lines: ReadonlySet<string>): string {
  const shown = [...lines].slice(0, 3).join("; ");
  const more = lines.size > 3 ? ` and ${lines.size - 3} more` : "";
  return `${operation.operationId}: ${lines.size} mutation(s) left a request the description still accepts (another branch of an anyOf/oneOf takes it), dropped, not sent as invalid: ${shown}${more}`;
}

/** Whether `error` is conform's own request breaking the description (its generator's defect, not the target's). */
export function isOwnRequestDefect(error: unknown): error is SuiteRequestError {
  return error instanceof SuiteRequestError;
}
