/**
 * Breaking rules in a valid value: every candidate single-rule mutation at every site, then one of them (the
 * operator first, then the place, so every rule gets its turn) or several independent ones, applied with their
 * provenance. Shared by the invalid generators (a body; a whole request of path, query and body).
 * @module
 * @internal
 */
import fc from "fast-check";
import { valueAt } from "../../spec/pointer.ts";
import type { Mutation } from "../case-meta.ts";
import { type Candidate, combineIndependent } from "../mutations/index.ts";
import type { BodySchema } from "./body-schema.ts";
import { conforms } from "./conforms.ts";
import { applyEdit, fieldOf, type Mutator } from "./mutation.ts";
import { mutationSites } from "./mutation-sites.ts";

/**
 * Every edit of `mutators` at every site of `value`, kept only where `keep` says (default: all). An edit inside an
 * `anyOf`/`oneOf` branch that leaves a value the whole schema still accepts (another branch takes it) breaks
 * nothing: it is dropped, and `onStillValid` hears of it.
 */
export function candidatesOf(
  schema: BodySchema,
  value: unknown,
  mutators: readonly Mutator[],
  keep: (candidate: Candidate) => boolean = () => true,
  onStillValid: (candidate: Candidate) => void = () => {},
): Candidate[] {
  const candidates: Candidate[] = [];
  for (const site of mutationSites(schema, value)) {
    const current = site.present ? valueAt(value, site.pointer) : undefined;
    for (const mutator of mutators) {
      for (const edit of mutator.edits(site, current)) {
        const candidate = { site, operator: mutator.operator, edit };
        if (!keep(candidate)) continue;
        if (site.inBranch && conforms(schema, applyEdit(value, site.pointer, edit))) onStillValid(candidate);
        else candidates.push(candidate);
      }
    }
  }
  return candidates;
}

/** One line for a candidate: where, which rule, how (`/body/name: remove-required-property (...)`). */
export function candidateLine({ site, operator, edit }: Candidate): string {
  return `${site.pointer || "(the whole value)"}: ${operator} (${edit.detail})`;
}

/** `count` independent candidates when more than one is asked (fewer when fewer are independent), else one. */
export function chooseCandidates(
  candidates: readonly Candidate[],
  count: number,
  picks: readonly number[],
): Candidate[] {
  const chosen = count > 1 ? combineIndependent(candidates, count, picks) : [];
  return chosen.length > 0 ? chosen : pickOne(candidates, picks);
}

/** One candidate (the whole value may be it): the operator first, then the place, so every rule gets its turn. */
function pickOne(candidates: readonly Candidate[], picks: readonly number[]): Candidate[] {
  const operators = [...new Set(candidates.map((candidate) => candidate.operator))];
  if (operators.length === 0) return [];
  const operator = operators[(picks[0] ?? 0) % operators.length];
  const ofOperator = candidates.filter((candidate) => candidate.operator === operator);
  return [ofOperator[(picks[1] ?? 0) % ofOperator.length]!];
}

/** `value` with the chosen edits made, and the mutations they are (field in the API's error style). */
export function applyCandidates(
  value: unknown,
  chosen: readonly Candidate[],
): { value: unknown; mutations: Mutation[] } {
  let result: unknown = value;
  const mutations: Mutation[] = [];
  for (const { site, operator, edit } of chosen) {
    // Where the description says the refusal names no field, none is expected.
    const field = site.schema.refusedWithoutField ? undefined : fieldOf(value, site.pointer);
    mutations.push({
      operator,
      pointer: site.pointer,
      ...(field === undefined ? {} : { field }),
      detail: edit.detail,
    });
    result = applyEdit(result, site.pointer, edit);
  }
  return { value: result, mutations };
}

/** How many rules to break (`rules`: a count or a range, default 1) and the picks that choose them. */
export function rulesAndPicks(
  rules: number | { readonly min: number; readonly max: number } | undefined,
): fc.Arbitrary<[number, number[]]> {
  const range = typeof rules === "number" ? { min: rules, max: rules } : rules;
  const min = Math.max(1, range?.min ?? 1);
  const max = Math.max(min, range?.max ?? min);
  return fc.tuple(
    fc.integer({ min, max }),
    fc.array(fc.nat({ max: 1023 }), { minLength: 2 * max, maxLength: 2 * max }),
  );
}
