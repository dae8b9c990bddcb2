/**
 * `requestBody`: request bodies an operation's request schema accepts, valid by construction, each with its
 * provenance (`positive`). The schema comes from the description ({@link requestSchemaOf}); what the schema cannot
 * say (a region that exists, a label not taken, a strong password, a rule between two fields) the caller supplies
 * as constraints, so the same arbitrary serves any target.
 *
 * ```ts
 * const schema = requestSchemaOf(spec, "createNodeBalancer")!;
 * const bodies = requestBody(schema, { overrides: { "/region": fc.constantFrom(...regionIds) } });
 * ```
 * @module
 * @public
 */
import type fc from "fast-check";
import { type BodySchema, requestSchemaOf, responseSchemaOf } from "./_internals/body-schema.ts";
import { schemaValue } from "./_internals/builders/schema-value.ts";
import { type Generated, positive } from "./case-meta.ts";

export type { BodySchema, JsonType } from "./_internals/body-schema.ts";
export { requestSchemaOf, responseSchemaOf };

export interface RequestBodyConstraints {
  /**
   * Arbitraries used instead of the schema's, keyed by schema path: JSON pointer of property names with `*` for
   * any array item (`/region`; `*` stands for any array item index). For values with meaning beyond the schema.
   */
  readonly overrides?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Optional properties always sent (schema paths). */
  readonly include?: readonly string[];
  /** Optional properties never sent (schema paths): values the caller cannot make valid on its target. */
  readonly exclude?: readonly string[];
  /** May `null` be sent where the schema allows it? Default true. */
  readonly nulls?: boolean;
  /** Most array items beyond `minItems`; default 3. */
  readonly extraItems?: number;
  /** Longest string beyond `minLength` where the schema sets no `maxLength`; default 24. */
  readonly extraLength?: number;
  /**
   * Applied to every generated body: rules between fields the schema cannot state (a check interval greater than
   * the timeout). It must keep the body valid against the schema.
   */
  readonly refine?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** The scenario named in the provenance; default `body-valid`. */
  readonly scenario?: string;
}

/** Bodies `schema` accepts (an object schema), each with `positive` provenance. */
export function requestBody(
  schema: BodySchema,
  constraints: RequestBodyConstraints = {},
): fc.Arbitrary<Generated<Record<string, unknown>>> {
  const scenario = constraints.scenario ?? "body-valid";
  return requestBodyValue(schema, constraints).map((value) => ({ value, meta: positive(scenario) }));
}

/** The bare values of {@link requestBody} (no provenance), for arbitraries built on top of it. */
export function requestBodyValue(
  schema: BodySchema,
  constraints: RequestBodyConstraints = {},
): fc.Arbitrary<Record<string, unknown>> {
  const value = schemaValue(schema, "", {
    overrides: new Map(Object.entries(constraints.overrides ?? {})),
    include: new Set(constraints.include ?? []),
    exclude: new Set(constraints.exclude ?? []),
    nulls: constraints.nulls ?? true,
    extraItems: constraints.extraItems ?? 3,
    extraLength: constraints.extraLength ?? 24,
  }) as fc.Arbitrary<Record<string, unknown>>;
  const refine = constraints.refine;
  return refine ? value.map((body) => refine(structuredClone(body))) : value;
}
