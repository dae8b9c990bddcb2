/**
 * `combine-independent`: several single-rule mutations in one body, at places independent of each other (none
 * is inside another, no two are items of the same array, no two are tied by `dependentRequired`), so each broken rule is reported on its own and the
 * target must report every one of them together (the description: "as many problems as possible are reported
 * together"). The whole body is never one of the places.
 * @module
 */
import { type MutationEdit, type MutationSite, overlaps } from "../_internals/mutation.ts";

/** One candidate single-rule mutation: where, which rule, how. */
export interface Candidate {
  readonly site: MutationSite;
  readonly operator: string;
  readonly edit: MutationEdit;
}

/** True when `candidate` can join `chosen` without its rule interfering with theirs. */
export function independentOf(candidate: Candidate, chosen: readonly Candidate[]): boolean {
  if (candidate.site.pointer === "") return false;
  return chosen.every(
    (other) =>
      !overlaps(other.site.pointer, candidate.site.pointer) &&
      (candidate.site.arrayParent === undefined || other.site.arrayParent !== candidate.site.arrayParent) &&
      !candidate.site.entangledWith?.includes(other.site.pointer) &&
      !other.site.entangledWith?.includes(candidate.site.pointer),
  );
}

/**
 * Picks up to `count` independent candidates, one rule after another: `picks` (two numbers per rule) choose the
 * operator among those still possible, then the candidate among that operator's. Fewer come back when fewer are
 * independent. Deterministic in `picks`, and smaller picks choose earlier candidates (shrinking goes there).
 */
export function combineIndependent(
  candidates: readonly Candidate[],
  count: number,
  picks: readonly number[],
): Candidate[] {
  const chosen: Candidate[] = [];
  for (let rule = 0; rule < count; rule += 1) {
    const open = candidates.filter((candidate) => independentOf(candidate, chosen));
    const operators = [...new Set(open.map((candidate) => candidate.operator))];
    if (operators.length === 0) break;
    const operator = operators[(picks[2 * rule] ?? 0) % operators.length]!;
    const ofOperator = open.filter((candidate) => candidate.operator === operator);
    chosen.push(ofOperator[(picks[2 * rule + 1] ?? 0) % ofOperator.length]!);
  }
  return chosen;
}
