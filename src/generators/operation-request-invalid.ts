/**
 * `operationRequestInvalid`: whole requests to an operation that break its description in a known way, each with
 * its provenance (`negative`): which rule, where (`/body/port`, `/query/page_size`, `/path/configId`,
 * `/header/X-Request-Id`) and which field the target's error must name. A request starts valid
 * ({@link operationRequestValue}: the caller's path values, the rest drawn) and the mutators of `mutations/` break
 * one rule in the body or a parameter (path, query, header, cookie), or several independent ones at once.
 *
 * A parameter travels as text, so a mutation of one is kept only where its text, read back as a server reads that
 * parameter (a number, a boolean, the text), still breaks the rule: `12345` for a string is no mutation. A path
 * parameter is never removed (that is another URL) nor set to null.
 * @module
 * @public
 */
import fc from "fast-check";
import type { BrokenRule } from "../core/exchange.ts";
import { parsePointer } from "../spec/pointer.ts";
import type { ApiSpec, OperationInfo } from "../spec/types.ts";
import { allowedTypes, type BodySchema } from "./_internals/body-schema.ts";
import { UnsatisfiableSchema } from "./_internals/bounded-filter.ts";
import {
  applyCandidates,
  candidateLine,
  candidatesOf,
  chooseCandidates,
  rulesAndPicks,
} from "./_internals/break-rules.ts";
import { conforms } from "./_internals/conforms.ts";
import { fieldOf } from "./_internals/mutation.ts";
import {
  type ParameterPart,
  parameterText,
  requestSchemaOfOperation,
  textConforms,
  travelsAsIs,
} from "./_internals/request-schema.ts";
import { type CaseMeta, type Generated, type Mutation, mutationsOf, negative } from "./case-meta.ts";
import { type Candidate, singleRuleMutators } from "./mutations/index.ts";
import {
  type OperationRequest,
  type OperationRequestConstraints,
  operationRequestValue,
  toRequest,
} from "./operation-request.ts";

export type RequestPart = "body" | ParameterPart;

const requestParts: readonly RequestPart[] = ["body", "query", "path", "header", "cookie"];

export interface InvalidOperationRequestConstraints extends OperationRequestConstraints {
  /** The parts rules may be broken in; default all of them. */
  readonly parts?: readonly RequestPart[];
  /** Rules broken per request: 1 (default), or several independent ones (a range picks a count per request). */
  readonly rules?: number | { readonly min: number; readonly max: number };
  /**
   * Only a body of the wrong JSON type (an array where an object goes): refused before anything is read, so a
   * request to a write that names no resource is harmless on any target.
   */
  readonly wholeBodyOnly?: boolean;
  /**
   * Hears of each mutation dropped because the request still follows the description (inside an `anyOf`/`oneOf`
   * body, another branch accepts what breaking one branch's rule left): never sent as invalid, said in the log.
   */
  readonly onStillValid?: (line: string) => void;
}

const partOf = (pointer: string): RequestPart | undefined => {
  const first = parsePointer(pointer)?.[0];
  return requestParts.find((part) => part === first);
};

/** Whether a candidate breaks a rule where `parts` allow, as the target will receive it. */
function keeps(parts: readonly RequestPart[], request: BodySchema): (candidate: Candidate) => boolean {
  const body = request.properties?.body;
  const bodyRequired = request.required?.includes("body") === true;
  return ({ site, operator, edit }) => {
    const part = partOf(site.pointer);
    if (part === undefined || !parts.includes(part)) return false;
    // JSON `null` as an optional body may be read as no body at all: the description cannot tell.
    if (site.pointer === "/body" && operator === "null-where-not-nullable") return bodyRequired;
    // A required body left out may be read as `{}`: only a break where `{}` is refused too.
    if (site.pointer === "/body" && edit.kind === "remove") return body !== undefined && !conforms(body, {});
    if (part === "body") return true;
    // `/query` or `/path` itself is no parameter.
    if ((parsePointer(site.pointer)?.length ?? 0) !== 2) return false;
    if (edit.kind === "remove") return part !== "path";
    if (part === "path" && operator === "null-where-not-nullable") return false;
    const value = edit.value;
    const textual = ["string", "number", "boolean"].includes(typeof value);
    // An empty path segment is another URL (often the list), not a value refused; an empty query value may be read
    // as no value (what removing it breaks, where it is required).
    if ((part === "path" || part === "query") && parameterText(value) === "") return false;
    // A header's or cookie's text the wire would change (trimmed, split) or refuse to carry breaks nothing sent.
    if (!travelsAsIs(part, parameterText(value))) return false;
    return textual && !textConforms(site.schema, parameterText(value));
  };
}

/**
 * Requests breaking the description of `operation`. Where no rule can be broken as asked, no value ever passes its
 * filter (fast-check then searches without end): a caller that cannot know takes {@link operationRequestInvalidOrNone}.
 */
export function operationRequestInvalid(
  spec: ApiSpec,
  operation: OperationInfo,
  constraints: InvalidOperationRequestConstraints = {},
): fc.Arbitrary<Generated<OperationRequest>> {
  return operationRequestInvalidOrNone(spec, operation, constraints).filter(
    (generated): generated is Generated<OperationRequest> => generated !== undefined,
  );
}

