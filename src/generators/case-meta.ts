/**
 * Provenance of a generated input: every value a generator makes travels with a `CaseMeta` saying whether it is
 * meant to be accepted (`positive`) or refused (`negative`), which named scenario made it, and for negative data
 * which rule was broken and where. Checks and suites decide from it (a negative case answered 2xx is a failure;
 * an error must name `mutation.field`), and reports print it beside the counterexample.
 *
 * Shape after schemathesis' `generation/meta.py` (`GenerationMode`, `CaseMeta`) and `negative/mutations.py`
 * (`Mutation(operator, pointer)`).
 * @module
 */

/** `positive`: valid by construction, must be accepted; `negative`: breaks a rule, must be refused with 4xx. */
export type CaseMode = "positive" | "negative";

/** One rule broken in a negative case. */
export interface Mutation {
  /** The rule broken, kebab-case: `remove-required-property`, `filter-unfilterable-field`, `page-size-above-max`. */
  readonly operator: string;
  /** JSON pointer into the generated value where it was broken (`""` for the whole value). */
  readonly pointer: string;
  /**
   * The input the error must name, in the API's error style (`label`, `configs[0].port`, `X-Filter`,
   * `page_size`); absent when the description names none.
   */
  readonly field?: string;
  /** Free text for reports: what was put there instead (`"a string where an integer goes"`). */
  readonly detail?: string;
}

export interface CaseMeta {
  readonly mode: CaseMode;
  /** Named scenario, kebab-case: `filter-or-nested`, `page-last-plus-one`, `body-missing-required`. */
  readonly scenario: string;
  /** The rule(s) broken; present exactly when `mode` is `negative`. Several for multi-error cases. */
  readonly mutation?: Mutation | readonly Mutation[];
}

/** A generated value with its provenance. */
export interface Generated<T> {
  readonly value: T;
  readonly meta: CaseMeta;
}

/** Provenance of a case valid by construction. */
export function positive(scenario: string): CaseMeta {
  return { mode: "positive", scenario };
}

/** Provenance of a case that breaks the given rule(s). */
export function negative(scenario: string, mutation: Mutation | readonly Mutation[]): CaseMeta {
  return { mode: "negative", scenario, mutation };
}

/** The mutations of a case as a list (empty for positive cases). */
export function mutationsOf(meta: CaseMeta): readonly Mutation[] {
  if (meta.mutation === undefined) return [];
  return Array.isArray(meta.mutation) ? meta.mutation : [meta.mutation as Mutation];
}

/**
 * What a generated case breaks, in one line for a request's `breaks` (`label: remove-required-property; port:
 * above-maximum (70000)`); undefined for a positive case (it must follow the description).
 */
export function breaksOf(meta: CaseMeta): string | undefined {
  if (meta.mode !== "negative") return undefined;
  const said = mutationsOf(meta).map((mutation) => {
    const where = mutation.field || mutation.pointer || "the whole value";
    return `${where}: ${mutation.operator}${mutation.detail ? ` (${mutation.detail})` : ""}`;
  });
  return said.length > 0 ? said.join("; ") : meta.scenario;
}
