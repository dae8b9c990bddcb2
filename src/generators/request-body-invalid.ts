/**
 * `requestBodyInvalid`: request bodies that break the operation's request schema in a known way, each with its
 * provenance (`negative`): which rule (operator), where (JSON pointer) and which field the target's error must
 * name. A body starts valid ({@link requestBodyValue}, with the caller's domain constraints, so nothing but the
 * mutation is wrong) and the mutators of `mutations/` break one rule, or several independent ones at once.
 *
 * The compiled request validator fails such a body exactly at the pointers its provenance names (the generator
 * tests prove it per operation). Properties the schema does not declare are never added: the real service's
 * request schemas are open, so an unknown property is not an invalid body.
 * @module
 * @public
 */
import fc from "fast-check";
import { valueAt } from "../spec/pointer.ts";
import { allowedTypes, type BodySchema } from "./_internals/body-schema.ts";
import { applyEdit, fieldOf } from "./_internals/mutation.ts";
import { mutationSites } from "./_internals/mutation-sites.ts";
import { type Generated, type Mutation, negative } from "./case-meta.ts";
import { type Candidate, combineIndependent, singleRuleMutators } from "./mutations/index.ts";
import { type RequestBodyConstraints, requestBodyValue } from "./request-body.ts";

export interface InvalidRequestBodyConstraints extends RequestBodyConstraints {
  /** Single-rule operators to use (default: every one of `mutations/`). */
  readonly operators?: readonly string[];
  /**
   * Rules broken per body: 1 (default) breaks one; more combine that many independent ones (fewer when the body
   * has fewer independent places); a range picks a count per body.
   */
  readonly rules?: number | { readonly min: number; readonly max: number };
}

/** Scenario names of the provenance: `body-<operator>` for one rule, this for several. */
export const severalRulesScenario = "body-several-rules";

/**
 * Whether a body of this schema can be broken at all: the schema says what type the body is, or declares a
 * property with a type or a required one. A schema that allows anything (`{}`) has no invalid bodies.
 */
export function isBreakable(schema: BodySchema): boolean {
  if ((allowedTypes(schema)?.length ?? 0) > 0) return true;
  return Object.entries(schema.properties ?? {}).some(
    ([name, property]) =>
      !property.readOnly &&
      ((allowedTypes(property)?.length ?? 0) > 0 || (schema.required ?? []).includes(name)),
  );
}

/**
 * Bodies that `schema` refuses, each saying which rule(s) it breaks and where.
 * @throws TypeError when no operator is left, or the schema cannot be broken ({@link isBreakable}).
 */
export function requestBodyInvalid(
  schema: BodySchema,
  constraints: InvalidRequestBodyConstraints = {},
): fc.Arbitrary<Generated<unknown>> {
  const mutators = singleRuleMutators.filter(
    (mutator) => constraints.operators === undefined || constraints.operators.includes(mutator.operator),
  );
  if (mutators.length === 0) throw new TypeError(`no mutator among ${constraints.operators?.join(", ")}`);
  if (!isBreakable(schema))
    throw new TypeError(`the schema at ${schema.pointer} allows any body: none is invalid`);
  const range =
    typeof constraints.rules === "number"
      ? { min: constraints.rules, max: constraints.rules }
      : constraints.rules;
  const min = Math.max(1, range?.min ?? 1);
  const max = Math.max(min, range?.max ?? min);
  return fc
    .tuple(
      requestBodyValue(schema, constraints),
      fc.integer({ min, max }),
      fc.array(fc.nat({ max: 1023 }), { minLength: 2 * max, maxLength: 2 * max }),
    )
    .map(([body, count, picks]) => {
      const candidates: Candidate[] = [];
      for (const site of mutationSites(schema, body)) {
        const current = site.present ? valueAt(body, site.pointer) : undefined;
        for (const mutator of mutators) {
          for (const edit of mutator.edits(site, current))
            candidates.push({ site, operator: mutator.operator, edit });
        }
      }
      let chosen = count > 1 ? combineIndependent(candidates, count, picks) : [];
      if (chosen.length === 0) chosen = pickOne(candidates, picks);
      return chosen.length === 0 ? undefined : mutated(body, chosen);
    })
    .filter((generated): generated is Generated<unknown> => generated !== undefined);
}

/** One candidate (the whole body may be it): the operator first, then the place, so every rule gets its turn. */
function pickOne(candidates: readonly Candidate[], picks: readonly number[]): Candidate[] {
  const operators = [...new Set(candidates.map((candidate) => candidate.operator))];
  if (operators.length === 0) return [];
  const operator = operators[(picks[0] ?? 0) % operators.length];
  const ofOperator = candidates.filter((candidate) => candidate.operator === operator);
  return [ofOperator[(picks[1] ?? 0) % ofOperator.length]!];
}

function mutated(body: Record<string, unknown>, chosen: readonly Candidate[]): Generated<unknown> {
  let value: unknown = body;
  const mutations: Mutation[] = [];
  for (const { site, operator, edit } of chosen) {
    // Where the description says the refusal names no field, none is expected.
    const field = site.schema.refusedWithoutField ? undefined : fieldOf(body, site.pointer);
    mutations.push({
      operator,
      pointer: site.pointer,
      ...(field === undefined ? {} : { field }),
      detail: edit.detail,
    });
    value = applyEdit(value, site.pointer, edit);
  }
  const meta =
    mutations.length === 1
      ? negative(`body-${mutations[0]!.operator}`, mutations[0]!)
      : negative(severalRulesScenario, mutations);
  return { value, meta };
}