/**
 * {@link operationRequestInvalid}'s values, undefined where the valid request drawn offered no rule to break as asked.
 * @internal
 */
export function operationRequestInvalidOrNone(
  spec: ApiSpec,
  operation: OperationInfo,
  constraints: InvalidOperationRequestConstraints = {},
): fc.Arbitrary<Generated<OperationRequest> | undefined> {
  const { schema } = requestSchemaOfOperation(spec, operation);
  const parts = constraints.parts ?? requestParts;
  // A body replaced whole needs no valid one first: a placeholder stands in (a `oneOf` no value fits has none).
  const bodyOverrides = constraints.wholeBodyOnly
    ? { ...constraints.bodyOverrides, "": fc.constant({}) }
    : constraints.bodyOverrides;
  return fc
    .tuple(
      operationRequestValue(spec, operation, {
        ...constraints,
        ...(bodyOverrides ? { bodyOverrides } : {}),
        minimal: false,
      }),
      rulesAndPicks(constraints.rules),
    )
    .map(([{ value, fixed }, [count, picks]]) => {
      const kept = keeps(parts, schema);
      const keep = constraints.wholeBodyOnly
        ? (candidate: Candidate) =>
            candidate.site.pointer === "/body" && candidate.operator === "change-type" && kept(candidate)
        : kept;
      const stillValid = (candidate: Candidate) => constraints.onStillValid?.(candidateLine(candidate));
      const candidates = candidatesOf(schema, value, singleRuleMutators, keep, stillValid);
      const chosen = chooseCandidates(candidates, count, picks);
      if (chosen.length === 0) return undefined;
      const applied = applyCandidates(value, chosen);
      if (bodyStillValid(spec, operation, chosen, applied.value)) {
        constraints.onStillValid?.(chosen.map(candidateLine).join(" and "));
        return undefined;
      }
      const mutations = applied.mutations.map((mutation) => inApiStyle(value, mutation));
      const meta =
        mutations.length === 1
          ? negative(`${partOf(mutations[0]!.pointer)}-${mutations[0]!.operator}`, mutations[0]!)
          : negative("several-rules", mutations);
      const request = applied.value as Record<string, unknown>;
      return { value: toRequest(request, schema, fixed), meta };
    });
}

/**
 * Whether the compiled request validator still accepts a body broken inside an `anyOf`/`oneOf` branch: the judge
 * of last resort (formats, and what several rules at once may add up to, escape the generator's own check).
 */
function bodyStillValid(
  spec: ApiSpec,
  operation: OperationInfo,
  chosen: readonly Candidate[],
  request: unknown,
): boolean {
  if (!chosen.some((candidate) => candidate.site.inBranch && partOf(candidate.site.pointer) === "body"))
    return false;
  const validate = spec.validators.request(operation.operationId, "application/json");
  const outcome = validate?.((request as { body?: unknown }).body);
  return outcome?.valid === true;
}

/** A pointer into the request (`/body/nodes/0`) as a pointer into its body (`/nodes/0`; `""`: the body). */
const bodyPointer = (pointer: string) => pointer.slice("/body".length);

/** The field a mutation names as the API's errors do: a body field's path, a parameter's name. */
function inApiStyle(request: Record<string, unknown>, mutation: Mutation): Mutation {
  const [part, ...rest] = parsePointer(mutation.pointer) ?? [];
  const field = part === "body" ? fieldOf(request.body, bodyPointer(mutation.pointer)) : rest[0];
  const { field: _whole, ...others } = mutation;
  return field === undefined || field === "" ? others : { ...others, field };
}

/** The rules a generated request breaks, as its intent records them (`in`, `at`, rule, detail). */
export function brokenRulesOf(meta: CaseMeta): BrokenRule[] {
  return mutationsOf(meta).map((mutation) => {
    const [part, ...rest] = parsePointer(mutation.pointer) ?? [];
    const at = part === "body" ? bodyPointer(mutation.pointer) : (rest[0] ?? "");
    return {
      in: (part as RequestPart) ?? "body",
      at,
      rule: mutation.operator,
      ...(mutation.detail ? { detail: mutation.detail } : {}),
    };
  });
}

/** Valid requests drawn by {@link breakableIn} before it gives up on one. */
const breakableDraws = 4;

/**
 * Whether any rule of `operation` can be broken in `part` (from a sample valid request's candidates). A body whose
 * schema names its types always can: a body of another type needs no valid one to start from.
 */
export function breakableIn(spec: ApiSpec, operation: OperationInfo, part: RequestPart): boolean {
  const { schema } = requestSchemaOfOperation(spec, operation);
  const body = schema.properties?.body;
  if (part === "body" && body && (allowedTypes(body)?.length ?? 0) > 0) return true;
  // A few draws: one whose schema no drawn value satisfied (a `oneOf` branch) is passed over.
  for (let seed = 1; seed <= breakableDraws; seed += 1) {
    try {
      const [sample] = fc.sample(operationRequestValue(spec, operation, {}), { numRuns: 1, seed });
      if (sample === undefined) continue;
      return candidatesOf(schema, sample.value, singleRuleMutators, keeps([part], schema)).length > 0;
    } catch (error) {
      if (!(error instanceof UnsatisfiableSchema)) throw error;
    }
  }
  // No valid request to start from: no rule to break in it either.
  return false;
}
