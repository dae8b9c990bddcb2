/**
 * What the filters suite says of a target's answers to a filter: a failed oracle judgement in one line, and
 * whether a refusal is the described one for a field that cannot be filtered (`Cannot filter on <field>` on the
 * filter header).
 * @module
 */
import type { FilterJudgement } from "../oracles/filter-oracle.ts";
import type { LiveResponse } from "../runner/http-client.ts";
import type { CaseContext } from "../runner/suite-api.ts";
import { apiFacts } from "../spec/conventions.ts";
import { fewKeys, filterHeader } from "./lists.ts";
import { errorsOf } from "./responses.ts";

/** A failed filter judgement in one line: what was left out, returned wrongly or twice, or out of order. */
export function describeFilterJudgement(judgement: Extract<FilterJudgement, { status: "failed" }>): string {
  const parts: string[] = [];
  if (judgement.missing.length > 0)
    parts.push(`left out ${judgement.missing.length} matching item(s): ${fewKeys(judgement.missing)}`);
  if (judgement.unexpected.length > 0) {
    const count = judgement.unexpected.length;
    parts.push(`returned ${count} item(s) that do not match: ${fewKeys(judgement.unexpected)}`);
  }
  if (judgement.duplicated.length > 0) parts.push(`returned item(s) twice: ${fewKeys(judgement.duplicated)}`);
  if (judgement.misordered) {
    const { index, expected, actual, key } = judgement.misordered;
    const values = `expected a value ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
    parts.push(`out of order at position ${index}: ${values} (item ${key})`);
  }
  return parts.join("; ");
}

/** Whether an error of `response` is the described refusal of a filter on `field`: `Cannot filter on <field>`. */
export function refusesFilterOn(t: CaseContext, response: LiveResponse, field: string): boolean {
  const reason = apiFacts.cannotFilterOn(field);
  return errorsOf(t, response).some((error) => error.reason === reason && error.field === filterHeader(t));
}
