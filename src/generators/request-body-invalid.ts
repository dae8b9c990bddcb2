/**
 * `requestBodyInvalid`: request bodies that break the operation's request schema in a known way, each with its
 * provenance (`negative`): which rule (operator), where (JSON pointer) and which field the target's error must
 * name. A body starts valid ({@link requestBodyValue}, with the caller's domain constraints, so nothing but the
 * mutation is wrong) and the mutators of `mutations/` break one rule, or several independent ones at once.
 *
 * The compiled request validator fails such a body exactly at the pointers its provenance names (the generator
 * tests prove it per operation). Properties the schema does not declare are never added: the real service's
 * request schemas are open, so an unknown property is not an invalid body. Where the body is an `anyOf`/`oneOf`,
 * a rule of the branch the valid body matched is broken (or the discriminator names no branch, or the body is of
 * a type no branch allows), and only where no other branch accepts the result.
 * @module
 * @public
 */
import fc from "fast-check";
import { allowedTypes, type BodySchema } from "./_internals/body-schema.ts";
import { applyCandidates, candidatesOf, chooseCandidates, rulesAndPicks } from "./_internals/break-rules.ts";
import { conforms } from "./_internals/conforms.ts";
import { type Generated, negative } from "./case-meta.ts";
import { type Candidate, singleRuleMutators } from "./mutations/index.ts";
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
  return fc
    .tuple(requestBodyValue(schema, constraints), rulesAndPicks(constraints.rules))
    .map(([body, [count, picks]]) => {
      const chosen = chooseCandidates(candidatesOf(schema, body, mutators), count, picks);
      if (chosen.length === 0) return undefined;
      const generated = mutated(body, chosen);
      // Rules broken in `anyOf`/`oneOf` branches may add up to a body another branch takes: not an invalid one.
      return conforms(schema, generated.value) ? undefined : generated;
    })
    .filter((generated): generated is Generated<unknown> => generated !== undefined);
}

function mutated(body: Record<string, unknown>, chosen: readonly Candidate[]): Generated<unknown> {
  const { value, mutations } = applyCandidates(body, chosen);
  const meta =
    mutations.length === 1
      ? negative(`body-${mutations[0]!.operator}`, mutations[0]!)
      : negative(severalRulesScenario, mutations);
  return { value, meta };
}
